"""The sets of conversations the dashboard counts, defined once for its figures and its links.

A figure on the dashboard counts one of these sets in SQL; its link opens the audit search
filtered to the same set (``figure=...``), so the rows behind a number are the rows counted.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Final, TypeVar

from django.db import models
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext_lazy as _

from agents.models import (
    AnswerFeedback,
    AnswerReview,
    AnswerVerdict,
    Escalation,
    EscalationKind,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from agents.support.audit_trail import SUPERVISOR
from agents.support.vocabulary import FLAGGED_FOR_REVIEW
from netshop.audit import AuditAction
from netshop.audit.models import AuditEntry
from netshop.models import Refund

# The AI answered it on its own: its reply resolved the conversation before any person was
# asked (an escalation other than a review) or wrote to the customer.
AI_ANSWERED: Final = Q(ai_resolved_at__isnull=False, person_first=False, operator_first=False)
# ... and resolved it: no reviewer found its answer wrong (issue 25, part 5), and the customer
# did not say an answer of it left their problem unsolved (part 3).
BY_AI: Final = AI_ANSWERED & Q(was_reviewed_wrong=False, was_not_solved=False)
REOPENED: Final = BY_AI & Q(was_reopened=True)
FLAGGED: Final = BY_AI & Q(was_flagged=True)
REVIEWED_WRONG: Final = AI_ANSWERED & Q(was_reviewed_wrong=True)
NOT_SOLVED: Final = AI_ANSWERED & Q(was_not_solved=True)

_Rows = TypeVar("_Rows", bound=QuerySet[Any])


class Figure(models.TextChoices):
    """A dashboard figure whose conversations the audit search can be narrowed to."""

    ANSWERED = "answered", _("answered")
    AI_RESOLVED = "ai_resolved", _("resolved by the AI")
    AI_REOPENED = "ai_reopened", _("resolved by the AI, then reopened")
    AI_FLAGGED = "ai_flagged", _("resolved by the AI, then flagged")
    AI_REVIEWED_WRONG = "ai_reviewed_wrong", _("answered by the AI, reviewed wrong")
    AI_NOT_SOLVED = "ai_not_solved", _("answered by the AI, marked not solved by the customer")
    RESOLVED = "resolved", _("resolved")
    LATE = "late", _("decided after the deadline")


def with_ai_outcome(inquiries: QuerySet[Inquiry]) -> QuerySet[Inquiry]:
    """``inquiries`` with what ``BY_AI``, ``REOPENED``, ``FLAGGED``, ``REVIEWED_WRONG`` and
    ``NOT_SOLVED`` test (aliases only)."""
    first_resolution = (
        AuditEntry.objects.filter(
            inquiry_id=OuterRef("pk"),
            action=AuditAction.REPLY_SENT,
            actor=SUPERVISOR,
            data__status=InquiryStatus.RESOLVED,
        )
        .order_by("seq")
        .values("created_at")[:1]
    )
    inquiries = inquiries.alias(ai_resolved_at=Subquery(first_resolution))
    before = OuterRef("ai_resolved_at")
    person_first = Escalation.objects.filter(inquiry=OuterRef("pk"), created_at__lt=before).exclude(
        kind=EscalationKind.REVIEW
    )
    operator_first = Message.objects.filter(
        inquiry=OuterRef("pk"), author_kind=MessageAuthor.OPERATOR, created_at__lt=before
    )
    reopened = AuditEntry.objects.filter(
        inquiry_id=OuterRef("pk"),
        action=AuditAction.CONVERSATION_REOPENED,
        created_at__gt=before,
    )
    flagged = Escalation.objects.filter(
        inquiry=OuterRef("pk"), kind=EscalationKind.REVIEW, reason=FLAGGED_FOR_REVIEW
    )
    wrong = AnswerReview.objects.filter(inquiry=OuterRef("pk"), verdict=AnswerVerdict.WRONG)
    not_solved = AnswerFeedback.objects.filter(inquiry=OuterRef("pk"), solved=False)
    return inquiries.alias(
        person_first=Exists(person_first),
        operator_first=Exists(operator_first),
        was_reopened=Exists(reopened),
        was_flagged=Exists(flagged),
        was_reviewed_wrong=Exists(wrong),
        was_not_solved=Exists(not_solved),
    )


def answers() -> QuerySet[Message]:
    """The answers to a conversation (``OuterRef("pk")``): the AI's or a person's messages."""
    return Message.objects.filter(
        inquiry=OuterRef("pk"), author_kind__in=(MessageAuthor.AI, MessageAuthor.OPERATOR)
    )


def received(start: dt.datetime | None, end: dt.datetime | None) -> QuerySet[Inquiry]:
    """Conversations received in ``[start, end)`` (either end open when ``None``)."""
    return _between(Inquiry.objects.all(), "created_at", start, end)


def figure_inquiries(
    figure: str, start: dt.datetime | None = None, end: dt.datetime | None = None
) -> QuerySet[Any, Any]:
    """The ids of the conversations behind a dashboard figure, over the same period."""
    if figure == Figure.ANSWERED:
        return received(start, end).filter(Exists(answers())).values("pk")
    if figure == Figure.RESOLVED:
        resolved = Inquiry.objects.filter(status=InquiryStatus.RESOLVED)
        return _between(resolved, "resolved_at", start, end).values("pk")
    if figure == Figure.LATE:
        late = Escalation.objects.filter(decided_at__gt=F("deadline"))
        return _between(late, "decided_at", start, end).values("inquiry_id")
    tests = {
        Figure.AI_RESOLVED: BY_AI,
        Figure.AI_REOPENED: REOPENED,
        Figure.AI_FLAGGED: FLAGGED,
        Figure.AI_REVIEWED_WRONG: REVIEWED_WRONG,
        Figure.AI_NOT_SOLVED: NOT_SOLVED,
    }
    test = tests.get(Figure(figure)) if figure in Figure.values else None
    if test is None:
        return Inquiry.objects.none().values("pk")
    return with_ai_outcome(received(start, end)).filter(test).values("pk")


def refund_operations(
    reason: str, start: dt.datetime | None = None, end: dt.datetime | None = None
) -> QuerySet[Any, Any]:
    """The operation ids of the refunds made for ``reason`` (the refund's own words)."""
    return _between(Refund.objects.filter(reason=reason), "created_at", start, end).values(
        "operation_id"
    )


def _between(rows: _Rows, field: str, start: dt.datetime | None, end: dt.datetime | None) -> _Rows:
    if start is not None:
        rows = rows.filter(**{f"{field}__gte": start})
    if end is not None:
        rows = rows.filter(**{f"{field}__lt": end})
    return rows
