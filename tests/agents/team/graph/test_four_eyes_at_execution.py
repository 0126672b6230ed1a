"""The gated action re-checks four eyes when it runs: a decision record that lacks the
approvals its amount requires under the policy in force (forged, half of a four-eyes approval,
or approved before a limit was lowered) never pays out: it waits for a person again.

Given a prepared refund and a decision as the run would resume with it, when the action is
carried out, then it executes only with the approvals the service would have required.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from agents.team.graph.gated_actions import carry_out
from netshop.audit import AuditAction
from netshop.audit.models import AuditEntry
from netshop.models import Refund
from netshop.policy import policy_change, policy_in_force, policy_values
from netshop.roles import Role, role_assign
from tests.agents.factories import ActionFactory
from tests.factories import delivered_order

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def staff() -> None:
    for name, role in [("op1", Role.OPERATOR), ("op2", Role.OPERATOR)]:
        role_assign(user=User.objects.create_user(name), role=role)
    for name in ("mgr1", "mgr2"):
        role_assign(user=User.objects.create_user(name), role=Role.MANAGER)


WAITS_AGAIN = ("awaiting_approval", "approvals_missing")  # nothing runs; a person decides again


def refund_of(amount: int) -> tuple[dict[str, Any], str]:
    order = delivered_order(captured=amount)
    action = ActionFactory.build(
        params={"order_number": order.number, "amount": amount, "reason": "damaged"},
        amount_at_risk=amount,
    )
    return action, order.customer.code


def outcome(action: dict[str, Any], customer: str, **decision: Any) -> tuple[str, str]:
    result = carry_out(
        action=action,  # type: ignore[arg-type]
        decision={"decision": "approve", "operator": "op1", **decision},  # type: ignore[typeddict-item]
        customer_id=customer,
    )
    return result["outcome"], result.get("code", "")


@pytest.mark.parametrize(
    "approvals",
    [
        None,  # a forged record: no approvals at all
        ["op1"],  # the first approval alone
        ["op1", "op1"],  # the first approver twice
        ["op1", "op2"],  # a second approval by an operator
        ["op1", "ghost"],  # by nobody the shop knows
    ],
)
def test_a_refund_at_the_four_eyes_amount_without_a_managers_second_approval_is_refused(
    approvals: list[str] | None,
) -> None:
    action, customer = refund_of(30000)
    extra = {} if approvals is None else {"approvals": approvals}

    assert outcome(action, customer, **extra) == WAITS_AGAIN
    assert Refund.objects.count() == 0


def test_a_refund_with_a_managers_second_approval_pays_once() -> None:
    action, customer = refund_of(30000)

    assert outcome(action, customer, approvals=["op1", "mgr1"]) == ("executed", "")
    assert outcome(action, customer, approvals=["op1", "mgr1"]) == ("executed", "")
    assert Refund.objects.count() == 1


def test_the_refund_and_its_audit_entry_name_both_approvers() -> None:
    action, customer = refund_of(30000)

    outcome(action, customer, approvals=["op1", "mgr1"])

    [refund] = Refund.objects.all()
    [entry] = AuditEntry.objects.filter(action=AuditAction.SIDE_EFFECT_REFUND)
    assert (refund.actor, entry.actor) == ("op1, mgr1", "op1, mgr1")


def test_an_edit_to_the_four_eyes_amount_needs_it_too() -> None:
    action, customer = refund_of(40000)
    action["params"]["amount"] = 20000
    action["amount_at_risk"] = 20000

    edited = {"decision": "edit", "params": {"amount": 35000}, "approvals": ["op1"]}
    assert outcome(action, customer, **edited) == WAITS_AGAIN
    assert Refund.objects.count() == 0


def test_above_the_operator_limit_every_approver_must_be_a_manager() -> None:
    action, customer = refund_of(120000)

    assert outcome(action, customer, approvals=["op1", "mgr1"]) == WAITS_AGAIN
    assert Refund.objects.count() == 0
    assert outcome(action, customer, approvals=["mgr1", "mgr2"]) == ("executed", "")
    assert Refund.objects.count() == 1


def test_below_the_four_eyes_amount_one_approval_runs() -> None:
    action, customer = refund_of(12800)

    assert outcome(action, customer) == ("executed", "")


def test_a_manager_who_lost_the_role_no_longer_counts() -> None:
    action, customer = refund_of(30000)
    role_assign(user=User.objects.get(username="mgr1"), role=Role.OPERATOR)

    assert outcome(action, customer, approvals=["op1", "mgr1"]) == WAITS_AGAIN
    assert Refund.objects.count() == 0


# --- The policy in force at execution, not the one approved under -------------------------


def lower_four_eyes_to(amount: int) -> None:
    manager = User.objects.get(username="mgr1")
    values = {**policy_values(policy_in_force()), "four_eyes_yen": amount}
    policy_change(user=manager, values=values, reason="a bad week", based_on=0)


def test_a_refund_approved_once_waits_again_when_the_four_eyes_amount_was_lowered_since() -> None:
    action, customer = refund_of(12800)  # one approval sufficed when it was given
    lower_four_eyes_to(10000)

    result = carry_out(
        action=action,  # type: ignore[arg-type]
        decision={"decision": "approve", "operator": "op1", "approvals": ["op1"]},
        customer_id=customer,
    )

    assert (result["outcome"], result["policy_version"]) == ("awaiting_approval", 1)
    assert result["carried"]["approvals"] == ["op1"]  # the first approval still counts
    assert result["carried"]["four_eyes_yen"] == 10000
    assert Refund.objects.count() == 0


def test_an_operators_approval_above_a_lowered_operator_limit_is_not_carried() -> None:
    action, customer = refund_of(50000)
    values = {**policy_values(policy_in_force()), "operator_limit_yen": 40000}
    policy_change(user=User.objects.get(username="mgr1"), values=values, reason="r", based_on=0)

    result = carry_out(
        action=action,  # type: ignore[arg-type]
        decision={"decision": "approve", "operator": "op1", "approvals": ["op1", "mgr1"]},
        customer_id=customer,
    )

    assert result["outcome"] == "awaiting_approval"
    assert result["carried"]["approvals"] == ["mgr1"]
    assert Refund.objects.count() == 0
