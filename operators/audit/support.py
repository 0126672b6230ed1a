"""The dashboard's figures in support terms: response and resolution times, what the AI
resolved and how much of it came back, refunds, decisions against the recommendation, and
deadlines met. Each is an SQL aggregate (a fixed number of queries, no rows fetched).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math

from django.db.models import (
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.expressions import CombinedExpression

from agents.models import (
    AnswerFeedback,
    AnswerReview,
    AnswerVerdict,
    Escalation,
    Inquiry,
    InquiryStatus,
    WrongAnswerReason,
)
from agents.support.vocabulary import OperatorDecision
from netshop.audit.models import AuditEntry
from netshop.models import Refund
from operators.audit import cohorts, quality
from operators.audit.selectors import Window

REFUND_ROWS = 10  # the operators and reasons a refund table lists, largest first


@dataclasses.dataclass(frozen=True)
class Spread:
    """How long something took: over ``count`` cases, the median and the 90th percentile."""

    count: int
    p50: dt.timedelta | None
    p90: dt.timedelta | None


def first_response(window: Window) -> Spread:
    """Conversations received in the window: from the customer's first message to the first
    answer (the AI's or a person's); those never answered are not counted (three queries)."""
    first = cohorts.answers().order_by("created_at").values("created_at")[:1]
    answered = (
        cohorts.received(window.start, window.end)
        .annotate(answered_at=Subquery(first))
        .filter(answered_at__isnull=False)
    )
    return _spread(answered, F("answered_at") - F("created_at"))


def resolution(window: Window) -> Spread:
    """Conversations resolved in the window: from received to resolved (three queries)."""
    resolved = Inquiry.objects.filter(
        status=InquiryStatus.RESOLVED, resolved_at__gte=window.start, resolved_at__lt=window.end
    )
    return _spread(resolved, F("resolved_at") - F("created_at"))


def _spread(rows: QuerySet[Inquiry], took: CombinedExpression) -> Spread:
    """Nearest-rank percentiles read with ORDER BY ... OFFSET (PostgreSQL and SQLite alike)."""
    rows = rows.annotate(took=ExpressionWrapper(took, output_field=DurationField()))
    count = rows.count()
    return Spread(count, _rank(rows, count, 0.5), _rank(rows, count, 0.9))


def _rank(rows: QuerySet[Inquiry], count: int, share: float) -> dt.timedelta | None:
    if not count:
        return None
    rank = max(math.ceil(share * count) - 1, 0)
    value = rows.order_by(F("took").asc()).values_list(F("took"), flat=True)[rank]
    return value if isinstance(value, dt.timedelta) else None


@dataclasses.dataclass(frozen=True)
class AiResolution:
    received: int
    by_ai: int  # resolved by the AI on its own
    reopened: int  # of those, reopened by the customer afterwards
    flagged: int  # of those, flagged by a lead for a second look
    reviewed_wrong: int = 0  # answered by the AI alone, then reviewed wrong: not resolved by it
    not_solved: int = 0  # answered by the AI alone, then marked not solved by the customer

    @property
    def share(self) -> int | None:
        return round(100 * self.by_ai / self.received) if self.received else None


def ai_resolution(window: Window) -> AiResolution:
    """Of the conversations received in the window, those the AI resolved on its own and
    how many of them came back (one query)."""
    counts = cohorts.with_ai_outcome(cohorts.received(window.start, window.end)).aggregate(
        received=Count("pk"),
        by_ai=Count("pk", filter=cohorts.BY_AI),
        reopened=Count("pk", filter=cohorts.REOPENED),
        flagged=Count("pk", filter=cohorts.FLAGGED),
        reviewed_wrong=Count("pk", filter=cohorts.REVIEWED_WRONG),
        not_solved=Count("pk", filter=cohorts.NOT_SOLVED),
    )
    return AiResolution(**counts)


@dataclasses.dataclass(frozen=True)
class ReviewedQuality:
    """The reviews recorded in a window: per intent (by intent), overall, and what the wrong
    answers got wrong (by reason category, most first)."""

    per_intent: list[quality.Accuracy]
    overall: quality.Accuracy
    wrong_by_reason: list[tuple[str, int]]


def reviewed_quality(window: Window) -> ReviewedQuality:
    """Reviewed accuracy of the AI's answers, from the reviews recorded in the window; the
    wrong ones counted by reason category in the same query (one query)."""
    by_reason = {
        f"wrong_{reason}": Count("pk", filter=Q(verdict=AnswerVerdict.WRONG, reason=reason))
        for reason in WrongAnswerReason.values
    }
    rows = (
        AnswerReview.objects.filter(created_at__gte=window.start, created_at__lt=window.end)
        .values("intent")
        .annotate(
            reviews=Count("pk"),
            correct=Count("pk", filter=Q(verdict=AnswerVerdict.CORRECT)),
            **by_reason,
        )
        .order_by("intent")
    )
    per_intent, wrong = [], dict.fromkeys(WrongAnswerReason.values, 0)
    for row in rows:
        per_intent.append(quality.Accuracy(row["intent"], row["reviews"], row["correct"]))
        for reason in wrong:
            wrong[reason] += row[f"wrong_{reason}"]
    counted = sorted(((r, n) for r, n in wrong.items() if n), key=lambda rn: (-rn[1], rn[0]))
    return ReviewedQuality(per_intent, quality.overall(per_intent), counted)


@dataclasses.dataclass(frozen=True)
class CustomersWord:
    """The customers' word on AI answers given in a window: per intent, and overall."""

    per_intent: list[quality.CustomerWord]
    overall: quality.CustomerWord


def customers_word(window: Window) -> CustomersWord:
    """How many AI answers the customers said solved their problem, and did not, from the
    feedback given in the window, by the intent each answer was read as (one query)."""
    rows = (
        AnswerFeedback.objects.filter(created_at__gte=window.start, created_at__lt=window.end)
        .values("intent")
        .annotate(answered=Count("pk"), solved=Count("pk", filter=Q(solved=True)))
        .order_by("intent")
    )
    per_intent = [quality.CustomerWord(r["intent"], r["answered"], r["solved"]) for r in rows]
    return CustomersWord(per_intent, quality.customers_overall(per_intent))


@dataclasses.dataclass(frozen=True)
class RefundLine:
    key: str  # the operator's name, or the refund's reason
    count: int
    yen: int


def refunds_by(window: Window, field: str) -> list[RefundLine]:
    """Refunds made in the window, summed by ``actor`` (who approved) or ``reason``."""
    rows = (
        Refund.objects.filter(created_at__gte=window.start, created_at__lt=window.end)
        .values_list(field)
        .annotate(n=Count("pk"), total=Sum("amount"))
        .order_by("-total", field)[:REFUND_ROWS]
    )
    return [RefundLine(key, n, total or 0) for key, n, total in rows]


def refund_total(window: Window) -> int:
    """Yen refunded in the window, every refund (one query)."""
    refunds = Refund.objects.filter(created_at__gte=window.start, created_at__lt=window.end)
    return refunds.aggregate(total=Sum("amount"))["total"] or 0


@dataclasses.dataclass(frozen=True)
class AgainstRecommendation:
    decided: int  # approvals decided (approve, edit or reject), each a recommendation
    edited: int
    rejected: int

    @property
    def changed(self) -> int:
        return self.edited + self.rejected


def decisions_against(window: Window) -> AgainstRecommendation:
    """Decisions on a recommended action in the window, and those that went against it."""
    actions = [f"decision.{d}" for d in (OperatorDecision.APPROVE, *CHANGED)]
    counts = _in(AuditEntry.objects.filter(action__in=actions), window).aggregate(
        decided=Count("seq"),
        edited=Count("seq", filter=Q(action=f"decision.{OperatorDecision.EDIT}")),
        rejected=Count("seq", filter=Q(action=f"decision.{OperatorDecision.REJECT}")),
    )
    return AgainstRecommendation(**counts)


CHANGED = (OperatorDecision.EDIT, OperatorDecision.REJECT)


@dataclasses.dataclass(frozen=True)
class Deadlines:
    decided: int
    met: int  # decided at or before the deadline

    @property
    def share(self) -> int | None:
        return round(100 * self.met / self.decided) if self.decided else None


def deadlines_met(window: Window) -> Deadlines:
    """Escalations decided in the window, and how many before their deadline (one query)."""
    counts = Escalation.objects.filter(
        decided_at__gte=window.start, decided_at__lt=window.end
    ).aggregate(decided=Count("pk"), met=Count("pk", filter=Q(decided_at__lte=F("deadline"))))
    return Deadlines(**counts)


def _in(rows: QuerySet[AuditEntry], window: Window) -> QuerySet[AuditEntry]:
    return rows.filter(created_at__gte=window.start, created_at__lt=window.end)
