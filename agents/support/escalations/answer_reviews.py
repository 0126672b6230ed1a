"""A reviewer's verdict on an AI answer: correct, or wrong and why (issue 25, part 4).

A review escalation (a sampled AI answer, or one a lead flagged) is closed by its verdict: the
verdict is recorded once (``AnswerReview``, one per escalation), the escalation is decided
("reviewed") and leaves the queue, and both are audited. Two reviewers sending a verdict at
once are serialised on the escalation's row: one verdict is recorded, the other is refused
naming who gave it. A wrong answer may carry a correction for the customer, sent with the
verdict as an operator message, so it is sent at most once.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction

from agents.models import (
    AnswerReview,
    AnswerVerdict,
    Escalation,
    EscalationKind,
    Inquiry,
    MessageAuthor,
    WrongAnswerReason,
)
from agents.support import audit_trail
from agents.support.conversations.messages import message_store
from agents.support.escalations.language import language_check
from agents.support.escalations.services import (
    escalation_decided,
    escalation_locked,
    refuse_if_claimed_by_other,
    refuse_if_decided,
    refuse_unconfirmed_language,
)
from agents.support.events.bus import publish
from agents.support.events.payloads import inquiry_payload
from agents.support.vocabulary import OperatorDecision
from netshop.errors import DomainError
from netshop.transactions import retry_conflicts

CONSOLE_CHANNEL = "console"


@dataclass(frozen=True)
class Verdict:
    """What a reviewer says of an answer; ``reason`` is a ``WrongAnswerReason`` when wrong."""

    verdict: str
    reason: str = ""
    note: str = ""


def verdict_checked(verdict: Verdict) -> Verdict:
    """The verdict as it is recorded, or the ``DomainError`` that refuses it: a wrong answer
    needs one of the reason categories, a correct one takes none."""
    if verdict.verdict not in AnswerVerdict.values:
        raise DomainError("invalid_verdict")
    if verdict.verdict == AnswerVerdict.CORRECT:
        if verdict.reason:
            raise DomainError("wrong_reason_required", variant="correct")
        return verdict
    if verdict.reason not in WrongAnswerReason.values:
        raise DomainError("wrong_reason_required", allowed=", ".join(WrongAnswerReason.values))
    return verdict


@retry_conflicts
@transaction.atomic
def answer_review_record(
    *,
    escalation_id: UUID | str,
    user: User,
    verdict: Verdict,
    correction: str = "",
    confirm_language: bool = False,
) -> AnswerReview:
    """Record ``user``'s verdict on the answer a review escalation holds, and decide it.

    Once per escalation: a second verdict is refused (``already_reviewed``), as is one on an
    escalation decided otherwise (``already_decided``) or held by someone else. A
    ``correction`` (wrong answers only) goes to the customer as the reviewer's message, in
    the customer's language unless ``confirm_language``.
    """
    verdict = verdict_checked(verdict)
    escalation = escalation_locked(escalation_id)
    if escalation.kind != EscalationKind.REVIEW:
        raise DomainError("not_a_review")
    _refuse_if_reviewed(escalation)
    refuse_if_decided(escalation)
    refuse_if_claimed_by_other(escalation, user)
    correction = correction.strip()
    if correction:
        _refuse_unfit_correction(escalation.inquiry, verdict, correction, confirm_language)
    review = AnswerReview.objects.create(
        escalation=escalation,
        inquiry=escalation.inquiry,
        turn=escalation.turn,
        intent=reviewed_intent(escalation),
        verdict=verdict.verdict,
        reason=verdict.reason,
        note=verdict.note.strip(),
        reviewer=user,
    )
    audit_trail.answer_reviewed(review=review, actor=user.username)
    if correction:
        _send_correction(escalation, correction, reviewer=user)
    record = {
        "decision": OperatorDecision.REVIEWED,
        "params": {},
        "reason": "",
        "reply": "",
        "operator": user.username,
        "verdict": review.verdict,
        "verdict_reason": review.reason,
    }
    escalation_decided(escalation, record, user=user)
    return review


def reviewed_intent(escalation: Escalation) -> str:
    """The intent of the answer under review: the one it was sampled for, else the
    conversation's (a lead's flag does not carry it)."""
    review = escalation.package.get("review") or {}
    return str(review.get("intent") or escalation.inquiry.intent or "")


def _refuse_if_reviewed(escalation: Escalation) -> None:
    """A second verdict on one answer is refused, naming the first."""
    earlier = AnswerReview.objects.filter(escalation=escalation).select_related("reviewer").first()
    if earlier is None:
        return
    raise DomainError(
        "already_reviewed",
        verdict=earlier.verdict,
        who=earlier.reviewer.username,
        when=earlier.created_at.isoformat(),
    )


def _refuse_unfit_correction(
    inquiry: Inquiry, verdict: Verdict, correction: str, confirmed: bool
) -> None:
    if verdict.verdict != AnswerVerdict.WRONG:
        raise DomainError("correction_needs_wrong")
    check = language_check(correction, customer_language=inquiry.language)
    refuse_unconfirmed_language(check, confirmed=confirmed)


def _send_correction(escalation: Escalation, text: str, *, reviewer: User) -> None:
    """The reviewer's correction reaches the customer as their message in the conversation,
    keyed by the escalation, so it is stored (and sent) once whatever happens."""
    inquiry = escalation.inquiry
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.OPERATOR,
        author=reviewer,
        text=text,
        channel=CONSOLE_CHANNEL,
        idempotency_key=f"correction:{escalation.pk}",
    )
    inquiry.reply = text
    inquiry.save(update_fields=["reply", "updated_at"])
    audit_trail.answer_corrected(
        inquiry_id=inquiry.pk, escalation_id=escalation.pk, actor=reviewer.username
    )
    publish("inquiry.updated", inquiry_payload(inquiry))
