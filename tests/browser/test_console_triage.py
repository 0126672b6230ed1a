"""Triage with the keyboard alone (issue 26, section 2): headless Chromium, daphne, a real worker.

Given five customers whose refunds wait for approval, when an operator opens the queue sorted
by amount at risk and, without a click, selects the first row (j), opens it (Enter), and
approves each item with "a" then Enter, then every decision opens the next item of the queue
in that order, each refund is approved once and paid once, and after the fifth the operator
is back on the queue, told that nothing else waits, with no row left.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from agents.models import ConsoleEvent, Escalation, EscalationKind
from agents.support.conversations.intake import inquiry_create
from netshop.models import Language, Order, Refund
from tests.browser.conftest import OpenSession
from tests.factories import CustomerFactory, delivered_order
from tests.support.browser import wait_for_js
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RUN_TIMEOUT_S = 180
# Below the four-eyes amount (30,000), so one approval each; listed in the queue's order.
AMOUNTS = (21000, 17500, 9800, 6400, 2300)
CONNECTED = "window.netshopConsole && window.netshopConsole.connected === true"


def asked_for_refunds() -> list[tuple[Order, Escalation]]:
    """Five refunds waiting for approval, largest first; asked smallest first, so the queue's
    order by amount differs from the order they arrived in."""
    orders = []
    for amount in reversed(AMOUNTS):
        customer = CustomerFactory.create(language=Language.JAPANESE)
        order = delivered_order(customer=customer, captured=amount)
        inquiry_create(
            customer=customer, text=f"{order.number}の商品が壊れていました。返金してください。"
        )
        orders.append(order)
    waits = Escalation.objects.filter(kind=EscalationKind.APPROVAL, status="open")
    wait_until(lambda: waits.count() == len(AMOUNTS), timeout=RUN_TIMEOUT_S)
    by_order = {e.actions[0]["params"]["order_number"]: e for e in waits}
    return sorted(
        ((o, by_order[o.number]) for o in orders), key=lambda pair: -pair[1].amount_at_risk
    )


def approve_with_the_keyboard(page: Page) -> None:
    wait_for_js(page, CONNECTED)
    wait_for_js(page, "document.getElementById('approve-form').dataset.previewState")
    page.keyboard.press("a")
    expect(page.locator("#approve-button")).to_be_focused()
    page.keyboard.press("Enter")


def test_an_operator_decides_five_escalations_in_a_row_with_the_keyboard_alone(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    waiting = asked_for_refunds()
    assert [e.amount_at_risk for _, e in waiting] == list(AMOUNTS)
    operator = open_session("operator")
    page = operator.page
    page.goto("/console/?order=amount")
    wait_for_js(page, CONNECTED)
    operator.shot(shots, "1-queue-by-amount")

    page.keyboard.press("j")
    expect(page.locator(f"#row-{waiting[0][1].pk}")).to_have_class(re.compile(r"\bselected\b"))
    page.keyboard.press("Enter")
    opened = []
    for n, (_, escalation) in enumerate(waiting, start=1):
        page.wait_for_url(re.compile(rf"/console/escalations/{escalation.pk}/$"))
        opened.append(escalation.pk)
        expect(page.locator("#approve-button")).to_contain_text(f"¥{escalation.amount_at_risk:,}")
        operator.shot(shots, f"2-item-{n}")
        approve_with_the_keyboard(page)

    page.wait_for_url(re.compile(r"/console/\?order=amount$"))
    expect(page.locator("body")).to_contain_text("No other escalation waits in this queue.")
    expect(page.locator("tr.queue-row")).to_have_count(0)
    operator.shot(shots, "3-back-on-the-empty-queue")

    assert opened == [e.pk for _, e in waiting]
    for _, escalation in waiting:
        escalation.refresh_from_db()
        assert escalation.decided_by is not None
        assert (escalation.status, escalation.decided_by.username) == ("decided", "operator")
        decided = ConsoleEvent.objects.filter(
            type="escalation.decided", payload__id=str(escalation.pk)
        )
        assert decided.count() == 1
    wait_until(
        lambda: (
            Refund.objects.filter(payment__order__in=[o for o, _ in waiting]).count()
            == len(AMOUNTS)
        ),
        timeout=RUN_TIMEOUT_S,
    )
    for order, escalation in waiting:
        [refund] = Refund.objects.filter(payment__order=order)
        assert refund.amount == escalation.amount_at_risk
    assert operator.dialogs == []
    assert operator.errors == []


def test_editing_shows_one_preview_the_current_one(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    customer = CustomerFactory.create(language=Language.JAPANESE)
    order = delivered_order(customer=customer, captured=8600)
    inquiry = inquiry_create(
        customer=customer, text=f"{order.number}の商品が壊れていました。返金してください。"
    )
    waits = Escalation.objects.filter(inquiry=inquiry, kind=EscalationKind.APPROVAL)
    wait_until(waits.exists, timeout=RUN_TIMEOUT_S)
    operator = open_session("operator")
    page = operator.page
    page.goto(f"/console/escalations/{waits.get().pk}/")
    wait_for_js(page, CONNECTED)
    shown = page.locator(".reply-preview:visible")
    expect(page.locator("#approve-preview-text")).to_contain_text("8,600")

    page.keyboard.press("e")  # opens "Edit, then approve" at the amount
    page.fill("#edit-amount", "4300")
    expect(page.locator("#edit-preview-text")).to_contain_text("4,300")
    expect(shown).to_have_count(1)
    expect(shown).to_have_id("edit-preview")
    operator.shot(shots, "1-only-the-edited-reply")

    page.locator("#approve-button").focus()  # back to approving as recommended
    expect(shown).to_have_count(1)
    expect(shown).to_have_id("approve-preview")
    assert operator.errors == []
