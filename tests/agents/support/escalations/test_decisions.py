"""Decisions per action, four eyes and limits by role (issue 15, sections 1 and 2).

Given an escalation holding a refund and a cancellation, when people decide its actions one
by one or all at once, then each action keeps its own decision, the escalation stays open
until every action has one, the run resumes exactly once, and a refund or cancellation at
or above the four-eyes amount waits for a second approval by another manager.
"""

from __future__ import annotations

import secrets
from typing import Any, cast

import pytest
from django.contrib.auth.models import User

from agents.models import MANAGERS_QUEUE, ActionState, Escalation, EscalationStatus
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations import services
from agents.support.escalations.action_states import action_decisions_shown
from agents.support.escalations.approvals import effective_params
from agents.support.escalations.claims import escalation_claim
from agents.support.escalations.four_eyes import next_approval_refusal
from agents.support.escalations.selectors import escalation_list
from agents.support.escalations.services import decisions_for_wait, escalation_decide
from agents.support.shapes import PendingAction
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.roles import Role, role_assign
from tests.factories import CustomerFactory, delivered_order
from tests.support.concurrency import released_together
from tests.support.events import last_seq, published_after

pytestmark = pytest.mark.django_db


def person(name: str, role: Role = Role.OPERATOR) -> User:
    user = User.objects.create_user(name, password="x")
    role_assign(user=user, role=role)
    return user


def refund(amount: int, order_number: str) -> dict[str, Any]:
    return {
        "action_id": "a1",
        "kind": "process_refund",
        "agent": "payment",
        "params": {"order_number": order_number, "amount": amount, "reason": "damaged"},
        "amount_at_risk": amount,
    }


def cancellation(amount: int = 3980) -> dict[str, Any]:
    return {
        "action_id": "a2",
        "kind": "cancel_order",
        "agent": "order",
        "params": {"order_number": "ORD-8001", "reason": "ordered twice"},
        "amount_at_risk": amount,
    }


def waiting(*actions: dict[str, Any]) -> Escalation:
    """An approval escalation on a fresh customer whose refund order is captured in full."""
    customer = CustomerFactory.create()
    inquiry = inquiry_create(customer=customer, text="返金とキャンセルを", start=False)
    for action in actions:
        if action["kind"] == "process_refund":
            number = action["params"]["order_number"]
            delivered_order(number=number, customer=customer, captured=action["amount_at_risk"])
    return services.escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:{secrets.token_hex(4)}",
        kind="approval",
        reason="approval_required",
        summary="refund and cancel",
        package={},
        actions=[cast(PendingAction, a) for a in actions],
    )


@pytest.fixture
def resumed(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The runs the decisions resumed (one entry per enqueue)."""
    calls: list[object] = []
    monkeypatch.setattr(services, "enqueue_run", calls.append)
    return calls


def states(escalation: Escalation) -> dict[str, str]:
    escalation.refresh_from_db()
    return {a["action_id"]: a["state"] for a in action_decisions_shown(escalation)}


def decided_audits(escalation: Escalation) -> list[tuple[str, str, str | None]]:
    rows = AuditEntry.objects.filter(action__startswith="decision.").order_by("seq")
    return [
        (row.action, row.actor, row.data.get("action_id"))
        for row in rows
        if row.data.get("escalation_id") == str(escalation.pk)
    ]


# --- Decisions per action -------------------------------------------------------------------


def test_each_action_is_decided_on_its_own_and_the_run_resumes_once_all_are(
    resumed: list[object],
) -> None:
    op1, op2 = person("op1"), person("op2")
    escalation = waiting(refund(12800, "ORD-4003"), cancellation())
    seq = last_seq()

    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve", action_id="a1")

    assert states(escalation) == {"a1": "decided", "a2": "pending"}
    assert escalation.status == EscalationStatus.OPEN
    assert resumed == []
    assert decisions_for_wait(wait_key=escalation.wait_key) == {}  # the run waits on
    assert [t for t, _ in published_after(seq)] == ["escalation.action_decided"]

    escalation_decide(
        escalation_id=escalation.pk,
        user=op2,
        decision="reject",
        reason="発送済みです",
        action_id="a2",
    )

    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.DECIDED
    assert escalation.decided_by == op2
    assert resumed == [escalation.inquiry_id]
    decisions = decisions_for_wait(wait_key=escalation.wait_key)
    assert {
        k: (d["decision"], d.get("operator"), d.get("reason")) for k, d in decisions.items()
    } == {
        "a1": ("approve", "op1", ""),
        "a2": ("reject", "op2", "発送済みです"),
    }
    assert decided_audits(escalation) == [
        ("decision.approve", "op1", "a1"),
        ("decision.reject", "op2", "a2"),
    ]


def test_one_decision_without_an_action_still_approves_all(resumed: list[object]) -> None:
    escalation = waiting(refund(12800, "ORD-4003"), cancellation())

    escalation_decide(escalation_id=escalation.pk, user=person("op1"), decision="approve")

    assert states(escalation) == {"a1": "decided", "a2": "decided"}
    assert escalation.status == EscalationStatus.DECIDED
    decisions = decisions_for_wait(wait_key=escalation.wait_key)
    assert {k: d["decision"] for k, d in decisions.items()} == {"a1": "approve", "a2": "approve"}
    assert resumed == [escalation.inquiry_id]
    assert [a for a, _, _ in decided_audits(escalation)] == ["decision.approve"] * 2


def test_after_one_action_is_decided_one_click_decides_the_rest(resumed: list[object]) -> None:
    op1 = person("op1")
    escalation = waiting(refund(12800, "ORD-4003"), cancellation())
    escalation_decide(
        escalation_id=escalation.pk,
        user=op1,
        decision="reject",
        reason="使用済みのため",
        action_id="a1",
    )

    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")

    decisions = decisions_for_wait(wait_key=escalation.wait_key)
    assert {k: d["decision"] for k, d in decisions.items()} == {"a1": "reject", "a2": "approve"}
    assert resumed == [escalation.inquiry_id]


def test_an_edit_of_one_action_changes_only_that_action(resumed: list[object]) -> None:
    op1 = person("op1")
    escalation = waiting(refund(12800, "ORD-4003"), cancellation())

    escalation_decide(
        escalation_id=escalation.pk,
        user=op1,
        decision="edit",
        params={"amount": 6400},
        action_id="a1",
    )
    with pytest.raises(DomainError) as not_editable:
        escalation_decide(
            escalation_id=escalation.pk,
            user=op1,
            decision="edit",
            params={"amount": 100},
            action_id="a2",
        )

    assert not_editable.value.code == "param_not_editable"
    escalation.refresh_from_db()
    record = escalation.action_decisions["a1"]["record"]
    assert effective_params(escalation.actions[0], record)["amount"] == 6400
    assert states(escalation) == {"a1": "decided", "a2": "pending"}


def test_deciding_a_decided_action_again_is_a_conflict_naming_who_decided() -> None:
    op1, op2 = person("op1"), person("op2")
    escalation = waiting(refund(12800, "ORD-4003"), cancellation())
    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve", action_id="a1")

    with pytest.raises(DomainError) as conflict:
        escalation_decide(
            escalation_id=escalation.pk, user=op2, decision="reject", reason="no", action_id="a1"
        )

    escalation.refresh_from_db()
    at = escalation.action_decisions["a1"]["at"]
    assert (conflict.value.code, conflict.value.status) == ("already_decided", 409)
    assert conflict.value.message == f"Already approved by op1 at {at}."
    assert escalation.action_decisions["a1"]["record"]["decision"] == "approve"


def test_re_deciding_an_action_of_a_decided_escalation_names_that_actions_decider(
    resumed: list[object],
) -> None:
    op1, op2 = person("op1"), person("op2")
    escalation = waiting(refund(12800, "ORD-4003"), cancellation())
    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve", action_id="a1")
    escalation_decide(escalation_id=escalation.pk, user=op2, decision="approve", action_id="a2")

    with pytest.raises(DomainError) as conflict:
        escalation_decide(escalation_id=escalation.pk, user=op2, decision="approve", action_id="a1")

    assert conflict.value.code == "already_decided"
    assert conflict.value.message.startswith("Already approved by op1 at ")


def test_an_unknown_action_is_refused() -> None:
    escalation = waiting(refund(12800, "ORD-4003"))

    with pytest.raises(DomainError) as refused:
        escalation_decide(
            escalation_id=escalation.pk, user=person("op1"), decision="approve", action_id="zz"
        )

    assert refused.value.code == "action_not_found"
    escalation.refresh_from_db()
    assert escalation.action_decisions == {}


def test_a_take_over_acts_on_the_whole_escalation(resumed: list[object]) -> None:
    op1 = person("op1")
    escalation = waiting(refund(12800, "ORD-4003"), cancellation())
    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve", action_id="a1")

    escalation_decide(
        escalation_id=escalation.pk,
        user=op1,
        decision="take_over",
        reply="お電話します。",
        action_id="a2",
    )

    decisions = decisions_for_wait(wait_key=escalation.wait_key)
    assert {k: d["decision"] for k, d in decisions.items()} == {
        "a1": "take_over",
        "a2": "take_over",
    }
    assert resumed == [escalation.inquiry_id]


# --- Four eyes and limits by role -----------------------------------------------------------


def test_a_refund_at_the_four_eyes_amount_waits_for_a_second_approval_by_another_manager(
    resumed: list[object],
) -> None:
    op1, op2, manager = person("op1"), person("op2"), person("mgr", Role.MANAGER)
    escalation = waiting(refund(30000, "ORD-4003"))

    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")
    assert states(escalation) == {"a1": ActionState.AWAITING_SECOND_APPROVAL}
    assert escalation.status == EscalationStatus.OPEN
    assert decisions_for_wait(wait_key=escalation.wait_key) == {}

    with pytest.raises(DomainError) as by_operator:
        escalation_decide(escalation_id=escalation.pk, user=op2, decision="approve")
    with pytest.raises(DomainError) as twice:
        escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")
    assert (by_operator.value.code, by_operator.value.status) == (
        "second_approval_needs_manager",
        403,
    )
    assert (twice.value.code, twice.value.status) == ("second_approval_by_other", 409)
    assert twice.value.message == "A second approval must come from another manager than op1."
    assert resumed == []

    escalation_decide(escalation_id=escalation.pk, user=manager, decision="approve")

    assert states(escalation) == {"a1": "decided"}
    assert escalation.status == EscalationStatus.DECIDED
    [decision] = decisions_for_wait(wait_key=escalation.wait_key).values()
    assert (decision["decision"], decision.get("approvals")) == ("approve", ["op1", "mgr"])
    assert resumed == [escalation.inquiry_id]
    assert decided_audits(escalation) == [
        ("decision.approve", "op1", "a1"),
        ("decision.approve", "mgr", "a1"),
    ]


def test_below_the_four_eyes_amount_one_approval_is_enough(resumed: list[object]) -> None:
    escalation = waiting(refund(29999, "ORD-4003"))

    escalation_decide(escalation_id=escalation.pk, user=person("op1"), decision="approve")

    assert states(escalation) == {"a1": "decided"}
    assert resumed == [escalation.inquiry_id]


def test_the_amount_is_the_edited_one(resumed: list[object]) -> None:
    op1 = person("op1")
    lowered = waiting(refund(50000, "ORD-4003"))
    raised = waiting(refund(50000, "ORD-4004"))

    escalation_decide(escalation_id=lowered.pk, user=op1, decision="edit", params={"amount": 20000})
    edited = {"decision": "edit", "params": {"amount": 20000}, "reason": "", "reply": ""}
    escalation_decide(
        escalation_id=raised.pk,
        user=op1,
        decision="edit",
        params={"amount": 40000},
    )

    assert states(lowered) == {"a1": "decided"}
    assert states(raised) == {"a1": "awaiting_second_approval"}
    assert resumed == [lowered.inquiry_id]
    assert {**edited, "operator": "op1"}.items() <= (lowered.decision or {}).items()


def test_a_cancellation_at_the_four_eyes_amount_needs_four_eyes_too(resumed: list[object]) -> None:
    escalation = waiting(cancellation(amount=45000))

    escalation_decide(escalation_id=escalation.pk, user=person("op1"), decision="approve")

    assert states(escalation) == {"a2": "awaiting_second_approval"}


def test_above_the_operator_limit_only_managers_approve(resumed: list[object]) -> None:
    op1 = person("op1")
    first, second = person("mgr1", Role.MANAGER), person("mgr2", Role.MANAGER)
    escalation = waiting(refund(120000, "ORD-4003"))

    with pytest.raises(DomainError) as over:
        escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")
    assert (over.value.code, over.value.status) == ("over_operator_limit", 403)
    assert over.value.message == (
        "Only a manager may approve a refund or cancellation above 100,000 yen."
    )
    assert states(escalation) == {"a1": "pending"}

    escalation_decide(escalation_id=escalation.pk, user=first, decision="approve")
    escalation_decide(escalation_id=escalation.pk, user=second, decision="approve")

    [decision] = decisions_for_wait(wait_key=escalation.wait_key).values()
    assert decision.get("approvals") == ["mgr1", "mgr2"]
    assert resumed == [escalation.inquiry_id]


def test_a_manager_may_reject_what_awaits_a_second_approval(resumed: list[object]) -> None:
    escalation = waiting(refund(30000, "ORD-4003"))
    escalation_decide(escalation_id=escalation.pk, user=person("op1"), decision="approve")

    escalation_decide(
        escalation_id=escalation.pk,
        user=person("mgr", Role.MANAGER),
        decision="reject",
        reason="too much",
        confirm_language=True,
    )

    [decision] = decisions_for_wait(wait_key=escalation.wait_key).values()
    assert (decision["decision"], decision.get("operator")) == ("reject", "mgr")
    assert resumed == [escalation.inquiry_id]


def test_a_first_approval_hands_the_wait_to_the_managers_queue(resumed: list[object]) -> None:
    op1 = person("op1")
    escalation = waiting(refund(30000, "ORD-4003"))
    escalation_claim(escalation_id=escalation.pk, user=op1)
    seq = last_seq()

    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")

    escalation.refresh_from_db()
    assert escalation.awaits_second_approval is True
    assert (escalation.claimed_by, escalation.owner) == (None, MANAGERS_QUEUE)
    managers = escalation_list(user=op1, managers=True).items
    assert [e.pk for e in managers] == [escalation.pk]
    [(_, payload)] = published_after(seq, "escalation.action_decided")
    assert payload["awaits_second_approval"] is True


def test_the_second_approval_takes_the_wait_out_of_the_managers_queue(
    resumed: list[object],
) -> None:
    op1, manager = person("op1"), person("mgr", Role.MANAGER)
    escalation = waiting(refund(30000, "ORD-4003"))
    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")

    escalation_decide(escalation_id=escalation.pk, user=manager, decision="approve")

    escalation.refresh_from_db()
    assert escalation.awaits_second_approval is False
    assert escalation_list(user=manager, managers=True, status="all").items == []


def test_an_edit_after_a_first_approval_is_refused_and_changes_nothing(
    resumed: list[object],
) -> None:
    op1, op2 = person("op1"), person("op2")
    escalation = waiting(refund(33000, "ORD-4003"))
    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")
    before = Escalation.objects.get(pk=escalation.pk).action_decisions

    with pytest.raises(DomainError) as edit:
        escalation_decide(
            escalation_id=escalation.pk, user=op2, decision="edit", params={"amount": 29000}
        )

    assert (edit.value.code, edit.value.status) == ("approved_action_not_editable", 409)
    assert edit.value.message == (
        "op1 has approved this action already: an edit would pay it on one approval. "
        "Give the second approval, or reject it with a reason."
    )
    assert Escalation.objects.get(pk=escalation.pk).action_decisions == before
    assert resumed == []


def test_a_rejection_after_a_first_approval_keeps_that_approval_in_the_history(
    resumed: list[object],
) -> None:
    escalation = waiting(refund(30000, "ORD-4003"))
    escalation_decide(escalation_id=escalation.pk, user=person("op1"), decision="approve")

    escalation_decide(
        escalation_id=escalation.pk,
        user=person("mgr", Role.MANAGER),
        decision="reject",
        reason="too much",
        confirm_language=True,
    )

    escalation.refresh_from_db()
    entry = escalation.action_decisions["a1"]
    assert (entry["record"]["decision"], entry["by"]) == ("reject", "mgr")
    [earlier] = entry["history"]
    assert (earlier["record"]["decision"], earlier["by"]) == ("approve", "op1")
    assert earlier["record"]["approvals"] == ["op1"]


def test_who_may_not_give_the_second_approval_is_told_why() -> None:
    op1, op2, manager = person("op1"), person("op2"), person("mgr", Role.MANAGER)
    escalation = waiting(refund(30000, "ORD-4003"))
    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")
    escalation.refresh_from_db()

    assert next_approval_refusal(escalation, user=op1) == (
        "A second approval must come from another manager than op1."
    )
    assert next_approval_refusal(escalation, user=op2) == (
        "This needs a second approval by a manager."
    )
    assert next_approval_refusal(escalation, user=manager) == ""


# --- Concurrency, on the real database ------------------------------------------------------


def at_once(calls: list[dict[str, Any]]) -> list[str]:
    """Run the decisions in threads released together; each one's outcome (or error code)."""
    return sorted(released_together(decision_outcome, calls))


def decision_outcome(call: dict[str, Any]) -> str:
    try:
        escalation_decide(**call)
    except DomainError as conflict:
        return conflict.code
    return "decided"


@pytest.mark.django_db(transaction=True)
def test_two_managers_second_approving_at_once_resume_the_run_once(
    resumed: list[object],
) -> None:
    managers = [person("mgr1", Role.MANAGER), person("mgr2", Role.MANAGER)]
    escalation = waiting(refund(50000, "ORD-4003"))
    escalation_decide(escalation_id=escalation.pk, user=person("op1"), decision="approve")

    outcomes = at_once(
        [{"escalation_id": escalation.pk, "user": m, "decision": "approve"} for m in managers]
    )

    assert outcomes == ["already_decided", "decided"]
    escalation.refresh_from_db()
    approvals = escalation.action_decisions["a1"]["record"]["approvals"]
    assert approvals in (["op1", "mgr1"], ["op1", "mgr2"])
    assert resumed == [escalation.inquiry_id]
    assert [a for a, _, _ in decided_audits(escalation)] == ["decision.approve"] * 2


@pytest.mark.django_db(transaction=True)
def test_concurrent_last_decisions_on_different_actions_resume_the_run_once(
    resumed: list[object],
) -> None:
    escalation = waiting(refund(12800, "ORD-4003"), cancellation())
    op1, op2 = person("op1"), person("op2")

    outcomes = at_once(
        [
            {"escalation_id": escalation.pk, "user": op1, "decision": "approve", "action_id": "a1"},
            {"escalation_id": escalation.pk, "user": op2, "decision": "approve", "action_id": "a2"},
        ]
    )

    assert outcomes == ["decided", "decided"]
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.DECIDED
    assert resumed == [escalation.inquiry_id]
