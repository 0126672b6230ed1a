"""The hand-off package (SPEC 5.2), built directly from a run's state (no graph run).

Given the state a run stopped in, when ``handoff_package`` is called, then the package holds
exactly what an operator needs, and prepared actions appear once, as recommendations.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, messages_to_dict

from agents.support.escalations.package import handoff_package
from tests.agents.factories import ActionFactory, ClassificationFactory, EnvelopeFactory

REFUND = ActionFactory.build(
    action_id="a1",
    tool_call_id="call_1",
    params={"order_number": "ORD-4003", "amount": 12800, "reason": "商品破損"},
    checks=[{"rule": "captured", "ok": True}],
    facts={"payment": {"refundable": 12800}},
)
CONVERSATION = [HumanMessage("ORD-4003が壊れていました"), AIMessage("担当者が確認します。")]
HISTORY = [
    {"role": "human", "content": "ORD-4003が壊れていました"},
    {"role": "ai", "content": "担当者が確認します。"},
]


def stopped_run(**fields: Any) -> dict[str, Any]:
    """The state of a run waiting to refund ORD-4003, with ``fields`` changed."""
    classification = ClassificationFactory.build(
        agents=["order", "payment"],
        intent="process_refund",
        secondary_intents=["check_payment_status"],
        entities={"order_numbers": ["ORD-4003"]},
        injection_suspected=True,
    )
    return {
        "inquiry_id": "inq-1",
        "customer_id": "C0001",
        "text": "ORD-4003が壊れていました",
        "language": "ja",
        "classification": classification.model_dump(),
        "plan": [{"step": 1, "agent": "payment"}],
        "plan_history": [{"kind": "plan", "steps": []}],
        "envelopes": {
            "payment": EnvelopeFactory.build(
                agent="payment",
                status="escalate",
                message="返金の承認が必要です",
                attempt=2,
                data={"process_refund": {"prepared": True}, "pending_action": REFUND},
            )
        },
        "errors": [{"agent": "payment", "code": "tool_timeout", "recovered": True}],
        "messages": CONVERSATION,
        "pending_actions": [REFUND],
        "escalation": {"kind": "approval", "reason": "approval_required"},
        "reply": "担当者が確認します。",
        **fields,
    }


def test_the_package_holds_everything_to_decide_and_each_action_once() -> None:
    package = handoff_package(stopped_run())

    assert package == {
        "inquiry": {"text": "ORD-4003が壊れていました", "customer_id": "C0001"},
        "language": "ja",
        "intent": "process_refund",
        "secondary_intents": ["check_payment_status"],
        "entities": {
            "order_numbers": ["ORD-4003"],
            "tracking_numbers": [],
            "dates": [],
            "time_window": None,
            "amounts": [],
            "date_range": None,
            "order_status": None,
            "date_shift_days": None,
        },
        "injection_suspected": True,
        "held_actions": [],
        "plan": [{"step": 1, "agent": "payment"}],
        "plan_history": [{"kind": "plan", "steps": []}],
        "subtasks": [
            {
                "agent": "payment",
                "status": "escalate",
                "message": "返金の承認が必要です",
                "error_code": None,
                "attempt": 2,
                "data": {"process_refund": {"prepared": True}},  # the action is a recommendation
            }
        ],
        "errors": [{"agent": "payment", "code": "tool_timeout", "recovered": True}],
        "history": HISTORY,
        "recommended_actions": [
            {
                "action_id": "a1",
                "kind": "process_refund",
                "params": {"order_number": "ORD-4003", "amount": 12800, "reason": "商品破損"},
                "why": "商品破損",
                "requested_amount": 12800,
                "capped": False,
                "amount_at_risk": 12800,
                "checks": [{"rule": "captured", "ok": True}],
                "facts": {"payment": {"refundable": 12800}},
                "tool_call_id": "call_1",
            }
        ],
        "escalation": {"kind": "approval", "reason": "approval_required"},
        "draft_reply": "担当者が確認します。",
    }


@pytest.mark.parametrize(
    "messages",
    [CONVERSATION, messages_to_dict(CONVERSATION)],
    ids=["message objects", "serialised messages"],
)
def test_the_history_reads_the_conversation_live_or_from_a_checkpoint(messages: Any) -> None:
    assert handoff_package(stopped_run(messages=messages))["history"] == HISTORY


def test_a_bare_action_gets_its_defaults_in_the_recommendation() -> None:
    bare = {"action_id": "a2", "kind": "cancel_order", "params": {"order_number": "ORD-4001"}}

    [recommendation] = handoff_package(stopped_run(pending_actions=[bare]))["recommended_actions"]

    assert recommendation == {
        "action_id": "a2",
        "kind": "cancel_order",
        "params": {"order_number": "ORD-4001"},
        "why": "",
        "requested_amount": None,
        "capped": False,
        "amount_at_risk": 0,
        "checks": [],
        "facts": {},
        "tool_call_id": None,
    }


def test_a_run_that_stopped_before_classifying_still_gives_a_package() -> None:
    package = handoff_package({"text": "hello", "customer_id": "C0002", "classification": None})

    assert package == {
        "inquiry": {"text": "hello", "customer_id": "C0002"},
        "language": None,
        "intent": None,
        "secondary_intents": [],
        "entities": {},
        "injection_suspected": False,
        "held_actions": [],
        "plan": [],
        "plan_history": [],
        "subtasks": [],
        "errors": [],
        "history": [],
        "recommended_actions": [],
        "escalation": None,
        "draft_reply": "",
    }
