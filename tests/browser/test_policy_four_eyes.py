"""Issue 27's Done-when for the policy: a manager lowers the four-eyes amount in the console
(the daphne server's process), and the next refund above the new amount, run by a separate
Celery worker process, waits for a manager's second approval. The change is in the audit
trail and the chain verifies.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from agents.models import ActionState, Escalation, EscalationKind, Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.action_states import action_decisions_shown
from agents.support.escalations.services import escalation_decide
from netshop.audit import AuditAction, audit_verify
from netshop.audit.models import AuditEntry
from netshop.models import Language, PolicyVersion, Refund
from netshop.policy import policy_in_force
from tests.browser.conftest import OpenSession
from tests.factories import CustomerFactory, delivered_order
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RUN_TIMEOUT_S = 60
NEW_FOUR_EYES = 10000
AMOUNT = 12800  # under the environment's four-eyes amount (30,000), above the new one


def test_a_four_eyes_amount_lowered_in_the_console_holds_the_next_refund_for_a_second_approval(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    assert policy_in_force().four_eyes_yen > AMOUNT  # before: one approval would pay it
    manager = open_session("manager")
    page = manager.page
    page.goto("/audit/policy/")
    page.fill("#id_four_eyes_yen", str(NEW_FOUR_EYES))
    page.fill("#id_reason", "返金の不正が続いたため二重承認の金額を下げる")
    page.click("#save-policy")
    expect(page.locator("#policy-version")).to_have_attribute("data-version", "1")
    manager.shot(shots, "1-manager-lowers-the-four-eyes-amount")
    assert policy_in_force().four_eyes_yen == NEW_FOUR_EYES

    customer = CustomerFactory.create(language=Language.JAPANESE)
    order = delivered_order(customer=customer, captured=AMOUNT)
    inquiry = inquiry_create(
        customer=customer, text=f"{order.number}の商品が壊れていました。返金してください。"
    )
    waits = Escalation.objects.filter(inquiry=inquiry, kind=EscalationKind.APPROVAL)
    wait_until(waits.exists, timeout=RUN_TIMEOUT_S)
    escalation = escalation_decide(
        escalation_id=waits.get().pk, user=_user("operator"), decision="approve"
    )

    [shown] = action_decisions_shown(escalation)
    assert (shown["state"], shown["approvals"]) == (
        ActionState.AWAITING_SECOND_APPROVAL,
        ["operator"],
    )
    assert escalation.action_decisions[shown["action_id"]]["record"]["policy_version"] == 1
    assert Refund.objects.filter(payment__order=order).count() == 0
    [entry] = AuditEntry.objects.filter(action=AuditAction.POLICY_CHANGED)
    assert (entry.actor, entry.data["changed"]["four_eyes_yen"]) == (
        "manager",
        {"before": 30000, "after": NEW_FOUR_EYES},
    )
    assert audit_verify().ok
    assert PolicyVersion.objects.count() == 1
    assert manager.errors == []

    escalation_decide(escalation_id=escalation.pk, user=_user("manager"), decision="approve")
    wait_until(
        lambda: Inquiry.objects.get(pk=inquiry.pk).status == "resolved", timeout=RUN_TIMEOUT_S
    )
    [refund] = Refund.objects.filter(payment__order=order)
    assert (refund.amount, refund.actor) == (AMOUNT, "operator, manager")


def _user(username: str) -> User:
    return User.objects.get(username=username)
