"""Four eyes people can see (issue 26, section 1): headless Chromium, daphne, a real worker.

Given a refund at the four-eyes amount, when an operator gives the first approval, then the
queue row says it waits for a manager's second approval and the Managers' queue holds it,
the operator's approve buttons are disabled with the reason beside them, a manager finds it
in their queue and gives the second approval, and the refund is paid once, in both names.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from agents.models import Escalation, EscalationKind, Inquiry
from agents.support.conversations.intake import inquiry_create
from netshop.models import Language, Refund
from tests.browser.conftest import OpenSession
from tests.factories import CustomerFactory, delivered_order
from tests.support.browser import wait_for_js
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RUN_TIMEOUT_S = 60
AMOUNT = 36000  # at or above the four-eyes amount (30,000), within the operator's limit


def test_a_four_eyes_refund_waits_visibly_for_a_manager_who_approves_it_once(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    customer = CustomerFactory.create(language=Language.JAPANESE)
    order = delivered_order(customer=customer, captured=AMOUNT)
    inquiry = inquiry_create(
        customer=customer, text=f"{order.number}の商品が壊れていました。返金してください。"
    )
    waits = Escalation.objects.filter(inquiry=inquiry, kind=EscalationKind.APPROVAL)
    wait_until(waits.exists, timeout=RUN_TIMEOUT_S)
    escalation = waits.get()
    assert escalation.amount_at_risk == AMOUNT

    operator = open_session("operator")
    page = operator.page
    page.goto(f"/console/escalations/{escalation.pk}/")
    wait_for_js(page, "window.netshopConsole && window.netshopConsole.connected === true")
    page.click("#approve-button")

    note = page.locator("#second-approval-note")
    expect(note).to_have_text("A second approval must come from another manager than operator.")
    expect(page.locator("button.approve-action")).to_be_disabled()
    expect(page.locator("#approve-button")).to_be_disabled()
    operator.shot(shots, "1-first-approver-sees-why")
    page.goto("/console/")
    row = page.locator(f"#row-{escalation.pk}")
    expect(row.locator(".second-approval")).to_have_text("waits for a manager's second approval")
    page.goto("/console/?managers=1")
    expect(page.locator(f"#row-{escalation.pk}")).to_have_count(1)
    assert Refund.objects.filter(payment__order=order).count() == 0

    manager = open_session("manager")
    queue = manager.page
    queue.goto("/console/?managers=1")
    queue.locator(f"#row-{escalation.pk} a.open-link").click()
    expect(queue.locator("#second-approval-note")).to_have_count(0)
    second = queue.locator("button.approve-action")
    expect(second).to_have_text("Give the second approval")
    manager.shot(shots, "2-manager-gives-the-second-approval")
    second.click()

    wait_until(
        lambda: Inquiry.objects.get(pk=inquiry.pk).status == "resolved", timeout=RUN_TIMEOUT_S
    )
    [refund] = Refund.objects.filter(payment__order=order)
    assert (refund.amount, refund.actor) == (AMOUNT, "operator, manager")
    assert operator.errors == []
    assert manager.errors == []
