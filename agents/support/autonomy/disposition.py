"""What happens to a finished turn's reply: sent, sent and reviewed, or held as a draft.

Pure: it reads the turn (how the message was read, whether the reply passed its self-check)
and the intent's level, so the rule is the same for either model and testable on its own.
Some turns are drafts whatever the level: a person reads the reply before the customer does
when the AI did not understand the message or was unsure of its reading, when its reply failed
its own check, when the message is a complaint or tried to instruct the system.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agents.models import AutonomyLevel, InquiryStatus
from agents.support.grounds import GroundsDict
from agents.support.vocabulary import SENT_FOR_REVIEW, DraftReason
from netshop.services.coupons import coupon_codes_withheld


@dataclass(frozen=True)
class TurnReading:
    """What the rule needs of a turn: its main intent, how sure the reading was, and the
    flags that make any reply a draft."""

    intent: str
    confidence: float | None
    not_understood: bool = False
    complaint: bool = False
    instructions: bool = False
    check_passed: bool = True
    under_review: bool = False
    """A person took hold of the conversation while the turn ran (a customer's "not solved")."""
    carries_code: bool = False
    """The reply holds a coupon code: staff never see one, so no person could send it."""


@dataclass(frozen=True)
class Disposition:
    """The reply's fate: ``level`` (a forced draft is ``DRAFT``) and ``reason``, the draft's
    ``DraftReason`` or ``SENT_FOR_REVIEW``; empty when the reply is simply sent."""

    level: AutonomyLevel
    reason: str = ""

    @property
    def is_draft(self) -> bool:
        return self.level == AutonomyLevel.DRAFT


def reply_disposition(
    reading: TurnReading, *, level: AutonomyLevel, min_confidence: float
) -> Disposition:
    """The first rule that applies: the forced drafts, most serious first, then the level."""
    forced = _forced_draft(reading, min_confidence=min_confidence)
    if forced is None and level == AutonomyLevel.DRAFT:
        forced = DraftReason.AUTONOMY
    if forced is not None and reading.carries_code:
        # The coupon is issued already and its code is the customer's alone: the reply goes
        # out, and a person reviews it after (the review never shows the code).
        return Disposition(AutonomyLevel.SEND_AND_REVIEW, SENT_FOR_REVIEW)
    if forced is not None:
        return Disposition(AutonomyLevel.DRAFT, forced)
    if level == AutonomyLevel.SEND_AND_REVIEW:
        return Disposition(AutonomyLevel.SEND_AND_REVIEW, SENT_FOR_REVIEW)
    return Disposition(AutonomyLevel.SEND)


def _forced_draft(reading: TurnReading, *, min_confidence: float) -> DraftReason | None:
    if reading.instructions:
        return DraftReason.INSTRUCTIONS
    if reading.under_review:
        return DraftReason.UNDER_REVIEW
    if reading.complaint:
        return DraftReason.COMPLAINT
    if reading.not_understood:
        return DraftReason.NOT_UNDERSTOOD
    if reading.confidence is not None and reading.confidence < min_confidence:
        return DraftReason.LOW_CONFIDENCE
    if not reading.check_passed:
        return DraftReason.SELF_CHECK
    return None


def turn_reading(
    state: Mapping[str, Any],
    grounds: Iterable[GroundsDict],
    *,
    replies: Iterable[str] = (),
    under_review: bool = False,
) -> TurnReading:
    """The reading of a turn from the graph's ``state`` and its replies' ``grounds``. A turn
    that ended asking "what can we help with?" (a question whose why is "unclear") did not
    understand the message (an earlier turn's question stays in the state: only a turn
    waiting on the customer asked it)."""
    classification = state.get("classification") or {}
    asked = state.get("status") == InquiryStatus.AWAITING_CUSTOMER
    question = (state.get("question") or {}) if asked else {}
    confidence = classification.get("confidence")
    return TurnReading(
        intent=str(classification.get("intent") or ""),
        confidence=float(confidence) if confidence is not None else None,
        not_understood=question.get("why") == "unclear",
        complaint=bool(classification.get("complaint")),
        instructions=bool(classification.get("injection_suspected")),
        check_passed=all(g["check"]["passed"] for g in grounds),
        under_review=under_review,
        carries_code=any(coupon_codes_withheld(reply) != reply for reply in replies),
    )
