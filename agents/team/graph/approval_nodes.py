"""Waiting for a person, and acting on what they decided (SPEC 5).

``await_approval`` does nothing but ``interrupt()``: on resume a node re-runs from its first
line, so nothing with a side effect may come before it. The actions run in the next node,
``act_on_decisions``, each under its stable operation id.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from langchain_core.messages import ToolMessage, message_to_dict
from langchain_core.runnables import RunnableConfig
from langgraph.types import interrupt

from agents.models import EscalationKind, InquiryStatus
from agents.support.shapes import PendingAction
from agents.support.vocabulary import OperatorDecision
from agents.team.db_connections import releases_db_connection
from agents.team.graph.gated_actions import carry_out
from agents.team.graph.state import InquiryState
from agents.team.run_context import run_context


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


class Outcome(StrEnum):
    """What a round of decisions leads to, once the decided actions have run."""

    TAKEN_OVER = "taken_over"  # a person answers the customer; the run is over
    FAILED = "failed"  # an action failed at the gateway: back to a person to retry
    # Approvals short of the policy in force (a limit lowered since): back to wait for them.
    REAPPROVAL = "reapproval"
    RETRY_SETTLED = "retry_settled"  # a retry went through or was given up: nothing is open
    EXECUTED = "executed"  # every decided action went through
    REFUSED = "refused"  # something was declined or refused: the reply tells the customer


@dataclasses.dataclass(frozen=True)
class DecisionRound:
    """What ``decide_outcome`` reads: the people's decisions and what carrying them out gave."""

    decisions: Mapping[str, Mapping[str, Any]]
    results: Sequence[Mapping[str, Any]]
    waits_on_a_retry: bool = False


@dataclasses.dataclass(frozen=True)
class DecisionOutcome:
    """The outcome, with the one reply it carries and the results a person must retry."""

    outcome: Outcome
    reply: str = ""  # the take-over's reply, or an edit's rewritten reply when all went through
    failed: tuple[Mapping[str, Any], ...] = ()  # the results a person retries or approves again


def decide_outcome(round_: DecisionRound) -> DecisionOutcome:
    """Pure: the outcome of a round of decisions. A take-over wins; a failure goes back to a
    person (never retried by the run, SPEC 4.4); the reply the operator was shown, or an
    edited reply, stands only if the actions did what it says (a refusal at execution time
    must not be announced as done)."""
    decisions = list(round_.decisions.values())
    take_over = next((d for d in decisions if d["decision"] == OperatorDecision.TAKE_OVER), None)
    if take_over is not None:
        return DecisionOutcome(Outcome.TAKEN_OVER, reply=take_over.get("reply", ""))
    failed = tuple(r for r in round_.results if r["outcome"] == "failed")
    if failed:
        return DecisionOutcome(Outcome.FAILED, failed=failed)
    short = tuple(r for r in round_.results if r["outcome"] == "awaiting_approval")
    if short:
        return DecisionOutcome(Outcome.REAPPROVAL, failed=short)
    shown = previewed_reply(round_.decisions, round_.results)
    if round_.waits_on_a_retry:
        return DecisionOutcome(Outcome.RETRY_SETTLED, reply=shown)
    if all(r["outcome"] == "executed" for r in round_.results):
        edited = [
            d.get("reply", "").strip() for d in decisions if d["decision"] == OperatorDecision.EDIT
        ]
        return DecisionOutcome(Outcome.EXECUTED, reply=shown or next((r for r in edited if r), ""))
    return DecisionOutcome(Outcome.REFUSED, reply=shown)


# What of an action's result the customer's reply tells: a preview assumed these, and its
# text stands only if the action's result has exactly them.
OUTCOME_FACTS = ("outcome", "refund_amount", "authorization_released")


def outcome_facts(result: Mapping[str, Any]) -> dict[str, Any]:
    """The facts of one action's result that the reply tells the customer."""
    return {key: result[key] for key in OUTCOME_FACTS if key in result}


def previewed_reply(
    decisions: Mapping[str, Mapping[str, Any]], results: Sequence[Mapping[str, Any]]
) -> str:
    """Pure: the text the operator was shown before deciding, if the actions did what it
    assumed (all executed for an approval or edit, declined as previewed for a rejection);
    "" otherwise, and the run writes a new reply from what happened."""
    previews = [d.get("preview") for d in decisions.values()]
    first = previews[0] if previews else None
    if not isinstance(first, Mapping) or any(p != first for p in previews) or not results:
        return ""
    happened = {str(r["action_id"]): outcome_facts(r) for r in results}
    return str(first.get("text") or "") if happened == first.get("outcomes") else ""


REAPPROVAL_REASON = "approvals_short"


def reapproval_escalation(short: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The escalation that sends actions back for the approvals the policy in force asks
    (a limit lowered after they were approved): the approvals that still count stay."""
    version = short[0].get("policy_version", 0)
    return {
        "kind": EscalationKind.APPROVAL,
        "reason": REAPPROVAL_REASON,
        "summary": f"{', '.join(r['kind'] for r in short)} needs the approvals policy version "
        f"{version} requires; it was approved under an earlier one",
        "failed_agents": [],
    }


def retry_escalation(failed: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The escalation that hands failed actions back to a person: retry (same operation id,
    so it cannot run twice), give up, or answer the customer."""
    return {
        "kind": EscalationKind.FAILURE,
        "reason": "action_failed",
        "summary": f"{', '.join(r['kind'] for r in failed)} failed at the gateway; "
        "retry it or answer the customer",
        "failed_agents": [],
    }


@releases_db_connection
def act_on_decisions(state: InquiryState, config: RunnableConfig) -> dict[str, Any]:
    """Carry out the decided actions, then apply what ``decide_outcome`` makes of them."""
    customer_id = run_context(config).customer_id
    decisions = state.get("decisions", {})
    results = [
        naming_its_order(
            action,
            carry_out(
                action=action, decision=decisions[action["action_id"]], customer_id=customer_id
            ),
        )
        for action in state["pending_actions"]
        if action["action_id"] in decisions
    ]
    return decisions_applied(state, results)


def decisions_applied(state: InquiryState, results: list[dict[str, Any]]) -> dict[str, Any]:
    """The state update a round of carried-out decisions makes (the preview applies it to
    the results the decision implies, to show the reply before anything runs)."""
    decisions = state.get("decisions", {})
    update: dict[str, Any] = {
        "action_results": _latest_per_action(state.get("action_results", []), results),
        "transcripts": _close_tool_calls(state, results),
    }
    again = waits_on_a_retry(state) or waits_on_reapproval(state)
    decided = decide_outcome(DecisionRound(decisions, results, waits_on_a_retry=again))
    return update | _applied(decided, state)


def naming_its_order(action: PendingAction, result: dict[str, Any]) -> dict[str, Any]:
    """A declined action keeps the parameters it was prepared with, so the reply names the
    order it declines (an executed one carries the parameters it ran with)."""
    return {"params": dict(action["params"]), **result}


def _applied(decided: DecisionOutcome, state: InquiryState) -> dict[str, Any]:
    """The state update an outcome makes."""
    match decided.outcome:
        case Outcome.TAKEN_OVER:
            return {"status": InquiryStatus.HANDLED_BY_HUMAN, "reply": decided.reply}
        case Outcome.FAILED:
            pending = state["pending_actions"]
            return {
                "pending_actions": [_as_failed(pending, dict(r)) for r in decided.failed],
                "escalation": retry_escalation(decided.failed),
            }
        case Outcome.REAPPROVAL:
            pending = state["pending_actions"]
            return {
                "pending_actions": [_awaiting_again(pending, dict(r)) for r in decided.failed],
                "escalation": reapproval_escalation(decided.failed),
            }
        case Outcome.RETRY_SETTLED:
            return {"escalation": None} | _sent_as_shown(decided)
        case Outcome.EXECUTED | Outcome.REFUSED:
            return _sent_as_shown(decided)
    return {}


def _sent_as_shown(decided: DecisionOutcome) -> dict[str, Any]:
    """The reply a person approved (shown in the preview, or written in an edit) is sent as
    it is; without one the writer writes it."""
    return {"operator_reply": decided.reply} if decided.reply else {}


def route_after_decisions(state: InquiryState) -> str:
    if state.get("status") == InquiryStatus.HANDLED_BY_HUMAN:
        return "finalize"
    if waits_on_reapproval(state):
        return "await_approval"  # the customer heard already that a person is looking
    if waits_on_a_retry(state):
        return "acknowledge"  # the customer hears of the delay; the run waits for a person
    return "merge"


def waits_on_a_retry(state: InquiryState) -> bool:
    """Whether a gated action failed and a person is to retry it, give it up or take over."""
    return (state.get("escalation") or {}).get("reason") == "action_failed"


def waits_on_reapproval(state: InquiryState) -> bool:
    """Whether approved actions wait again for the approvals a lowered limit asks."""
    return (state.get("escalation") or {}).get("reason") == REAPPROVAL_REASON


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


def _awaiting_again(pending: list[PendingAction], result: dict[str, Any]) -> PendingAction:
    """The action as it waits again: with the parameters approved, and the approvals that
    still count carried to the new wait (``escalation_record_wait``)."""
    action = next(a for a in pending if a["action_id"] == result["action_id"])
    at_risk = result["params"].get("amount", action.get("amount_at_risk", 0))
    return {
        **action,
        "params": result["params"],
        "amount_at_risk": at_risk,
        "approval_carried": result.get("carried"),
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
