"""The console events a change publishes, for tests that assert them exactly (Zulip's habit).

A test takes ``last_seq()`` before the change and compares ``published_after(seq)`` with the
full list of (type, payload) it expects, each payload spelled out key by key.
"""

from __future__ import annotations

from typing import Any

from agents.models import ConsoleEvent, Escalation


def last_seq() -> int:
    """The newest console event's number (0 before any): events after it are the change's."""
    newest = ConsoleEvent.objects.order_by("-pk").first()
    return newest.pk if newest else 0


def published_after(seq: int, *types: str) -> list[tuple[str, dict[str, Any]]]:
    """Every console event recorded after ``seq`` (of ``types``, if given), in order."""
    events = ConsoleEvent.objects.filter(pk__gt=seq).order_by("pk")
    if types:
        events = events.filter(type__in=types)
    return [(event.type, event.payload) for event in events]


def escalation_event(escalation: Escalation, **changed: Any) -> dict[str, Any]:
    """The escalation's payload as the consoles hear it, from its row, every key spelled out;
    ``claimed_by``, ``decided_by`` and ``decision`` are None unless ``changed`` says."""
    escalation.refresh_from_db()
    return {
        "id": str(escalation.pk),
        "inquiry_id": str(escalation.inquiry_id),
        "kind": escalation.kind,
        "reason": escalation.reason,
        "summary": escalation.summary,
        "status": escalation.status,
        "amount_at_risk": escalation.amount_at_risk,
        "deadline": escalation.deadline.isoformat(),
        "created_at": escalation.created_at.isoformat(),
        "claimed_by": None,
        "decided_by": None,
        "decision": None,
        "awaits_second_approval": False,
    } | changed
