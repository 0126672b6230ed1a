"""A sample of the conversations the AI resolved goes to a person for review.

Without it a wrong AI answer marked resolved is never seen by anyone. A share of them
(``NETSHOP_REVIEW_SAMPLE``, 10% by default) joins the escalation queue as a review, drawn per
intent so a busy intent cannot crowd out a rare one: the n-th conversation of an intent is
drawn when ``ceil(rate x n)`` goes up, the first of every intent and then one in ten of each.
Over N conversations and k intents the sample is between rate x N and rate x N + k. It depends
on nothing but n, so a shop switching it on with years of history draws no backlog.
"""

from __future__ import annotations

import math
import zlib
from fractions import Fraction
from typing import Final

from django.conf import settings
from django.db import connection

from agents.models import (
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    MessageAuthor,
)
from agents.support.escalations.services import escalation_record_wait
from agents.support.vocabulary import SAMPLED_FOR_REVIEW

# The advisory lock's namespace: decisions for one intent are taken one at a time.
_LOCK_NAMESPACE: Final = 0x5E71


def review_sample_consider(*, inquiry: Inquiry) -> Escalation | None:
    """Put ``inquiry`` in the review queue if it is drawn for its intent's sample.

    Called as a run records a turn the AI resolved, in that transaction, with the inquiry's
    row written (status, intent) and locked; the count of its intent's AI-resolved
    conversations, this one included, is taken under a lock per intent, so two workers never
    draw the same n. Once per turn: the wait is keyed by the turn.
    """
    rate = settings.NETSHOP_REVIEW_SAMPLE
    if rate <= 0 or not ai_resolved(inquiry):
        return None
    intent = inquiry.intent or ""
    _lock_intent(intent)
    waiting = inquiry.escalations.filter(kind=EscalationKind.REVIEW, status=EscalationStatus.OPEN)
    if waiting.exists():
        return None  # already waiting for a person's look
    resolved = Inquiry.objects.filter(
        status=InquiryStatus.RESOLVED, intent=intent, human_owner__isnull=True
    ).count()
    if not drawn(resolved, Fraction(str(rate))):
        return None
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:{inquiry.turns or 1}:review-sample",
        kind=EscalationKind.REVIEW,
        reason=SAMPLED_FOR_REVIEW,
        summary=f"sampled for review: an AI answer ({intent or 'no intent'})",
        package={
            "inquiry": {"text": inquiry.text, "customer_id": inquiry.customer.code},
            "review": {"sampled": True, "intent": intent, "reply": inquiry.reply},
        },
    )


def drawn(nth: int, rate: Fraction) -> bool:
    """Whether the ``nth`` conversation of an intent is drawn: ``ceil(rate x n)`` goes up."""
    return nth > 0 and math.ceil(rate * nth) > math.ceil(rate * (nth - 1))


def ai_resolved(inquiry: Inquiry) -> bool:
    """Whether the AI alone resolved the conversation: no person owns it or wrote in it."""
    return (
        inquiry.status == InquiryStatus.RESOLVED
        and inquiry.human_owner_id is None
        and not inquiry.messages.filter(author_kind=MessageAuthor.OPERATOR).exists()
    )


def _lock_intent(intent: str) -> None:
    """Serialise the decisions for one intent until the transaction ends (two workers
    resolving at once must not both take the last place, or both leave it)."""
    key = zlib.crc32(intent.encode()) - 2**31  # a signed 32-bit key
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_NAMESPACE, key])
