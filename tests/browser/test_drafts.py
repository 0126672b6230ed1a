"""A reply the AI may not send on its own, sent by a person with one click (issue 25, part 2).

Headless Chromium against daphne and a real Celery worker, under the default autonomy: a
customer's off-topic message on ``/help/`` becomes a draft in the queue and the customer sees
no answer yet; an operator opens it and presses "Send reply"; the customer's open page shows
the reply live. The same draft clicked in two browsers at once is sent once, and the second
operator is told who sent it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from agents.models import Escalation, EscalationKind, EscalationStatus, Inquiry, MessageAuthor
from agents.support.escalations.drafts import draft_text
from netshop.models import Language
from tests.browser.conftest import PASSWORD, OpenSession
from tests.factories import CustomerFactory
from tests.support.browser import wait_for_js
from tests.support.drafts import DRAFTED, drafted
from tests.support.scenarios import customer_login
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RUN_TIMEOUT_S = 60
OFF_TOPIC = "Random question: will it rain in Sapporo over the weekend?"


def test_an_off_topic_message_waits_as_a_draft_one_click_sends_it_live(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    nora = CustomerFactory.create(name="Nora Blake", language=Language.ENGLISH)
    login = customer_login(nora)
    login.set_password(PASSWORD)
    login.save()
    customer = open_session(login.username).page
    customer.goto("/help/")
    customer.locator("#inquiry-form textarea").fill(OFF_TOPIC)
    customer.locator("#inquiry-submit").click()

    wait_until(
        lambda: Escalation.objects.filter(
            inquiry__customer=nora, kind=EscalationKind.DRAFT
        ).exists(),
        timeout=RUN_TIMEOUT_S,
    )
    draft = Escalation.objects.get(inquiry__customer=nora, kind=EscalationKind.DRAFT)
    inquiry = draft.inquiry
    customer.goto("/help/")
    thread = customer.locator(f"#inquiry-{inquiry.pk} .thread .message")
    expect(thread).to_have_count(1)  # the customer's own message, no answer yet
    wait_for_js(customer, f"document.getElementById('inquiry-{inquiry.pk}').dataset.live === '1'")

    operator = open_session("operator").page
    operator.goto(f"/console/escalations/{draft.pk}/")
    expect(operator.locator("#draft-text")).to_have_value(draft_text(draft))
    operator.screenshot(path=str(shots / "draft.png"), full_page=True)
    operator.click("#send-reply-button")

    expect(thread).to_have_count(2, timeout=5000)  # live, no reload
    expect(thread.nth(1)).to_have_class("message author-ai")
    expect(thread.nth(1).locator(".message-text")).to_have_text(draft_text(draft))
    customer.screenshot(path=str(shots / "customer.png"), full_page=True)
    draft.refresh_from_db()
    assert draft.status == EscalationStatus.DECIDED
    assert inquiry.messages.filter(author_kind=MessageAuthor.AI).count() == 1


def test_the_same_draft_clicked_in_two_browsers_is_sent_once(
    open_session: OpenSession, shop: None
) -> None:
    draft = drafted()
    pages = [open_session(name).page for name in ("operator", "manager")]
    for page in pages:
        page.goto(f"/console/escalations/{draft.pk}/")
        expect(page.locator("#draft-text")).to_have_value(DRAFTED)

    for page in pages:  # both press before either page reloads
        page.evaluate("document.getElementById('send-reply-form').requestSubmit()")
    for page in pages:
        page.wait_for_load_state()

    wait_until(lambda: Escalation.objects.get(pk=draft.pk).status == EscalationStatus.DECIDED)
    inquiry = Inquiry.objects.get(pk=draft.inquiry_id)
    assert inquiry.messages.filter(author_kind=MessageAuthor.AI).count() == 1
    decided_by = Escalation.objects.get(pk=draft.pk).decided_by
    assert decided_by is not None
    sender = decided_by.username
    other = pages[1] if sender == "operator" else pages[0]
    expect(other.locator("#decision-error")).to_contain_text(sender)
