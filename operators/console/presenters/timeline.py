"""The detail page's timeline: the inquiry's live events, each as a title and one line.

The same events reach the page over the socket; this turns the stored ones into words, so a
page loaded late reads like one that watched from the start.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext

from agents.models import ConsoleEvent
from operators import labels
from operators.headlines import headline


@dataclass(frozen=True)
class TimelineEntry:
    seq: int
    at: datetime
    title: str
    detail: str
    escalation_id: str | None


def timeline_entry(event: ConsoleEvent, headlines: dict[str, str] | None = None) -> TimelineEntry:
    """``headlines``: what each escalation the page holds is about, by id (a created event
    names it); an escalation the page does not hold is named from the event's fields."""
    payload = event.payload or {}
    is_escalation = event.type.startswith("escalation.")
    if event.type == "escalation.created":
        known = (headlines or {}).get(str(payload.get("id")))
        detail = known or headline(
            kind=str(payload.get("kind")), reason=str(payload.get("reason")), actions=[], package={}
        )
    else:
        detail = _event_detail(event.type, payload)
    return TimelineEntry(
        seq=event.pk,
        at=event.created_at,
        title=labels.label(labels.EVENT_LABELS, event.type),
        detail=detail,
        escalation_id=payload.get("id") if is_escalation else None,
    )


def _event_detail(event_type: str, payload: dict[str, Any]) -> str:
    if event_type in ("escalation.claimed", "escalation.assigned"):
        return _holder_change(payload.get("claimed_by"), payload)
    if event_type in ("escalation.released", "escalation.claim_timed_out", "escalation.overdue"):
        return _holder_change(None, payload)
    if event_type == "conversation.assigned":
        return _holder_change(payload.get("assignee"), payload)
    if event_type == "escalation.decided":
        decision = labels.label(labels.DECISION_LABELS, payload.get("decision"))
        return f"{decision} · {payload.get('decided_by') or ''}"
    if event_type == "inquiry.updated":
        return labels.label(labels.INQUIRY_STATUS_LABELS, payload.get("status"))
    if event_type == "escalation.resolved":
        return labels.label(labels.INQUIRY_STATUS_LABELS, payload.get("inquiry_status"))
    if event_type == "conversation.message":  # who wrote, never what: the thread shows that
        author = labels.label(labels.AUTHOR_LABELS, payload.get("author_kind"))
        return " · ".join(part for part in (author, payload.get("author") or "") if part)
    if event_type == "run.step":
        parts = (
            labels.label(labels.NODE_LABELS, payload.get("node")),
            labels.label(labels.AGENT_LABELS, payload.get("agent")),
            labels.label(labels.SKILL_LABELS, payload.get("intent")),
            _step_status(payload.get("status")),
        )
        return " · ".join(part for part in parts if part)
    return ""


def _holder_change(holder: str | None, payload: dict[str, Any]) -> str:
    """Who holds it now, and who held it or gave it when that is news ("op2 · from op1")."""
    parts = [holder or ""]
    if payload.get("previous"):
        parts.append(gettext("from %(who)s") % {"who": payload["previous"]})
    if payload.get("assigned_by"):
        parts.append(gettext("by %(who)s") % {"who": payload["assigned_by"]})
    return " · ".join(part for part in parts if part)


def _step_status(status: str | None) -> str:
    """A step's status: a specialist's answer, else the inquiry's new status."""
    if status in labels.ENVELOPE_STATUS_LABELS:
        return labels.label(labels.ENVELOPE_STATUS_LABELS, status)
    return labels.label(labels.INQUIRY_STATUS_LABELS, status)
