"""Decisions per action in the console: headless Chromium against daphne and a real worker.

Given a customer who asks in one message for a cancellation and a refund, when an operator
approves the refund and rejects the cancellation with a reason, each with its own button,
then the escalation stays open after the first, the run resumes after the second, the refund
is paid once, the order is not cancelled, and the customer's reply tells both.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from agents.models import Escalation, Inquiry
from agents.support.conversations.intake import inquiry_create
from netshop.models import Customer, Order, OrderStatus, Refund
from tests.browser.conftest import OpenSession
from tests.support.browser import wait_for_js
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BOTH_TEXT = "ORD-1001は取り消しでお願いします。それと、ORD-1003が壊れていたので返金してください。"
REASON = "すでに発送準備に入っているためキャンセルできません"
RUN_TIMEOUT_MS = 60_000


def test_a_refund_approved_and_a_cancellation_rejected_one_by_one_resume_the_run_once(
    open_session: OpenSession, worker: Worker, shots: Path, staying_after_a_decision: None
) -> None:
    inquiry = inquiry_create(customer=Customer.objects.get(code="C0001"), text=BOTH_TEXT)
    found = Escalation.objects.filter(inquiry=inquiry)
    wait_until(found.exists, timeout=60)
    escalation = found.get()
    ids = {a["kind"]: a["action_id"] for a in escalation.actions}
    operator = open_session("operator")
    page = operator.page
    page.goto(f"/console/escalations/{escalation.pk}/")
    wait_for_js(page, "window.netshopConsole && window.netshopConsole.connected === true")
    refund = page.locator(f'.action-decision[data-action-id="{ids["process_refund"]}"]')
    cancel = page.locator(f'.action-decision[data-action-id="{ids["cancel_order"]}"]')
    expect(refund).to_have_attribute("data-state", "pending")
    expect(cancel).to_have_attribute("data-state", "pending")
    operator.shot(shots, "1-two-actions-to-decide")

    refund.locator("button.approve-action").click()
    expect(refund).to_have_attribute("data-state", "decided")
    expect(refund).to_contain_text("approved by operator")
    expect(page.locator("body")).to_contain_text("The other actions still wait for a decision.")
    escalation.refresh_from_db()
    assert (
        escalation.status,
        Refund.objects.filter(operation_id=ids["process_refund"]).count(),
    ) == (
        "open",
        0,
    )

    cancel.locator("textarea.action-reject-reason").fill(REASON)
    cancel.locator("button.reject-action").click()
    expect(page.locator("#status-card")).to_have_attribute("data-state", "decided")
    expect(page.locator("#inquiry-status")).to_have_attribute(
        "data-status", "resolved", timeout=RUN_TIMEOUT_MS
    )
    expect(page.locator("#final-reply")).to_contain_text("12,800")
    expect(page.locator("#final-reply")).to_contain_text(REASON)
    operator.shot(shots, "2-resolved-with-both-decisions")

    assert Inquiry.objects.get(pk=inquiry.pk).status == "resolved"
    assert Refund.objects.filter(operation_id=ids["process_refund"]).count() == 1
    assert Order.objects.get(number="ORD-1001").status != OrderStatus.CANCELLED
    assert re.search(r"12,800", Inquiry.objects.get(pk=inquiry.pk).reply)
    assert operator.dialogs == []
    assert operator.errors == []
