"""Shaping escalations for the console's templates: rows of the queue and the detail page.

Only presentation lives here (labels, due states, what the approve button says); reads go
through the selectors and every change through the services.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

from agents.escalations.selectors import escalation_get, inquiry_get
from agents.models import ConsoleEvent, Escalation, EscalationKind, EscalationStatus, Inquiry
from operators.audit.presenters import VERDICT_CSS
from operators.console import labels
from operators.console.selectors import (
    customer_earlier_inquiries,
    inquiry_escalations,
    inquiry_timeline,
)

WARN_MINUTES = 30
SNIPPET_CHARS = 80

DueState = Literal["overdue", "soon", "ok"]


@dataclass(frozen=True)
class Due:
    state: DueState
    minutes: int  # minutes left; negative when overdue


def due(deadline: datetime, now: datetime) -> Due:
    minutes = int((deadline - now).total_seconds() // 60)
    if deadline < now:
        return Due("overdue", minutes)
    return Due("soon" if minutes < WARN_MINUTES else "ok", minutes)


@dataclass(frozen=True)
class QueueRow:
    escalation: Escalation
    customer_code: str
    snippet: str
    age_minutes: int
    due: Due
    sort_key: str
    mine: bool


def queue_rows(items: list[Escalation], *, user: Any, now: datetime) -> list[QueueRow]:
    # One more query whatever the page size (the selector leaves inquiries unloaded), and
    # only the columns a row shows: inquiries carry large JSON the queue never needs.
    inquiries = Inquiry.objects.select_related("customer").only("id", "text", "customer__code")
    prefetch_related_objects(items, Prefetch("inquiry", queryset=inquiries))
    return [_row(e, user=user, now=now) for e in items]


def _row(escalation: Escalation, *, user: Any, now: datetime) -> QueueRow:
    inquiry = escalation.inquiry
    text = " ".join(inquiry.text.split())
    snippet = text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…"
    return QueueRow(
        escalation=escalation,
        customer_code=inquiry.customer.code,
        snippet=snippet,
        age_minutes=max(0, int((now - escalation.created_at).total_seconds() // 60)),
        due=due(escalation.deadline, now),
        sort_key=sort_key(escalation),
        mine=escalation.claimed_by_id == user.pk,
    )


def sort_key(escalation: Escalation) -> str:
    """The queue's order (deadline, age, id) as a string the browser can compare."""
    deadline = int(escalation.deadline.timestamp() * 1_000_000)
    created = int(escalation.created_at.timestamp() * 1_000_000)
    return f"{deadline:020d}-{created:020d}-{escalation.pk}"


def row_matches(escalation: Escalation, *, user: Any, filters: dict[str, Any]) -> bool:
    """Whether one escalation belongs in a queue shown with ``filters`` (a live row update)."""
    if escalation.status != EscalationStatus.OPEN:
        return False
    checks = [
        not filters.get("kind") or escalation.kind == filters["kind"],
        not filters.get("reason") or escalation.reason == filters["reason"],
        filters.get("overdue") is None or escalation.is_overdue == filters["overdue"],
        not filters.get("mine") or escalation.claimed_by_id == user.pk,
        not filters.get("unclaimed") or escalation.claimed_by_id is None,
    ]
    return all(checks)


# --- The detail page -----------------------------------------------------------------------


@dataclass
class ActionView:
    """One recommended action, with the facts and policy checks behind it."""

    kind: str
    title: str
    params: dict[str, Any]
    why: str
    requested_amount: int | None
    capped: bool
    amount_at_risk: int
    checks: list[dict[str, Any]]
    order: dict[str, Any]
    payment: dict[str, Any]
    shipment: dict[str, Any]
    refunds: list[dict[str, Any]]


@dataclass
class DetailView:
    escalation: Escalation
    inquiry: Inquiry
    package: dict[str, Any]
    actions: list[ActionView]
    headline: str
    approve_label: str
    is_approval: bool
    is_retry: bool  # a failed refund or cancellation: retry it, give it up, or take over
    can_edit_amount: bool
    state: str  # decided | claimed_by_other | claimed_by_me | unclaimed
    due: Due
    edit_amount: int | None = None
    edit_reason: str = ""
    changes: list[Change] = field(default_factory=list)
    handoffs: list[HandoffRow] = field(default_factory=list)
    timeline: list[TimelineEntry] = field(default_factory=list)
    related: list[Escalation] = field(default_factory=list)
    earlier: list[Inquiry] = field(default_factory=list)

    @property
    def escalation_id(self) -> str:
        return str(self.escalation.pk)


@dataclass(frozen=True)
class Change:
    """What a decision changed against the recommendation."""

    name: str
    before: str
    after: str


@dataclass(frozen=True)
class HandoffRow:
    """One specialist's hand-off as the run left it, with its verdict (SPEC 6)."""

    agent: str
    verdict: str
    css: str


def handoff_rows(inquiry: Inquiry) -> list[HandoffRow]:
    """The inquiry's hand-offs, the unhealthy first (they are what an operator checks)."""
    rows = [
        HandoffRow(
            agent=str(receipt.get("receiver", "")),
            verdict=str(receipt.get("verdict", "")),
            css=VERDICT_CSS.get(str(receipt.get("verdict")), "bad"),
        )
        for receipt in inquiry.handoffs or []
    ]
    return sorted(rows, key=lambda row: (row.css == "ok", row.agent))


@dataclass(frozen=True)
class TimelineEntry:
    seq: int
    at: datetime
    title: str
    detail: str
    escalation_id: str | None


def detail_view(
    escalation: Escalation,
    *,
    inquiry: Inquiry,
    user: Any,
    events: list[ConsoleEvent],
    related: list[Escalation],
    earlier: list[Inquiry] | None = None,
) -> DetailView:
    actions = [_action(a) for a in escalation.actions]
    first = actions[0] if actions else None
    return DetailView(
        escalation=escalation,
        inquiry=inquiry,
        package=escalation.package or {},
        actions=actions,
        headline=labels.actions_phrase(escalation.actions) or escalation.summary,
        approve_label=_approve_label(escalation),
        is_approval=escalation.kind == EscalationKind.APPROVAL and bool(escalation.actions),
        is_retry=escalation.kind == EscalationKind.FAILURE and bool(escalation.actions),
        can_edit_amount=any(a.kind == "process_refund" for a in actions),
        state=decision_state(escalation, user=user),
        due=due(escalation.deadline, timezone.now()),
        edit_amount=next(
            (a.params.get("amount") for a in actions if a.kind == "process_refund"), None
        ),
        edit_reason=first.params.get("reason", "") if first else "",
        changes=decision_changes(escalation),
        handoffs=handoff_rows(inquiry),
        timeline=[timeline_entry(e) for e in events],
        related=[r for r in related if r.pk != escalation.pk],
        earlier=earlier or [],
    )


def _approve_label(escalation: Escalation) -> str:
    if not escalation.actions:
        return ""
    if escalation.kind == EscalationKind.FAILURE:
        return labels.retry_label(escalation.actions)
    return labels.approve_label(escalation.actions)


def decision_state(escalation: Escalation, *, user: Any) -> str:
    if escalation.status == EscalationStatus.DECIDED:
        return "decided"
    if escalation.claimed_by_id is None:
        return "unclaimed"
    return "claimed_by_me" if escalation.claimed_by_id == user.pk else "claimed_by_other"


def decision_changes(escalation: Escalation) -> list[Change]:
    """The attributed difference between what was recommended and what was decided."""
    record = escalation.decision or {}
    recommended = (escalation.actions[0].get("params") or {}) if escalation.actions else {}
    changes = []
    for name, value in (record.get("params") or {}).items():
        before = recommended.get(name)
        changes.append(Change(name, _shown(name, before), _shown(name, value)))
    if record.get("decision") == "reject" and record.get("reason"):
        changes.append(Change("reason", "", record["reason"]))
    if record.get("decision") == "take_over" and record.get("reply"):
        changes.append(Change("reply", "", record["reply"]))
    return changes


def _shown(name: str, value: Any) -> str:
    if value is None:
        return ""
    return labels.yen(value) if name == "amount" else str(value)


def _action(action: dict[str, Any]) -> ActionView:
    facts = action.get("facts") or {}
    order = {k: v for k, v in facts.items() if k not in ("payment", "shipment", "refunds")}
    return ActionView(
        kind=action.get("kind", ""),
        title=labels.label(labels.ACTION_LABELS, action.get("kind")),
        params=action.get("params") or {},
        why=(action.get("params") or {}).get("reason", ""),
        requested_amount=action.get("requested_amount"),
        capped=bool(action.get("capped")),
        amount_at_risk=int(action.get("amount_at_risk") or 0),
        checks=list(action.get("checks") or []),
        order=order,
        payment=facts.get("payment") or {},
        shipment=facts.get("shipment") or {},
        refunds=list(facts.get("refunds") or []),
    )


def timeline_entry(event: ConsoleEvent) -> TimelineEntry:
    payload = event.payload or {}
    is_escalation = event.type.startswith("escalation.")
    return TimelineEntry(
        seq=event.pk,
        at=event.created_at,
        title=labels.label(labels.EVENT_LABELS, event.type),
        detail=_event_detail(event.type, payload),
        escalation_id=payload.get("id") if is_escalation else None,
    )


def _event_detail(event_type: str, payload: dict[str, Any]) -> str:
    if event_type == "escalation.created":
        return str(payload.get("summary", ""))
    if event_type == "escalation.claimed":
        return payload.get("claimed_by") or ""
    if event_type == "escalation.decided":
        decision = labels.label(labels.DECISION_LABELS, payload.get("decision"))
        return f"{decision} · {payload.get('decided_by') or ''}"
    if event_type == "inquiry.updated":
        return labels.label(labels.INQUIRY_STATUS_LABELS, payload.get("status"))
    if event_type == "escalation.resolved":
        return labels.label(labels.INQUIRY_STATUS_LABELS, payload.get("inquiry_status"))
    if event_type == "run.step":
        parts = (
            payload.get("node"),
            payload.get("agent"),
            payload.get("intent"),
            payload.get("status"),
        )
        return " · ".join(str(part) for part in parts if part)
    return ""


def detail_page(*, escalation_id: object, user: Any) -> DetailView:
    """Everything the detail page shows, read in a fixed number of queries."""
    escalation = escalation_get(escalation_id=escalation_id)
    inquiry = inquiry_get(inquiry_id=escalation.inquiry_id)
    return detail_view(
        escalation,
        inquiry=inquiry,
        user=user,
        events=inquiry_timeline(inquiry_id=escalation.inquiry_id),
        related=inquiry_escalations(inquiry_id=escalation.inquiry_id),
        earlier=customer_earlier_inquiries(inquiry=inquiry),
    )
