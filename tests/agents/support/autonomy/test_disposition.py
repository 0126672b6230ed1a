"""What becomes of a finished turn's reply (issue 25, part 2), as a rule of its own.

The intent's level decides, except for the turns no setting lets out on their own: a message
that tried to instruct the system, a complaint, one the AI did not understand, a reading below
the confidence threshold, a reply that failed its self-check. Those are drafts whatever the level.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.models import AutonomyLevel, InquiryStatus
from agents.support.autonomy.disposition import (
    Disposition,
    TurnReading,
    reply_disposition,
    turn_reading,
)
from agents.support.vocabulary import SENT_FOR_REVIEW, DraftReason

BAR = 0.3


def disposed(level: AutonomyLevel = AutonomyLevel.SEND, **reading: Any) -> Disposition:
    values: dict[str, Any] = {"intent": "track_shipment", "confidence": 0.9} | reading
    return reply_disposition(TurnReading(**values), level=level, min_confidence=BAR)


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (AutonomyLevel.SEND, Disposition(AutonomyLevel.SEND)),
        (
            AutonomyLevel.SEND_AND_REVIEW,
            Disposition(AutonomyLevel.SEND_AND_REVIEW, SENT_FOR_REVIEW),
        ),
        (AutonomyLevel.DRAFT, Disposition(AutonomyLevel.DRAFT, DraftReason.AUTONOMY)),
    ],
)
def test_a_clear_turn_follows_its_intents_level(
    level: AutonomyLevel, expected: Disposition
) -> None:
    assert disposed(level) == expected


@pytest.mark.parametrize(
    ("reading", "reason"),
    [
        ({"instructions": True}, DraftReason.INSTRUCTIONS),
        ({"under_review": True}, DraftReason.UNDER_REVIEW),
        ({"complaint": True}, DraftReason.COMPLAINT),
        ({"not_understood": True}, DraftReason.NOT_UNDERSTOOD),
        ({"confidence": 0.29}, DraftReason.LOW_CONFIDENCE),
        ({"check_passed": False}, DraftReason.SELF_CHECK),
    ],
)
@pytest.mark.parametrize("level", list(AutonomyLevel))
def test_some_turns_are_drafts_whatever_the_level(
    reading: dict[str, Any], reason: DraftReason, level: AutonomyLevel
) -> None:
    assert disposed(level, **reading) == Disposition(AutonomyLevel.DRAFT, reason)


def test_the_most_serious_reason_is_the_one_given() -> None:
    everything: dict[str, Any] = {
        "instructions": True,
        "complaint": True,
        "confidence": 0.0,
        "check_passed": False,
    }
    assert disposed(**everything).reason == DraftReason.INSTRUCTIONS
    assert disposed(complaint=True, check_passed=False).reason == DraftReason.COMPLAINT


def test_the_threshold_itself_is_sure_enough_and_an_unknown_confidence_is_not_low() -> None:
    assert not disposed(confidence=BAR).is_draft
    assert not disposed(confidence=None).is_draft


def grounds(passed: bool) -> Any:
    return {"check": {"passed": passed, "problems": []}}


def test_a_turn_is_read_from_the_graphs_state_and_its_replies_grounds() -> None:
    state = {
        "status": InquiryStatus.RESOLVED,
        "classification": {
            "intent": "search_faq",
            "confidence": 0.8,
            "complaint": True,
            "injection_suspected": False,
        },
    }
    reading = turn_reading(state, [grounds(True), grounds(False)])
    assert reading == TurnReading(
        intent="search_faq", confidence=0.8, complaint=True, check_passed=False
    )


def test_only_a_turn_ending_on_what_can_we_help_with_did_not_understand() -> None:
    unclear = {"slot": "request", "why": "unclear"}
    asking = {"status": InquiryStatus.AWAITING_CUSTOMER, "question": unclear}
    # An earlier turn's question stays in the state of a turn that answered.
    answered = {"status": InquiryStatus.RESOLVED, "question": unclear}
    unsure = {"status": InquiryStatus.AWAITING_CUSTOMER, "question": {"why": "unsure"}}
    assert turn_reading(asking, []).not_understood
    assert not turn_reading(answered, []).not_understood
    assert not turn_reading(unsure, []).not_understood


@pytest.mark.parametrize("reading", [{"complaint": True}, {"confidence": 0.1}, {}])
def test_a_reply_holding_a_coupon_code_is_sent_and_reviewed_never_drafted(
    reading: dict[str, Any],
) -> None:
    """Staff never see a coupon code, so none could send it: the coupon is issued already."""
    disposition = disposed(AutonomyLevel.DRAFT, carries_code=True, **reading)
    assert disposition == Disposition(AutonomyLevel.SEND_AND_REVIEW, SENT_FOR_REVIEW)


def test_a_reply_holding_a_code_is_found_by_the_shops_own_code_pattern() -> None:
    state = {"status": InquiryStatus.RESOLVED, "classification": {"intent": "apply_coupon"}}
    assert turn_reading(state, [], replies=["Your code: SORRY-V2TKZP72HJ"]).carries_code
    assert not turn_reading(state, [], replies=["We are sorry for the delay."]).carries_code
