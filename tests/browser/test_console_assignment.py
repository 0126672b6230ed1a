"""Claims and assignment in the browser: no page keeps a "Claimed by …" banner that is stale.

Given an approval waiting in the demo shop and operators' and a manager's detail pages open
in their own browser contexts, when one claims, the manager takes the claim over and assigns
it, and the claim times out, then every other open page's banner follows without a reload;
and a conversation is assigned from its page.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from agents.models import Escalation
from agents.support.escalations.claims import claims_expire
from netshop.models import Customer
from netshop.roles import Role, role_assign
from tests.browser.conftest import PASSWORD, OpenSession
from tests.operators.api_helpers import escalation_for, inquiry_for
from tests.support.browser import wait_for_js

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BANNER_MS = 15_000  # an event over the socket, then the panel's re-read


def wait_live(page: Page) -> None:
    wait_for_js(page, "window.netshopConsole && window.netshopConsole.connected === true")


def test_claim_banners_follow_claims_take_overs_assignments_and_time_outs(
    open_session: OpenSession, shop: None, shots: Path
) -> None:
    second = User.objects.create_user("operator2", password=PASSWORD)
    role_assign(user=second, role=Role.OPERATOR)
    escalation = escalation_for(inquiry_for(Customer.objects.get(code="C0001")))
    detail = f"/console/escalations/{escalation.pk}/"
    a, b, boss = open_session("operator"), open_session("operator2"), open_session("manager")
    for session in (a, b, boss):
        session.page.goto(detail)
        wait_live(session.page)
    b.set_marker()

    # One operator claims: the other's banner names them at once.
    a.page.click("#claim-button")
    expect(b.page.locator("#state-banner")).to_have_text(
        "Claimed by operator: only they can decide or release it."
    )
    expect(b.page.locator("#assign-form")).to_have_count(0)
    expect(b.page.locator("#approve-button")).to_be_disabled()

    # The manager takes it over: both operators' banners follow.
    expect(boss.page.locator("#take-over-claim-button")).to_be_visible()
    # The take-over posts a form and reloads the manager's page: assigning before the new page
    # is in would click a form that is going away (lost, on a loaded machine).
    with boss.page.expect_navigation():
        boss.page.click("#take-over-claim-button")
    for session in (a, b):
        expect(session.page.locator("#state-banner")).to_have_text(
            "Claimed by manager: only they can decide or release it."
        )
    b.shot(shots, "1-taken-over-by-the-manager")

    # The manager assigns it to the second operator, who now holds it. The manager's live panel
    # is re-read on each event (the take-over's own among them), which replaces the form: the
    # choice and the submission are made in one step on the form as it is, after the re-read.
    expect(boss.page.locator("#state-banner")).to_have_text("You have claimed this escalation.")
    with boss.page.expect_navigation():
        boss.page.locator("#assign-form").evaluate(
            "(form) => { form.querySelector('#assign-select').value = 'operator2';"
            " form.requestSubmit(form.querySelector('#assign-button')); }"
        )
    expect(b.page.locator("#state-banner")).to_have_text("You have claimed this escalation.")
    expect(b.page.locator("#approve-button")).to_be_enabled()
    expect(a.page.locator("#state-banner")).to_have_text(
        "Claimed by operator2: only they can decide or release it."
    )
    escalation.refresh_from_db()
    assert escalation.claimed_by == second

    # Nobody works on it: the sweep releases it, and every page says so.
    long_ago = timezone.now() - timedelta(hours=1)
    Escalation.objects.filter(pk=escalation.pk).update(claim_active_at=long_ago)
    assert claims_expire() == [str(escalation.pk)]
    for session in (a, b, boss):
        expect(session.page.locator("#state-banner")).to_have_text(
            "Unclaimed. Claim it so nobody else acts on it.", timeout=BANNER_MS
        )
    expect(a.page.locator("#timeline")).to_contain_text("Claim released after no activity")
    assert b.kept_marker()  # no reload: the page followed the events
    b.shot(shots, "2-released-after-no-activity")
    for session in (a, b, boss):
        assert session.errors == []


def test_a_conversation_is_assigned_from_its_page_and_the_colleague_sees_it(
    open_session: OpenSession, shop: None
) -> None:
    second = User.objects.create_user("operator2", password=PASSWORD)
    role_assign(user=second, role=Role.OPERATOR)
    inquiry = inquiry_for(Customer.objects.get(code="C0001"))
    page_url = f"/console/conversations/{inquiry.pk}/"
    a, b = open_session("operator"), open_session("operator2")
    for session in (a, b):
        session.page.goto(page_url)
        wait_live(session.page)

    a.page.select_option("#assign-conversation-select", "operator2")
    a.page.click("#assign-conversation-button")

    expect(b.page.locator("#owner-banner")).to_have_text(
        "You own this conversation: the AI sends nothing until you hand it back."
    )
    expect(b.page.locator("#message-text")).to_be_visible()
    expect(a.page.locator("#owner-banner")).to_have_text(
        "Taken over by operator2: only they can write to the customer."
    )
    inquiry.refresh_from_db()
    assert inquiry.human_owner == second
