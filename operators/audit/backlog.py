"""The dashboard's "now": what waits for the team at this moment, and who holds what.

The period's figures say how the team did; a lead starting a shift first asks how much
waits, how long the oldest has waited, and whether the work is spread across the people.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from agents.models import Escalation, EscalationStatus, Inquiry, InquiryStatus


@dataclass(frozen=True)
class Load:
    """One person's share of the open work."""

    username: str
    escalations: int  # open escalations they hold
    conversations: int  # conversations they own and have not closed


@dataclass(frozen=True)
class Backlog:
    waiting: int  # open escalations
    overdue: int  # of those, past their deadline
    unclaimed: int  # of those, held by nobody
    oldest: Escalation | None  # the one waiting longest
    oldest_for: dt.timedelta | None
    load: list[Load]


def backlog_now() -> Backlog:
    """The open work now, in five queries whatever its size."""
    now = timezone.now()
    waiting = Escalation.objects.filter(status=EscalationStatus.OPEN)
    counts = waiting.aggregate(
        waiting=Count("pk"),
        overdue=Count("pk", filter=Q(deadline__lt=now)),
        unclaimed=Count("pk", filter=Q(claimed_by__isnull=True)),
    )
    oldest = waiting.defer("actions", "package").order_by("created_at", "id").first()
    return Backlog(
        waiting=counts["waiting"],
        overdue=counts["overdue"],
        unclaimed=counts["unclaimed"],
        oldest=oldest,
        oldest_for=now - oldest.created_at if oldest else None,
        load=_load(),
    )


def _load() -> list[Load]:
    """Each person holding open escalations or owning open conversations, busiest first."""
    held = dict(
        Escalation.objects.filter(status=EscalationStatus.OPEN, claimed_by__isnull=False)
        .values_list("claimed_by__username")
        .annotate(n=Count("pk"))
    )
    owned = dict(
        Inquiry.objects.filter(human_owner__isnull=False)
        .exclude(status=InquiryStatus.RESOLVED)
        .values_list("human_owner__username")
        .annotate(n=Count("pk"))
    )
    names = sorted(held.keys() | owned.keys())
    rows = [Load(name, held.get(name, 0), owned.get(name, 0)) for name in names]
    return sorted(rows, key=lambda row: -(row.escalations + row.conversations))
