"""Reads for the manager pages: audit search, an inquiry's timeline, the dashboard's figures.

Every query is bounded: lists are keyset-paged on ``seq`` (no OFFSET, no COUNT over the
whole log) and the dashboard aggregates in SQL, one query per figure.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import uuid
from typing import Any

from django.db.models import (
    Count,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
)
from django.db.models.functions import TruncDate
from django.utils import timezone

from agents.models import Escalation, EscalationStatus, Inquiry, InquiryStatus, Message
from netshop.audit import AuditAction
from netshop.audit.models import AuditEntry
from netshop.models import Order
from operators.audit import cohorts
from operators.audit.forms import AI_STEPS, AuditFilters

PAGE_SIZE = 100
TIMELINE_LIMIT = 1000
MAX_ACTIONS = 5  # the actions of one escalation an order search looks through
# Inquiries still in the agents' or a person's hands do not count toward "resolved by AI".
IN_PROGRESS = (InquiryStatus.QUEUED, InquiryStatus.RUNNING, InquiryStatus.AWAITING_APPROVAL)
# (key, upper bound): the keys are shown through ``labels.DECISION_BUCKET_LABELS``.
DECISION_BUCKETS: tuple[tuple[str, dt.timedelta | None], ...] = (
    ("under_5_min", dt.timedelta(minutes=5)),
    ("5_to_15_min", dt.timedelta(minutes=15)),
    ("15_to_60_min", dt.timedelta(hours=1)),
    ("1_to_4_h", dt.timedelta(hours=4)),
    ("over_4_h", None),
)


# --- Search -----------------------------------------------------------------------------


def audit_search(filters: AuditFilters) -> QuerySet[AuditEntry]:
    """The entries matching ``filters``, unordered (callers page or stream them by ``seq``)."""
    entries = AuditEntry.objects.all()
    if filters.hide_ai_steps:
        entries = entries.exclude(action__in=AI_STEPS)
    if filters.inquiry:
        entries = entries.filter(inquiry_id=filters.inquiry)
    if filters.actor:
        entries = entries.filter(_prefix_or_exact("actor", filters.actor, ":"))
    if filters.action:
        entries = entries.filter(_prefix_or_exact("action", filters.action, "."))
    if filters.verdict:
        entries = entries.filter(verdict=filters.verdict)
    if filters.reason:
        entries = entries.filter(reason=filters.reason)
    if filters.date_from:
        entries = entries.filter(created_at__gte=day_start(filters.date_from))
    if filters.date_to:
        entries = entries.filter(created_at__lt=day_start(filters.date_to + dt.timedelta(days=1)))
    if filters.q:
        entries = entries.filter(_ids_matching(filters.q))
    return _in_figure(entries, filters)


def _in_figure(entries: QuerySet[AuditEntry], filters: AuditFilters) -> QuerySet[AuditEntry]:
    """Narrowed to a dashboard figure's rows, over the figure's period (the dates given)."""
    start = day_start(filters.date_from) if filters.date_from else None
    end = day_start(filters.date_to + dt.timedelta(days=1)) if filters.date_to else None
    if filters.figure:
        entries = entries.filter(
            inquiry_id__in=cohorts.figure_inquiries(filters.figure, start, end)
        )
    if filters.refund_reason:
        refunds = cohorts.refund_operations(filters.refund_reason, start, end)
        entries = entries.filter(operation_id__in=refunds)
    return entries


@dataclasses.dataclass(frozen=True)
class AuditPage:
    entries: list[AuditEntry]
    older_than: int | None  # the ``before`` of the next (older) page, if there is one


def audit_page(entries: QuerySet[AuditEntry], *, before: int | None = None) -> AuditPage:
    """Newest first, ``PAGE_SIZE`` at a time, paged by ``seq`` (one query)."""
    if before is not None:
        entries = entries.filter(seq__lt=before)
    rows = list(entries.order_by("-seq")[: PAGE_SIZE + 1])
    more = len(rows) > PAGE_SIZE
    return AuditPage(rows[:PAGE_SIZE], rows[PAGE_SIZE - 1].seq if more else None)


def day_start(day: dt.date) -> dt.datetime:
    """Midnight at the shop (the site's time zone): managers think in local days."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def _prefix_or_exact(field: str, value: str, separator: str) -> Q:
    # "decision." or "agent:" name a whole family; anything else is one exact value.
    if value.endswith((separator, "*")):
        return Q(**{f"{field}__startswith": value.rstrip("*")})
    return Q(**{field: value})


def _ids_matching(text: str) -> Q:
    """Free text over ids: an inquiry id, part of an operation id or actor, an order number
    (every entry of the conversations about that order)."""
    match = (
        Q(operation_id__icontains=text)
        | Q(actor__icontains=text)
        | Q(data__order=text)
        | Q(data__escalation_id=text)
        | Q(inquiry_id__in=conversations_about_order(text))
    )
    try:
        return match | Q(inquiry_id=uuid.UUID(text))
    except ValueError:
        return match


def conversations_about_order(number: str) -> QuerySet[Any, Any]:
    """The ids of the conversations about order ``number``: one of the customer's own orders
    that a side effect, an escalation's action or a message of the conversation names."""
    in_actions = Q()
    for index in range(MAX_ACTIONS):  # list positions: portable, where JSON containment is not
        in_actions |= Q(**{f"escalations__actions__{index}__params__order_number": number})
    named = (
        Q(pk__in=AuditEntry.objects.filter(data__order=number).values("inquiry_id"))
        | in_actions
        | Q(Exists(Message.objects.filter(inquiry=OuterRef("pk"), text__contains=number)))
    )
    holds = Exists(Order.objects.filter(customer=OuterRef("customer"), number=number))
    return Inquiry.objects.filter(holds).filter(named).values("pk")


# --- One inquiry ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Timeline:
    inquiry: Inquiry | None
    escalations: list[Escalation]
    entries: list[AuditEntry]
    truncated: bool


def inquiry_timeline(inquiry_id: uuid.UUID) -> Timeline:
    """The inquiry (without its text), its escalations and its audit entries, oldest first."""
    inquiry = (
        Inquiry.objects.select_related("customer")
        .defer("text", "reply", "escalation")
        .filter(pk=inquiry_id)
        .first()
    )
    escalations = list(
        Escalation.objects.filter(inquiry_id=inquiry_id)
        .only("id", "kind", "reason", "status", "owner", "deadline", "created_at", "decided_at")
        .order_by("created_at")
    )
    rows = list(AuditEntry.objects.filter(inquiry_id=inquiry_id)[: TIMELINE_LIMIT + 1])
    return Timeline(inquiry, escalations, rows[:TIMELINE_LIMIT], len(rows) > TIMELINE_LIMIT)


# --- Dashboard --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Window:
    """The days a dashboard covers, ``first`` to ``last`` inclusive, in the shop's time."""

    first: dt.date
    last: dt.date

    @classmethod
    def ending_today(cls, days: int) -> Window:
        today = timezone.localdate()
        return cls(today - dt.timedelta(days=days - 1), today)

    @property
    def start(self) -> dt.datetime:
        return day_start(self.first)

    @property
    def end(self) -> dt.datetime:
        return day_start(self.last + dt.timedelta(days=1))

    def days(self) -> list[dt.date]:
        count = (self.last - self.first).days + 1
        return [self.first + dt.timedelta(days=n) for n in range(count)]


@dataclasses.dataclass(frozen=True)
class DayFigures:
    day: dt.date
    total: int = 0
    by_ai: int = 0  # resolved with no escalation at all
    with_person: int = 0  # escalated at least once, or handled by a person
    finished: int = 0  # no longer queued, running or awaiting approval


def inquiries_per_day(window: Window) -> list[DayFigures]:
    """Inquiries received per day and how they ended, every day present (one query)."""
    rows = (
        Inquiry.objects.filter(created_at__gte=window.start, created_at__lt=window.end)
        .alias(escalated=Exists(Escalation.objects.filter(inquiry=OuterRef("pk"))))
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(
            total=Count("pk"),
            by_ai=Count("pk", filter=Q(status=InquiryStatus.RESOLVED, escalated=False)),
            with_person=Count(
                "pk", filter=Q(escalated=True) | Q(status=InquiryStatus.HANDLED_BY_HUMAN)
            ),
            finished=Count("pk", filter=~Q(status__in=IN_PROGRESS)),
        )
        .order_by("day")
    )
    found = {row["day"]: DayFigures(**row) for row in rows}
    return [found.get(day, DayFigures(day)) for day in window.days()]


def escalations_by_reason(window: Window, *, limit: int = 12) -> list[tuple[str, int]]:
    rows = (
        Escalation.objects.filter(created_at__gte=window.start, created_at__lt=window.end)
        .values_list("reason")
        .annotate(n=Count("pk"))
        .order_by("-n", "reason")[:limit]
    )
    return [(reason, n) for reason, n in rows]


@dataclasses.dataclass(frozen=True)
class DecisionTimes:
    count: int
    median: dt.timedelta | None
    p90: dt.timedelta | None
    buckets: list[tuple[str, int]]


def decision_times(window: Window) -> DecisionTimes:
    """Escalation created to decided, for decisions in the window: median, p90, histogram.

    Percentiles are nearest-rank, read with ORDER BY ... OFFSET so that PostgreSQL and SQLite
    (which has no ``percentile_cont``) answer the same; at most three queries.
    """
    decided = Escalation.objects.filter(
        decided_at__gte=window.start, decided_at__lt=window.end
    ).annotate(
        wait=ExpressionWrapper(F("decided_at") - F("created_at"), output_field=DurationField())
    )
    counts = decided.aggregate(n=Count("pk"), **_bucket_counts())
    total = counts.pop("n")
    return DecisionTimes(
        count=total,
        median=_nearest_rank(decided, total, 0.5),
        p90=_nearest_rank(decided, total, 0.9),
        buckets=[(label, counts[f"b{i}"]) for i, (label, _) in enumerate(DECISION_BUCKETS)],
    )


def _bucket_counts() -> dict[str, Count]:
    counts, lower = {}, dt.timedelta(0)
    for i, (_, upper) in enumerate(DECISION_BUCKETS):
        within = Q(wait__gte=lower) if upper is None else Q(wait__gte=lower, wait__lt=upper)
        counts[f"b{i}"] = Count("pk", filter=within)
        lower = upper or lower
    return counts


def _nearest_rank(decided: QuerySet[Escalation], total: int, share: float) -> dt.timedelta | None:
    if not total:
        return None
    rank = max(math.ceil(share * total) - 1, 0)
    # The annotation is named through F(): django-stubs cannot see ``wait`` as a field.
    value = decided.order_by(F("wait").asc()).values_list(F("wait"), flat=True)[rank]
    return value if isinstance(value, dt.timedelta) else None


def verdict_counts(window: Window) -> dict[str, int]:
    rows = (
        AuditEntry.objects.filter(
            action=AuditAction.HANDOFF_VERDICT,
            created_at__gte=window.start,
            created_at__lt=window.end,
        )
        .values_list("verdict")
        .annotate(n=Count("seq"))
    )
    return dict(rows)


@dataclasses.dataclass(frozen=True)
class OverdueWaits:
    by_reason: list[tuple[str, int]]
    oldest: list[Escalation]


def overdue_waits(*, limit: int = 10) -> OverdueWaits:
    """Open escalations past their deadline now: counts by reason and the longest overdue."""
    overdue = Escalation.objects.filter(status=EscalationStatus.OPEN, deadline__lt=timezone.now())
    by_reason = overdue.values_list("reason").annotate(n=Count("pk")).order_by("-n", "reason")
    oldest = overdue.only(
        "id", "inquiry_id", "kind", "reason", "owner", "deadline", "amount_at_risk"
    ).order_by("deadline")[:limit]
    return OverdueWaits([(reason, n) for reason, n in by_reason], list(oldest))
