"""The queue tells an operator of itself without being looked at (issue 15, section 4).

Given an operator's live queue in Chromium against daphne, when escalations open and are
decided elsewhere, then the tab title's "(n)" follows the open count without a reload; a
desktop notification (and beep) for a new approval comes only once the operator switched it
on in the preferences, and never breaks the Content Security Policy.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agents.models import Escalation
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.services import escalation_decide
from netshop.models import Customer
from tests.browser.conftest import OpenSession
from tests.operators.api_helpers import escalation_for
from tests.support.browser import Session, wait_for_js

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TITLE = "Escalation queue · NetShop"


def escalation_of(customer: str, text: str) -> Escalation:
    inquiry = inquiry_create(customer=Customer.objects.get(code=customer), text=text, start=False)
    return escalation_for(inquiry)


def wait_live(page: Page) -> None:
    wait_for_js(page, "window.netshopConsole && window.netshopConsole.connected === true")
    wait_for_js(page, "window.netshopConsole.refreshes >= 1")


def assert_clean(session: Session) -> None:
    assert session.csp_violations() == []
    assert session.errors == []
    assert session.dialogs == []


def test_the_tab_title_counts_the_open_queue_live(open_session: OpenSession, shop: None) -> None:
    operator = open_session("operator")
    queue = operator.page
    wait_live(queue)
    open_before = Escalation.objects.filter(status="open").count()
    expect(queue).to_have_title(f"({open_before}) {TITLE}" if open_before else TITLE)
    operator.set_marker()

    first = escalation_of("C0001", "ORD-1003が壊れていました。返金してください。")
    expect(queue).to_have_title(f"({open_before + 1}) {TITLE}")
    escalation_of("C0002", "注文を取り消したいです。")
    expect(queue).to_have_title(f"({open_before + 2}) {TITLE}")

    escalation_decide(
        escalation_id=first.pk,
        user=User.objects.get(username="operator"),
        decision="reject",
        reason="お届け前のため返金できません。",
    )

    expect(queue).to_have_title(f"({open_before + 1}) {TITLE}")
    assert operator.kept_marker()  # all of it live, no reload
    assert_clean(operator)


def test_a_new_approval_alerts_only_once_switched_on(open_session: OpenSession, shop: None) -> None:
    operator = open_session("operator")
    operator.context.grant_permissions(["notifications"])
    queue = operator.page
    wait_live(queue)
    expect(queue.locator("#notify-browser")).not_to_be_checked()  # off by default

    escalation_of("C0001", "ORD-1003が壊れていました。返金してください。")
    expect(queue.locator("tr.queue-row")).not_to_have_count(0)
    assert queue.evaluate("window.netshopConsole.alerts") == 0

    queue.check("#notify-browser")
    queue.click("#preferences-form button[type=submit]")
    expect(queue).to_have_url(re.compile(r"/console/"))
    expect(queue.locator("#notify-browser")).to_be_checked()  # saved
    wait_live(queue)
    queue.locator("body").click()  # the gesture that lets the page sound

    escalation_of("C0002", "ORD-1003の包丁が欠けていました。返金を希望します。")

    wait_for_js(queue, "window.netshopConsole.alerts === 1")
    assert_clean(operator)
