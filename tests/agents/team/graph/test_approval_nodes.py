"""Waiting for a person and acting on the decision (SPEC 5), node functions called directly.

Given a run's state holding prepared actions and the operators' decisions, when
``act_on_decisions`` (or a router) is called without a graph run, then it returns exactly
the state update expected; refunds run against the real database and gateway simulator.
``await_approval`` is only ``interrupt()`` and needs a graph: the end-to-end tests cover it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.team.graph import approval_nodes
from agents.team.graph.approval_nodes import (
    DecisionOutcome,
    DecisionRound,
    Outcome,
    decide_outcome,
)
from agents.team.run_context import run_config
from netshop.models import Refund
from tests.agents.factories import ActionFactory
from tests.factories import delivered_order

EARLIER_TURN = {"type": "ai", "data": {"content": "", "type": "ai", "id": "m1"}}


def state_with(actions: list[dict[str, Any]], decisions: dict[str, Any], **more: Any) -> Any:
    return {
        "inquiry_id": "inq-1",
        "customer_id": more.pop("customer_id", "C0001"),
        "text": "返金してください",
        "pending_actions": actions,
        "decisions": decisions,
        "transcripts": {"payment": [EARLIER_TURN]},
        **more,
    }


def act(state: Any) -> dict[str, Any]:
    config = run_config(inquiry_id=state["inquiry_id"], customer_id=state["customer_id"])
    return approval_nodes.act_on_decisions(state, config)


def tool_answer(message: dict[str, Any]) -> tuple[str, str, str, dict[str, Any]]:
    """A closed tool call as (type, tool_call_id, status, its JSON content)."""
    data = message["data"]
    return message["type"], data["tool_call_id"], data["status"], json.loads(data["content"])


# --- the decision, as a pure function -----------------------------------------------------

APPROVE = {"decision": "approve"}
REJECT = {"decision": "reject", "reason": "no"}
EDIT_WITH_REPLY = {"decision": "edit", "params": {"amount": 1}, "reply": " We refunded ¥1. "}
EDIT_BLANK_REPLY = {"decision": "edit", "params": {"amount": 1}, "reply": "  "}
TAKE_OVER = {"decision": "take_over", "reply": "I will call you."}
EXECUTED = {"action_id": "a1", "kind": "process_refund", "outcome": "executed"}
EXECUTED_2 = {"action_id": "a2", "kind": "cancel_order", "outcome": "executed"}
FAILED = {"action_id": "a1", "kind": "process_refund", "outcome": "failed"}
FAILED_2 = {"action_id": "a2", "kind": "cancel_order", "outcome": "failed"}
DECLINED = {"action_id": "a1", "kind": "process_refund", "outcome": "declined"}


@pytest.mark.parametrize(
    ("decisions", "results", "retry", "expected"),
    [
        # A take-over wins over everything, even a failure or a retry.
        ({"a1": TAKE_OVER}, [], False, DecisionOutcome(Outcome.TAKEN_OVER, "I will call you.")),
        (
            {"a1": APPROVE, "a2": TAKE_OVER},
            [FAILED],
            True,
            DecisionOutcome(Outcome.TAKEN_OVER, "I will call you."),
        ),
        ({"a1": {"decision": "take_over"}}, [], False, DecisionOutcome(Outcome.TAKEN_OVER, "")),
        # A failure goes back to a person, with every failed result.
        ({"a1": APPROVE}, [FAILED], False, DecisionOutcome(Outcome.FAILED, failed=(FAILED,))),
        (
            {"a1": APPROVE, "a2": APPROVE},
            [FAILED, FAILED_2],
            True,
            DecisionOutcome(Outcome.FAILED, failed=(FAILED, FAILED_2)),
        ),
        (
            {"a1": EDIT_WITH_REPLY, "a2": APPROVE},
            [EXECUTED, FAILED_2],
            False,
            DecisionOutcome(Outcome.FAILED, failed=(FAILED_2,)),
        ),
        # A retry that went through, or was given up, settles the failure escalation.
        ({"a1": APPROVE}, [EXECUTED], True, DecisionOutcome(Outcome.RETRY_SETTLED)),
        ({"a1": REJECT}, [DECLINED], True, DecisionOutcome(Outcome.RETRY_SETTLED)),
        # Everything went through: an edit's reply (stripped, the first non-blank) stands.
        ({"a1": APPROVE}, [EXECUTED], False, DecisionOutcome(Outcome.EXECUTED)),
        (
            {"a1": EDIT_BLANK_REPLY, "a2": EDIT_WITH_REPLY},
            [EXECUTED, EXECUTED_2],
            False,
            DecisionOutcome(Outcome.EXECUTED, "We refunded ¥1."),
        ),
        ({}, [], False, DecisionOutcome(Outcome.EXECUTED)),
        # Something declined or refused: no edited reply is announced.
        ({"a1": EDIT_WITH_REPLY}, [DECLINED], False, DecisionOutcome(Outcome.REFUSED)),
        (
            {"a1": REJECT, "a2": APPROVE},
            [DECLINED, EXECUTED_2],
            False,
            DecisionOutcome(Outcome.REFUSED),
        ),
    ],
)
def test_decide_outcome(
    decisions: dict[str, Any],
    results: list[dict[str, Any]],
    retry: bool,
    expected: DecisionOutcome,
) -> None:
    assert decide_outcome(DecisionRound(decisions, results, waits_on_a_retry=retry)) == expected


def test_the_retry_escalation_names_every_failed_action() -> None:
    assert approval_nodes.retry_escalation([FAILED, FAILED_2]) == {
        "kind": "failure",
        "reason": "action_failed",
        "summary": "process_refund, cancel_order failed at the gateway; "
        "retry it or answer the customer",
        "failed_agents": [],
    }


# --- the routers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "route", "waits"),
    [
        ({"status": "handled_by_human"}, "finalize", False),
        (
            {"status": "handled_by_human", "escalation": {"reason": "action_failed"}},
            "finalize",
            True,
        ),
        ({"escalation": {"reason": "action_failed"}}, "acknowledge", True),
        ({"escalation": {"reason": "approval_required"}}, "merge", False),
        ({"escalation": None}, "merge", False),
        ({}, "merge", False),
    ],
)
def test_after_the_decisions_the_run_finalizes_waits_again_or_merges(
    state: Any, route: str, waits: bool
) -> None:
    assert approval_nodes.route_after_decisions(state) == route
    assert approval_nodes.waits_on_a_retry(state) is waits


def test_the_approval_request_carries_every_prepared_action_and_the_escalation() -> None:
    action = ActionFactory.build()
    escalation = {"kind": "approval", "reason": "approval_required"}

    request = approval_nodes.approval_request(state_with([action], {}, escalation=escalation))

    assert request == {
        "type": "approval",
        "inquiry_id": "inq-1",
        "actions": [action],
        "escalation": escalation,
    }


# --- declined decisions: no side effect, no database ----------------------------------------


def test_a_rejection_is_declined_and_its_tool_call_answered() -> None:
    action = ActionFactory.build(action_id="a1", tool_call_id="call_1")
    decision = {"decision": "reject", "operator": "op1", "reason": "already refunded"}

    update = act(state_with([action], {"a1": decision}))

    declined = {
        "params": action["params"],  # so the reply names the order it declines
        "action_id": "a1",
        "kind": "process_refund",
        "decision": "reject",
        "operator": "op1",
        "outcome": "declined",
        "reason": "already refunded",
    }
    assert update.keys() == {"action_results", "transcripts"}
    assert update["action_results"] == [declined]
    earlier, answer = update["transcripts"]["payment"]
    assert earlier == EARLIER_TURN
    assert tool_answer(answer) == ("tool", "call_1", "error", declined)


def test_a_take_over_hands_the_inquiry_to_the_person_with_their_reply() -> None:
    actions = [ActionFactory.build(action_id="a1"), ActionFactory.build(action_id="a2")]
    take_over = {"decision": "take_over", "operator": "op2", "reply": "お電話します。"}

    update = act(state_with(actions, {"a1": take_over}))

    assert (update["status"], update["reply"]) == ("handled_by_human", "お電話します。")
    assert [r["action_id"] for r in update["action_results"]] == ["a1"]  # a2 was not decided
    assert "escalation" not in update


# --- approved actions: the real refund, once ------------------------------------------------


@pytest.fixture
def refundable(db: None) -> dict[str, Any]:
    """A delivered ¥12,800 order and the refund of it a specialist prepared."""
    order = delivered_order(captured=12800)
    action = ActionFactory.build(
        action_id="inq-1:process_refund:0001",
        tool_call_id="call_r",
        params={"order_number": order.number, "amount": 12800, "reason": "damaged"},
    )
    return {"customer_id": order.customer.code, "action": action, "order": order}


def test_an_approval_executes_the_refund_once_and_answers_its_tool_call(
    refundable: dict[str, Any],
) -> None:
    action = refundable["action"]
    state = state_with(
        [action],
        {action["action_id"]: {"decision": "approve", "operator": "op1"}},
        customer_id=refundable["customer_id"],
    )

    update = act(state)
    again = act(state)  # a resumed node runs again from its first line

    refund = Refund.objects.get(payment__order=refundable["order"])
    executed = {
        "action_id": action["action_id"],
        "kind": "process_refund",
        "decision": "approve",
        "operator": "op1",
        "policy_version": 0,  # checked against the policy in force: the environment's
        "outcome": "executed",
        "params": action["params"],
        "refund_amount": 12800,
        "gateway_refund_id": refund.gateway_refund_id,
    }
    assert update["action_results"] == again["action_results"] == [executed]
    assert Refund.objects.count() == 1
    assert tool_answer(update["transcripts"]["payment"][-1]) == (
        "tool",
        "call_r",
        "success",
        executed,
    )
    assert "operator_reply" not in update


@pytest.mark.parametrize(
    ("reply", "operator_reply"), [("半額を返金しました。", "半額を返金しました。"), ("  ", None)]
)
def test_an_edit_refunds_the_edited_amount_and_its_reply_is_sent(
    refundable: dict[str, Any], reply: str, operator_reply: str | None
) -> None:
    action = refundable["action"]
    edit = {"decision": "edit", "operator": "op1", "params": {"amount": 6400}, "reply": reply}

    update = act(
        state_with([action], {action["action_id"]: edit}, customer_id=refundable["customer_id"])
    )

    assert update["action_results"][0]["params"]["amount"] == 6400
    assert Refund.objects.get().amount == 6400
    assert update.get("operator_reply") == operator_reply


def test_an_edit_whose_refund_is_refused_does_not_send_the_edited_reply(
    refundable: dict[str, Any],
) -> None:
    action = refundable["action"]
    edit = {"decision": "edit", "operator": "op1", "params": {"amount": 20000}, "reply": "済み"}

    update = act(
        state_with([action], {action["action_id"]: edit}, customer_id=refundable["customer_id"])
    )

    [result] = update["action_results"]
    assert (result["outcome"], result["code"]) == ("refused", "refund_exceeds_captured")
    assert "operator_reply" not in update
    assert not Refund.objects.exists()


def test_a_refund_failing_at_the_gateway_goes_back_to_a_person_to_retry(
    refundable: dict[str, Any], faults: Any
) -> None:
    faults.set(gateway={"fault_rate": 1, "kinds": ["server_error"], "operations": ["refund"]})
    action = refundable["action"]
    approve = {"decision": "approve", "operator": "op1"}

    update = act(
        state_with([action], {action["action_id"]: approve}, customer_id=refundable["customer_id"])
    )

    [result] = update["action_results"]
    assert result["outcome"] == "failed"
    assert update["pending_actions"] == [
        {
            **action,
            "params": action["params"],
            "amount_at_risk": 12800,
            "failure": result["code"],
        }
    ]
    assert update["escalation"] == {
        "kind": "failure",
        "reason": "action_failed",
        "summary": "process_refund failed at the gateway; retry it or answer the customer",
        "failed_agents": [],
    }
    assert not Refund.objects.exists()


def test_a_retry_that_goes_through_replaces_the_failure_and_closes_the_escalation(
    refundable: dict[str, Any],
) -> None:
    action = refundable["action"]
    failed = {"action_id": action["action_id"], "outcome": "failed", "code": "gateway_timeout"}
    other = {"action_id": "earlier", "outcome": "executed"}
    state = state_with(
        [{**action, "failure": "gateway_timeout"}],
        {action["action_id"]: {"decision": "approve", "operator": "op2"}},
        customer_id=refundable["customer_id"],
        action_results=[other, failed],
        escalation={"kind": "failure", "reason": "action_failed"},
    )

    update = act(state)

    assert [(r["action_id"], r["outcome"]) for r in update["action_results"]] == [
        ("earlier", "executed"),
        (action["action_id"], "executed"),
    ]
    assert update["escalation"] is None
    assert update["transcripts"] == {}  # the failed attempt already answered the tool call
    assert Refund.objects.count() == 1
