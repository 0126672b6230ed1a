"""A run resumed by decisions per action and by four eyes (issue 15, sections 1 and 2).

Given Hanako (``support_shop``) asking for a cancellation and a refund in one message,
when operators decide the two actions separately (or a large refund waits for a manager's
second approval), then the run resumes once every action has its decision, each action does
what its own decision says, exactly once, and the reply tells the customer both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.test import override_settings

from agents.models import Escalation, Inquiry, InquiryStatus
from agents.support.escalations.services import escalation_decide
from agents.team.runs import driver
from agents.team.runs.outcome import RunOutcome
from netshop.errors import DomainError
from netshop.models import Order, OrderStatus, Refund
from netshop.roles import Role
from tests.operators.api_helpers import staff_user
from tests.support.concurrency import released_together
from tests.support.scenarios import SCENARIO_PREFIX, SupportShop

Ask = Callable[..., RunOutcome]
BOTH_TEXT = (
    "{pending}をキャンセルしてください。それと、{delivered}が壊れていたので返金してください。"
)
REFUND_TEXT = "{delivered}が壊れていました。返金してください。"


def refunds_on(order: Order) -> int:
    refunds = Refund.objects.filter(payment__order=order)
    return refunds.exclude(operation_id__startswith=SCENARIO_PREFIX).count()


def action_ids(escalation: Escalation) -> dict[str, str]:
    return {a["kind"]: a["action_id"] for a in escalation.actions}


def test_a_refund_approved_and_a_cancellation_rejected_each_do_as_decided(
    shop: SupportShop, ask: Ask, sent: list[str]
) -> None:
    outcome = ask(BOTH_TEXT.format(**shop.hanako.numbers()), customer=shop.hanako.customer)
    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    ids = action_ids(escalation)
    assert sorted(ids) == ["cancel_order", "process_refund"]

    escalation_decide(
        escalation_id=escalation.pk,
        user=staff_user("op1", Role.OPERATOR),
        decision="approve",
        action_id=ids["process_refund"],
    )
    assert sent == []  # the cancellation still waits: the run does not resume
    escalation_decide(
        escalation_id=escalation.pk,
        user=staff_user("op2", Role.OPERATOR),
        decision="reject",
        reason="すでに発送準備に入っているためキャンセルできません",
        action_id=ids["cancel_order"],
    )
    assert sent == [outcome.inquiry_id]
    driver.inquiry_advance(inquiry_id=sent[0])

    inquiry = Inquiry.objects.get(pk=outcome.inquiry_id)
    assert inquiry.status == InquiryStatus.RESOLVED
    assert refunds_on(shop.hanako.delivered) == 1
    assert Order.objects.get(number=shop.hanako.pending.number).status != OrderStatus.CANCELLED
    assert "12,800" in inquiry.reply
    assert "すでに発送準備に入っているためキャンセルできません" in inquiry.reply


@override_settings(NETSHOP_FOUR_EYES_YEN=10000)
def test_a_four_eyes_refund_runs_after_the_managers_second_approval_once(
    shop: SupportShop, ask: Ask, sent: list[str]
) -> None:
    outcome = ask(REFUND_TEXT.format(**shop.hanako.numbers()), customer=shop.hanako.customer)
    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    first, manager = staff_user("op1", Role.OPERATOR), staff_user("mgr1", Role.MANAGER)

    escalation_decide(escalation_id=escalation.pk, user=first, decision="approve")
    assert sent == []
    driver.inquiry_advance(inquiry_id=outcome.inquiry_id)  # a stray wake-up finds no decision
    assert refunds_on(shop.hanako.delivered) == 0

    escalation_decide(escalation_id=escalation.pk, user=manager, decision="approve")
    assert sent == [outcome.inquiry_id]
    driver.inquiry_advance(inquiry_id=sent[0])
    driver.inquiry_advance(inquiry_id=sent[0])  # delivered twice: still one refund

    assert Inquiry.objects.get(pk=outcome.inquiry_id).status == InquiryStatus.RESOLVED
    assert refunds_on(shop.hanako.delivered) == 1
    refund: Any = Refund.objects.exclude(operation_id__startswith=SCENARIO_PREFIX).get()
    assert refund.actor == "op1, mgr1"  # both approvers


@override_settings(NETSHOP_FOUR_EYES_YEN=10000)
def test_two_managers_approving_at_once_resume_the_run_once_and_refund_once(
    shop: SupportShop, ask: Ask, sent: list[str]
) -> None:
    outcome = ask(REFUND_TEXT.format(**shop.hanako.numbers()), customer=shop.hanako.customer)
    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    escalation_decide(
        escalation_id=escalation.pk, user=staff_user("op1", Role.OPERATOR), decision="approve"
    )
    managers = [staff_user(f"mgr{i}", Role.MANAGER) for i in (1, 2)]

    def approve(manager: User) -> str:
        try:
            escalation_decide(escalation_id=escalation.pk, user=manager, decision="approve")
        except DomainError as conflict:
            return conflict.code
        return "decided"

    outcomes = released_together(approve, managers)
    for inquiry_id in list(sent):
        driver.inquiry_advance(inquiry_id=inquiry_id)

    assert sorted(outcomes) == ["already_decided", "decided"]
    assert sent == [outcome.inquiry_id]
    assert Inquiry.objects.get(pk=outcome.inquiry_id).status == InquiryStatus.RESOLVED
    assert refunds_on(shop.hanako.delivered) == 1
