"""Waiting for a person, and acting on what they decided (SPEC 5).

``await_approval`` does nothing but ``interrupt()``: on resume a node re-runs from its first
line, so nothing with a side effect may come before it. The actions run in the next node,
``act_on_decisions``, each under its stable operation id.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import ToolMessage, message_to_dict
from langchain_core.runnables import RunnableConfig
from langgraph.types import interrupt

from agents.graph.db_connections import releases_db_connection
from agents.graph.gated_actions import carry_out
from agents.graph.run_context import run_context
from agents.graph.state import InquiryState
from agents.models import InquiryStatus
from agents.shapes import PendingAction


def approval_request(state: InquiryState) -> dict[str, Any]:
    """What the run waits on: one entry per prepared action, with everything to decide it."""
    return {
        "type": "approval",
        "inquiry_id": state["inquiry_id"],
        "actions": state["pending_actions"],
        "escalation": state.get("escalation"),
    }


def await_approval(state: InquiryState) -> dict[str, Any]:
    decisions = interrupt(approval_request(state))
    return {"decisions": dict(decisions)}


@releases_db_connection
def act_on_decisions(state: InquiryState, config: RunnableConfig) -> dict[str, Any]:
    customer_id = run_context(config).customer_id
    decisions = state.get("decisions", {})
    results = [
        carry_out(action=action, decision=decisions[action["action_id"]], customer_id=customer_id)
        for action in state["pending_actions"]
        if action["action_id"] in decisions
    ]
    update: dict[str, Any] = {
        "action_results": _latest_per_action(state.get("action_results", []), results),
        "transcripts": _close_tool_calls(state, results),
    }
    take_over = next((d for d in decisions.values() if d["decision"] == "take_over"), None)
    failed = [r for r in results if r["outcome"] == "failed"]
    if take_over is not None:
        update |= {"status": "handled_by_human", "reply": take_over.get("reply", "")}
    elif failed:
        # Never retried by the run (SPEC 4.4): back to a person, who may retry it (same
        # operation id, so it cannot run twice), give it up, or answer the customer.
        update["pending_actions"] = [_as_failed(state["pending_actions"], r) for r in failed]
        update["escalation"] = {
            "kind": "failure",
            "reason": "action_failed",
            "summary": f"{', '.join(r['kind'] for r in failed)} failed at the gateway; "
            "retry it or answer the customer",
            "failed_agents": [],
        }
    elif waits_on_a_retry(state):
        update["escalation"] = None  # the person retried it, or gave it up: nothing is open
    elif all(r["outcome"] == "executed" for r in results):
        # An edit may rewrite the reply too; it stands only if every action went through
        # (a refusal at execution time must not be announced as done).
        edited = [d.get("reply", "").strip() for d in decisions.values() if d["decision"] == "edit"]
        if any(edited):
            update["operator_reply"] = next(reply for reply in edited if reply)
    return update


def route_after_decisions(state: InquiryState) -> str:
    if state.get("status") == InquiryStatus.HANDLED_BY_HUMAN:
        return "finalize"
    if waits_on_a_retry(state):
        return "acknowledge"  # the customer hears of the delay; the run waits for a person
    return "merge"


def waits_on_a_retry(state: InquiryState) -> bool:
    """Whether a gated action failed and a person is to retry it, give it up or take over."""
    return (state.get("escalation") or {}).get("reason") == "action_failed"


def _latest_per_action(
    earlier: list[dict[str, Any]], results: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each action's latest outcome: a retry's replaces the failure it retried."""
    retried = {r["action_id"] for r in results}
    return [r for r in earlier if r["action_id"] not in retried] + results


def _as_failed(pending: list[PendingAction], result: dict[str, Any]) -> PendingAction:
    """The failed action as a person would retry it: with the parameters that were approved."""
    action = next(a for a in pending if a["action_id"] == result["action_id"])
    at_risk = result["params"].get("amount", action.get("amount_at_risk", 0))
    return {
        **action,
        "params": result["params"],
        "amount_at_risk": at_risk,
        "failure": result["code"],
    }


def _close_tool_calls(
    state: InquiryState, results: list[dict[str, Any]]
) -> dict[str, list[dict[str, Any]]]:
    """Answer each gated tool call with its outcome, so no call is left open."""
    transcripts = state.get("transcripts", {})
    closed: dict[str, list[dict[str, Any]]] = {}
    by_id = {r["action_id"]: r for r in results}
    answered = {r["action_id"] for r in state.get("action_results", [])}
    for action in state["pending_actions"]:
        result = by_id.get(action["action_id"])
        if result is None or action["action_id"] in answered:
            continue  # a retry's call was answered by the attempt that failed
        agent = action["agent"]
        message = ToolMessage(
            content=json.dumps(result, ensure_ascii=False, default=str),
            tool_call_id=action["tool_call_id"],
            name=action["tool"],
            status="success" if result["outcome"] == "executed" else "error",
        )
        closed[agent] = [*closed.get(agent, transcripts.get(agent, [])), message_to_dict(message)]
    return closed
