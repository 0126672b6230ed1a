"""The hand-off package (SPEC 5.2): everything an operator needs to decide in seconds.

Built from the run's state when it stops for a person, and stored with the escalation, so
the console shows it without replaying the graph. Coupon codes are withheld from it: a code
is the customer's to redeem, and only their own reply carries it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage, messages_from_dict

from agents.models import Escalation, Inquiry
from agents.support.conversations.thread import OPERATOR_NAME
from agents.support.shapes import HELD, EnvelopeDict
from netshop.services.coupons import coupon_codes_withheld

# Marks the package of a crashed run: a person may run its turn again.
RETRY_RUN = "retry_run"


def held_actions(envelopes: Mapping[str, EnvelopeDict]) -> list[dict[str, Any]]:
    """Side effects a specialist held for a person instead of running them (a flagged
    inquiry): what was asked, for the hand-off package. Nothing of them has happened."""
    return [
        {"agent": agent, "kind": tool, "params": result.get("params") or {}}
        for agent, env in sorted(envelopes.items())
        for tool, result in (env.get("data") or {}).items()
        if isinstance(result, dict) and HELD in result
    ]


def inquiry_package(inquiry: Inquiry) -> dict[str, Any]:
    """The package of a wait with no run's state to hand over (a crash, a flag, a sampled
    review): the message that opened the conversation and whose it is."""
    return {"inquiry": {"text": inquiry.text, "customer_id": inquiry.customer.code}}


def crash_package(inquiry: Inquiry, *, error: str) -> dict[str, Any]:
    """The package of a run that crashed: the opening message, the error for the person who
    picks it up, and ``retry_run``: they may run the turn again (``escalation_decide``)."""
    failure = {"agent": "supervisor", "code": "supervisor_failure", "message": error}
    return inquiry_package(inquiry) | {"errors": [failure], RETRY_RUN: True}


def run_retryable(escalation: Escalation) -> bool:
    """Whether deciding ``approve`` on this wait runs its crashed turn again."""
    return bool((escalation.package or {}).get(RETRY_RUN)) and not escalation.actions


def handoff_package(state: dict[str, Any]) -> dict[str, Any]:
    package: dict[str, Any] = _withheld(_package(state))
    return package


def _package(state: dict[str, Any]) -> dict[str, Any]:
    classification = state.get("classification") or {}
    envelopes = state.get("envelopes", {})
    return {
        "inquiry": {"text": state.get("text", ""), "customer_id": state.get("customer_id")},
        "language": state.get("language"),
        "intent": classification.get("intent"),
        "secondary_intents": classification.get("secondary_intents", []),
        "entities": classification.get("entities", {}),
        "injection_suspected": classification.get("injection_suspected", False),
        "plan": state.get("plan", []),
        "plan_history": state.get("plan_history", []),
        "subtasks": [_subtask(agent, env) for agent, env in envelopes.items()],
        "errors": state.get("errors", []),
        "history": _history(state),
        "recommended_actions": [_recommendation(a) for a in state.get("pending_actions", [])],
        # Side effects not run because the inquiry was flagged: a person decides on them.
        "held_actions": held_actions(envelopes),
        "escalation": state.get("escalation"),
        "draft_reply": state.get("reply", ""),
    }


def _subtask(agent: str, envelope: dict[str, Any]) -> dict[str, Any]:
    data = {k: v for k, v in envelope.get("data", {}).items() if k != "pending_action"}
    return {
        "agent": agent,
        "status": envelope.get("status"),
        "message": envelope.get("message"),
        "error_code": envelope.get("error_code"),
        "attempt": envelope.get("attempt"),
        "data": data,
    }


def _recommendation(action: dict[str, Any]) -> dict[str, Any]:
    return {
        "action_id": action["action_id"],
        "kind": action["kind"],
        "params": action["params"],
        "why": action["params"].get("reason", ""),
        "requested_amount": action.get("requested_amount"),
        "capped": action.get("capped", False),
        "amount_at_risk": action.get("amount_at_risk", 0),
        "checks": action.get("checks", []),
        "facts": action.get("facts", {}),
        "tool_call_id": action.get("tool_call_id"),
    }


def _history(state: dict[str, Any]) -> list[dict[str, str]]:
    """The conversation so far (seed 000), every turn: the customer, the AI, the operators."""
    messages = state.get("messages", [])
    if messages and isinstance(messages[0], dict):
        messages = messages_from_dict(messages)
    return [{"role": _role(m), "content": str(m.content)} for m in messages]


def _role(message: BaseMessage) -> str:
    return OPERATOR_NAME if message.name == OPERATOR_NAME else message.type


def _withheld(value: Any) -> Any:
    """``value`` with every coupon code in its strings withheld, however deeply nested."""
    if isinstance(value, str):
        return coupon_codes_withheld(value)
    if isinstance(value, dict):
        return {key: _withheld(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_withheld(item) for item in value]
    return value
