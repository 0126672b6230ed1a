"""Reads only the console pages need.

The queue itself comes from ``agents.escalations.selectors``.
"""

from __future__ import annotations

from uuid import UUID

from django.db.models import Q

from agents.models import ConsoleEvent, Escalation, Inquiry

TIMELINE_LIMIT = 100


def inquiry_timeline(*, inquiry_id: object, limit: int = TIMELINE_LIMIT) -> list[ConsoleEvent]:
    """The live events about one inquiry and its escalations, oldest first (the latest ones)."""
    key = str(inquiry_id)
    about = Q(payload__inquiry_id=key) | Q(type="inquiry.updated", payload__id=key)
    latest = ConsoleEvent.objects.filter(about).order_by("-pk")[:limit]
    return list(reversed(latest))


def inquiry_escalations(*, inquiry_id: UUID | str) -> list[Escalation]:
    """Every escalation of one inquiry, oldest first (a run can stop for a person twice)."""
    return list(
        Escalation.objects.filter(inquiry_id=inquiry_id)
        .select_related("decided_by")
        .defer("actions", "package")
        .order_by("created_at")
    )


def customer_earlier_inquiries(*, inquiry: Inquiry, limit: int = 5) -> list[Inquiry]:
    """The same customer's inquiries before this one, newest first: what they asked before
    and what they were told (the conversation beyond this run)."""
    return list(
        Inquiry.objects.filter(customer_id=inquiry.customer_id, created_at__lt=inquiry.created_at)
        .only("id", "text", "reply", "status", "intent", "created_at")
        .order_by("-created_at")[:limit]
    )


def console_event_seq() -> int:
    """The number of the latest live event: a page rendered now has seen everything up to it."""
    return ConsoleEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
