"""The escalation policy (SPEC section 4) as pure functions of what the specialists returned.

The graph asks one question after the specialists are done: does a person need to look at
this inquiry, and why? The answer is structured (kind, reason category), never inferred
from the wording of a reply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from agents.models import EscalationKind
from agents.support.escalations.package import held_actions
from agents.support.shapes import EnvelopeDict, PendingAction
from agents.support.vocabulary import GATED_SKILLS, Skill
from agents.team.graph.questions import stopped

ReasonCategory = Literal[
    "approval_required",
    "tool_failure",
    "policy_restriction",
    "missing_knowledge",
    "customer_request",
    "supervisor_failure",
    "action_failed",
    "approvals_short",  # approved, but short of the approvals a since-lowered limit asks
    "claim_contradicts_records",
    "unsupported_request",
    "flagged_for_review",  # a lead's second look at a conversation the AI resolved
    "sampled_for_review",  # drawn into the review sample of AI-resolved conversations
    "customer_not_solved",  # the customer said an AI answer did not solve their problem
    "outcome_unconfirmed",  # a finished run whose side effect the records did not confirm
    "instructions_to_system",  # the text tried to instruct the system: nothing was prepared
    "sent_for_review",  # an answer of an intent set to "send and review"
    # why a reply waits as a draft (``DraftReason``, ``agents.support.autonomy``)
    "autonomy_draft",
    "not_understood",
    "low_confidence",
    "self_check_failed",
    "complaint",
    "under_review",
]


@dataclass(frozen=True)
class Escalation:
    kind: EscalationKind
    reason: ReasonCategory
    summary: str
    failed_agents: list[str] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)
    """What the reply may tell the customer of why a person follows up (an order number,
    the request the shop cannot do); left out of the dict when empty."""

    def as_dict(self) -> dict[str, Any]:
        shaped = asdict(self)
        if not shaped["detail"]:
            del shaped["detail"]
        return shaped


def failed_agents(envelopes: Mapping[str, EnvelopeDict]) -> list[str]:
    return sorted(agent for agent, env in envelopes.items() if env["status"] == "error")


def useful_results(envelopes: Mapping[str, EnvelopeDict]) -> list[str]:
    return sorted(
        agent for agent, env in envelopes.items() if env["status"] != "error" and env.get("data")
    )


def pending_actions(envelopes: Mapping[str, EnvelopeDict]) -> list[PendingAction]:
    return [
        env["data"]["pending_action"]
        for env in envelopes.values()
        if env["status"] == "escalate" and "pending_action" in env.get("data", {})
    ]


# The gated skills, and the tool whose result proves the request was prepared or refused.
GATED_TOOLS: dict[str, str] = {skill: skill for skill in GATED_SKILLS}


def unprepared_requests(
    envelopes: Mapping[str, EnvelopeDict], plan: list[dict[str, Any]]
) -> list[str]:
    """Refund and cancellation requests that were neither prepared nor refused.

    Their errors are never retried and never dropped (SPEC 4.4): a person takes them.
    """
    missing = []
    for step in plan:
        tool = GATED_TOOLS.get(step["intent"])
        envelope = envelopes.get(step["agent"])
        if tool is None or envelope is None or envelope["status"] == "escalate":
            continue
        if stopped(envelope):  # it asked the customer or referred to a person: on purpose
            continue
        if "refused" not in (envelope.get("data", {}).get(tool) or {}):
            missing.append(step["intent"])
    return missing


def assess(
    *,
    envelopes: Mapping[str, EnvelopeDict],
    intent: str,
    injection_suspected: bool,
    plan: list[dict[str, Any]] | None = None,
    referral: Mapping[str, Any] | None = None,
) -> Escalation | None:
    """Who must act next, by the policy's rules, first that applies."""
    actions = pending_actions(envelopes)
    failed = failed_agents(envelopes)
    useful = useful_results(envelopes)
    unprepared = unprepared_requests(envelopes, plan or [])
    held = ", ".join(action["kind"] for action in held_actions(envelopes))
    flag = " (the inquiry tried to instruct the system)" if injection_suspected else ""
    if injection_suspected and not actions:
        return instructions_to_system(failed)
    if actions:
        kinds = ", ".join(a["kind"] for a in actions)
        note = flag
        if unprepared:
            note += f"; also could not prepare: {', '.join(unprepared)}"
        if held:
            note += f"; also held for a person: {held}"
        return Escalation(
            EscalationKind.APPROVAL, "approval_required", f"approval needed: {kinds}{note}", failed
        )
    if unprepared:
        summary = f"could not prepare: {', '.join(unprepared)}; a person must handle it"
        summary += f"; also held for a person: {held}" if held else ""
        return Escalation(EscalationKind.FAILURE, "action_failed", summary, failed)
    if held:
        # Nothing ran: the customer is told a person follows up, an operator decides.
        summary = f"held for a person, not done: {held}{flag}"
        return Escalation(EscalationKind.FOLLOW_UP, "policy_restriction", summary, failed)
    handover = person_needed(referral, failed)
    if handover is not None:
        return handover
    if failed and not useful:
        return Escalation(
            EscalationKind.FAILURE,
            "tool_failure",
            f"no specialist could answer: {', '.join(failed)}",
            failed,
        )
    if len(failed) >= 2:
        return Escalation(
            EscalationKind.FOLLOW_UP,
            "tool_failure",
            f"partial answer sent; not checked: {', '.join(failed)}",
            failed,
        )
    if intent == Skill.CONTACT_HUMAN:
        return Escalation(
            EscalationKind.CUSTOMER_REQUEST,
            "customer_request",
            "the customer asked for a person",
            failed,
        )
    if _faq_found_nothing(envelopes) and len(envelopes) == 1:
        return Escalation(
            EscalationKind.FOLLOW_UP,
            "missing_knowledge",
            "the FAQ has no answer to this question",
            failed,
        )
    return None


def person_needed(referral: Mapping[str, Any] | None, failed: list[str]) -> Escalation | None:
    """A specialist's referral: a request the shop has no skill for, or a claim its records
    contradict; a person follows up (never a circular answer, never "delivered" to a customer
    who says not)."""
    if referral:
        reason: ReasonCategory = (
            "unsupported_request"
            if referral.get("reason") == "unsupported_request"
            else "claim_contradicts_records"
        )
        detail = {key: referral[key] for key in ("order_number", "claim") if referral.get(key)}
        summary = str(referral.get("summary") or reason)
        return Escalation(EscalationKind.FOLLOW_UP, reason, summary, failed, detail)
    return None


def instructions_to_system(failed: list[str] | None = None) -> Escalation:
    """A message flagged as instructing the system (or claiming authority over it) is not
    worked on by the team: no proposal, no look-up acted on, a person reads it with the flag."""
    return Escalation(
        EscalationKind.FOLLOW_UP,
        "instructions_to_system",
        "the inquiry tried to instruct the system: nothing prepared, a person reads it",
        failed or [],
    )


def supervisor_failure(message: str) -> Escalation:
    return Escalation(
        EscalationKind.FAILURE, "supervisor_failure", f"the supervisor failed: {message}"
    )


def _faq_found_nothing(envelopes: Mapping[str, EnvelopeDict]) -> bool:
    faq = envelopes.get("faq")
    if not faq or faq["status"] != "success":
        return False
    data = faq.get("data", {})
    answer = (data.get("answer_general_question") or {}).get("answer")
    entries = (data.get("search_faq") or {}).get("entries")
    return not answer and not entries


def outcome_unconfirmed(receipts: list[Mapping[str, Any]]) -> Escalation | None:
    """A run that finished claiming side effects its system of record did not confirm (after
    the verifiers' retries): a person checks them, rather than the verdict sitting unseen."""
    agents = sorted({str(r["receiver"]) for r in receipts if r.get("verdict") == "FALSE_COMPLETE"})
    if not agents:
        return None
    summary = f"finished, but the records did not confirm what {', '.join(agents)} did: check it"
    return Escalation(EscalationKind.FOLLOW_UP, "outcome_unconfirmed", summary, agents)
