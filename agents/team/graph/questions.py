"""Questions to the customer and referrals to a person, as the specialists' envelopes hold
them: pure functions the planner, the review and the reply brief share.

A specialist that called ``ask_customer`` answered with ``{"ask_customer": {"question":
{...}}}`` in its envelope's data; one that called ``refer_to_person`` with ``{"refer_to_person":
{"referral": {...}}}``. Steps that depend on an asking step are skipped (they would act on a
guess), and the run asks, or hands to a person, instead of acting.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.contract.tools import ASK_CUSTOMER, QUESTION, REFER_TO_PERSON, REFERRAL
from agents.support.shapes import EnvelopeDict
from agents.team.graph.state import PlanStep


def _result(envelope: EnvelopeDict | None, tool: str, key: str) -> dict[str, Any] | None:
    if not envelope or envelope.get("status") == "error":
        return None
    value = ((envelope.get("data") or {}).get(tool) or {}).get(key)
    return value if isinstance(value, dict) else None


def envelope_question(envelope: EnvelopeDict | None) -> dict[str, Any] | None:
    """The question a specialist stopped to ask, if it did."""
    return _result(envelope, ASK_CUSTOMER, QUESTION)


def envelope_referral(envelope: EnvelopeDict | None) -> dict[str, Any] | None:
    """The referral to a person a specialist stopped with, if it did."""
    return _result(envelope, REFER_TO_PERSON, REFERRAL)


def stopped(envelope: EnvelopeDict | None) -> bool:
    """Whether the specialist stopped to ask the customer or a person, acting on nothing."""
    return envelope_question(envelope) is not None or envelope_referral(envelope) is not None


def first_question(
    envelopes: Mapping[str, EnvelopeDict], plan: list[PlanStep]
) -> dict[str, Any] | None:
    """The one question this turn asks: the earliest step's (one question at a time), with
    the agent that asked it."""
    for step in sorted(plan, key=lambda s: s["step"]):
        question = envelope_question(envelopes.get(step["agent"]))
        if question is not None:
            return {**question, "asked_by": step["agent"]}
    return None


def first_referral(
    envelopes: Mapping[str, EnvelopeDict], plan: list[PlanStep]
) -> dict[str, Any] | None:
    for step in sorted(plan, key=lambda s: s["step"]):
        referral = envelope_referral(envelopes.get(step["agent"]))
        if referral is not None:
            return {**referral, "referred_by": step["agent"]}
    return None


def waiting_on_answer(plan: list[PlanStep], envelopes: Mapping[str, EnvelopeDict]) -> set[int]:
    """The pending steps that depend, directly or not, on a step that stopped to ask: they
    are skipped, since they would act on what the answer is to decide."""
    stopped_steps = {
        s["step"] for s in plan if s["status"] == "done" and stopped(envelopes.get(s["agent"]))
    }
    blocked: set[int] = set()
    changed = True
    while changed:
        changed = False
        for step in plan:
            if step["step"] in blocked or step["status"] != "pending":
                continue
            if any(d in stopped_steps or d in blocked for d in step["depends_on"]):
                blocked.add(step["step"])
                changed = True
    return blocked
