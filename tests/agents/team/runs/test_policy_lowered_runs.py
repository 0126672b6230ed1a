"""A limit changed between an approval and the run (issue 27, part 4).

Given Hanako's refund of ¥12,800 approved once under the environment's four-eyes amount
(¥30,000), when a manager lowers it to ¥10,000 before the worker resumes the run, then the
refund does not run: the action waits again, in the managers' queue, with the first approval
carried over and the reason shown, the customer is not told a second time, and a manager's
second approval lets it run once in both names. A limit raised after a first approval does
not take back the second approval it asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User

from agents.models import (
    MANAGERS_QUEUE,
    ActionState,
    Escalation,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from agents.support.escalations.action_states import action_decisions_shown
from agents.support.escalations.services import escalation_decide
from agents.team.runs import driver
from agents.team.runs.outcome import RunOutcome
from netshop.models import Refund
from netshop.policy import policy_change, policy_in_force, policy_values
from netshop.roles import Role
from tests.operators.api_helpers import staff_user
from tests.support.scenarios import SCENARIO_PREFIX, SupportShop

Ask = Callable[..., RunOutcome]
REFUND_TEXT = "{delivered}が壊れていました。返金してください。"


def set_four_eyes(manager: User, amount: int) -> None:
    policy = policy_in_force()
    values = {**policy_values(policy), "four_eyes_yen": amount}
    policy_change(user=manager, values=values, reason="a bad week", based_on=policy.version)


def refunds() -> list[Any]:
    return list(Refund.objects.exclude(operation_id__startswith=SCENARIO_PREFIX))


def told(inquiry_id: str) -> int:
    """The messages the customer has had from the AI."""
    return Message.objects.filter(inquiry_id=inquiry_id, author_kind=MessageAuthor.AI).count()


def test_a_refund_approved_once_waits_for_a_second_approval_when_the_amount_was_lowered_since(
    shop: SupportShop, ask: Ask, sent: list[str]
) -> None:
    outcome = ask(REFUND_TEXT.format(**shop.hanako.numbers()), customer=shop.hanako.customer)
    first = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    operator, manager = staff_user("op1", Role.OPERATOR), staff_user("mgr1", Role.MANAGER)
    escalation_decide(escalation_id=first.pk, user=operator, decision="approve")
    assert sent == [outcome.inquiry_id]  # one approval sufficed: the run is to resume
    before = told(outcome.inquiry_id)
    assert before >= 1  # told once, as the run first waited

    set_four_eyes(manager, 10000)
    driver.inquiry_advance(inquiry_id=sent[0])

    assert refunds() == []
    again = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    assert (again.reason, again.awaits_second_approval, again.owner) == (
        "approvals_short",
        True,
        MANAGERS_QUEUE,
    )
    [shown] = action_decisions_shown(again)
    assert (shown["state"], shown["approvals"]) == (ActionState.AWAITING_SECOND_APPROVAL, ["op1"])
    assert Inquiry.objects.get(pk=outcome.inquiry_id).status == InquiryStatus.AWAITING_APPROVAL
    assert told(outcome.inquiry_id) == before  # not told a second time

    escalation_decide(escalation_id=again.pk, user=manager, decision="approve")
    driver.inquiry_advance(inquiry_id=outcome.inquiry_id)

    [refund] = refunds()
    assert (refund.amount, refund.actor) == (12800, "op1, mgr1")
    assert Inquiry.objects.get(pk=outcome.inquiry_id).status == InquiryStatus.RESOLVED
    record = Escalation.objects.get(pk=again.pk).action_decisions[shown["action_id"]]
    assert record["record"]["policy_version"] == 1


def test_a_limit_raised_after_a_first_approval_still_waits_for_the_second(
    shop: SupportShop, ask: Ask, sent: list[str]
) -> None:
    manager = staff_user("mgr1", Role.MANAGER)
    set_four_eyes(manager, 10000)
    outcome = ask(REFUND_TEXT.format(**shop.hanako.numbers()), customer=shop.hanako.customer)
    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    escalation_decide(
        escalation_id=escalation.pk, user=staff_user("op1", Role.OPERATOR), decision="approve"
    )

    set_four_eyes(manager, 30000)

    [shown] = action_decisions_shown(Escalation.objects.get(pk=escalation.pk))
    assert shown["state"] == ActionState.AWAITING_SECOND_APPROVAL
    assert sent == []
    escalation_decide(escalation_id=escalation.pk, user=manager, decision="approve")
    driver.inquiry_advance(inquiry_id=outcome.inquiry_id)
    assert [r.actor for r in refunds()] == ["op1, mgr1"]
