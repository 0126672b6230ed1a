"""A sample of the conversations the AI resolved goes to a person for review.

Without it a wrong AI answer marked resolved is never seen by anyone. A share of them
(the policy's review sample rate, ``netshop.policy``; 10% by default) joins the escalation
queue as a review, drawn per
intent so a busy intent cannot crowd out a rare one: the n-th answer of an intent the AI
resolved on its own is drawn when ``ceil(rate x n)`` goes up, the first of every intent and
then one in ten of each. Over N answers and k intents the sample is between rate x N and
rate x N + k. n is counted from when the sample began (``ReviewSampleCount``), so a shop
switching it on with years of history draws no backlog.
"""

from __future__ import annotations

import math
from fractions import Fraction

from django.db import connection
from django.db.models import Q

from agents.models import (
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    MessageAuthor,
    ReviewSampleCount,
)
from agents.support.escalations.package import inquiry_package
from agents.support.escalations.services import escalation_record_wait
from agents.support.vocabulary import SAMPLED_FOR_REVIEW, SENT_FOR_REVIEW
from netshop.policy import policy_in_force
from netshop.services.coupons import coupon_codes_withheld

# A look back at an answer already sent is not urgent: it is due within a week, so samples
# do not crowd the approvals' deadlines in the queue, the alerts or the overdue figures.
REVIEW_DAYS = 7


def review_sample_consider(*, inquiry: Inquiry) -> Escalation | None:
    """Put ``inquiry`` in the review queue if it is drawn for its intent's sample.

    Called as a run records a turn the AI resolved, in that transaction, with the inquiry's
    row written (status, intent) and locked, once per finishing turn (a review already open,
    a lead's flag or an earlier draw, is not doubled).
    """
    rate = policy_in_force().review_sample
    if rate <= 0 or not ai_resolved(inquiry):
        return None  # a person is looking or has looked: the draw goes to the next answer
    intent = inquiry.intent or ""
    if not drawn(_count_resolved(intent), Fraction(str(rate))):
        return None
    wait_key = f"{inquiry.pk}:{inquiry.turns or 1}:review-sample"
    return _look_back(inquiry, wait_key=wait_key, reason=SAMPLED_FOR_REVIEW)


def answer_review_queue(*, inquiry: Inquiry, wait_key: str) -> Escalation:
    """Put the answer just sent in the review queue: its intent is set to "send and review"
    (``agents.support.autonomy``). A look back, like a sample: the AI goes on meanwhile."""
    return _look_back(inquiry, wait_key=wait_key, reason=SENT_FOR_REVIEW)


def _look_back(inquiry: Inquiry, *, wait_key: str, reason: str) -> Escalation:
    """A review of the answer already sent (``reason``: sampled, or sent for review), due
    within a week, quoting the answer with any coupon code withheld."""
    intent = inquiry.intent or ""
    sampled = reason == SAMPLED_FOR_REVIEW
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=wait_key,
        kind=EscalationKind.REVIEW,
        reason=reason,
        summary=f"{'sampled' if sampled else 'sent'} for review: an AI answer "
        f"({intent or 'no intent'})",
        package=inquiry_package(inquiry)
        | {
            "review": {
                "sampled": sampled,
                "intent": intent,
                "reply": coupon_codes_withheld(inquiry.reply),
            }
        },
        deadline_minutes=REVIEW_DAYS * 24 * 60,
    )


def drawn(nth: int, rate: Fraction) -> bool:
    """Whether the ``nth`` conversation of an intent is drawn: ``ceil(rate x n)`` goes up."""
    return nth > 0 and math.ceil(rate * nth) > math.ceil(rate * (nth - 1))


def ai_resolved(inquiry: Inquiry) -> bool:
    """Whether the AI alone resolved the conversation and no person is looking at it: nobody
    owns it, wrote in it or decided anything in it (an approval, a hand-off), no review of it
    is open, and the customer marked none of its answers not solved. Any escalation but a
    review already decided rules it out."""
    by_person_or_unsolved = Q(author_kind=MessageAuthor.OPERATOR) | Q(feedback__solved=False)
    return (
        inquiry.status == InquiryStatus.RESOLVED
        and inquiry.human_owner_id is None
        and not inquiry.messages.filter(by_person_or_unsolved).exists()
        and not inquiry.escalations.exclude(
            kind=EscalationKind.REVIEW, status=EscalationStatus.DECIDED
        ).exists()
    )


def _count_resolved(intent: str) -> int:
    """Count one more AI-resolved answer of ``intent`` and return the count: one statement
    that inserts the intent's row or counts it up, and keeps it locked until the transaction
    ends, so the next worker counts after this one."""
    table = connection.ops.quote_name(ReviewSampleCount._meta.db_table)  # the model's, not input
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (intent, resolved) VALUES (%s, 1) "  # noqa: S608
            f"ON CONFLICT (intent) DO UPDATE SET resolved = {table}.resolved + 1 "
            "RETURNING resolved",
            [intent],
        )
        return int(cursor.fetchone()[0])
