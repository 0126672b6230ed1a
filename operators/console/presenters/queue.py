"""The queue page's rows: who asked, what about, how long ago, and how close the deadline is.

Which escalations belong in a filtered queue is the selectors' to say (``escalation_list``
and, for one live row, ``escalation_in_queue``); this module only shapes the rows they return.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects

from agents.models import Escalation, Inquiry
from agents.support.escalations.selectors import QueueOrder
from operators.console.presenters.deadlines import Due, due
from operators.headlines import headline

SNIPPET_CHARS = 80


@dataclass(frozen=True)
class QueueRow:
    escalation: Escalation
    customer_code: str
    headline: str  # what a person is asked to do, e.g. "Refund ¥12,800 on ORD-1003"
    snippet: str
    age_minutes: int
    due: Due
    sort_key: str
    mine: bool


def queue_rows(
    items: list[Escalation], *, user: Any, now: datetime, order: QueueOrder = "deadline"
) -> list[QueueRow]:
    # One more query whatever the page size (the selector leaves inquiries unloaded), and
    # only the columns a row shows: inquiries carry large JSON the queue never needs.
    inquiries = Inquiry.objects.select_related("customer").only("id", "text", "customer__code")
    prefetch_related_objects(items, Prefetch("inquiry", queryset=inquiries))
    headlines = _headlines([e.pk for e in items])
    return [
        _row(e, headline=headlines.get(e.pk, ""), user=user, now=now, order=order) for e in items
    ]


def _headlines(ids: list[Any]) -> dict[Any, str]:
    """Each row's headline, in one more query: the selector leaves actions and package
    behind, and of the package a headline needs only three small keys."""
    if not ids:
        return {}
    rows = Escalation.objects.filter(pk__in=ids).values(
        "pk",
        "kind",
        "reason",
        "actions",
        "package__escalation",
        "package__held_actions",
        "package__review",
    )
    return {
        row["pk"]: headline(
            kind=row["kind"],
            reason=row["reason"],
            actions=row["actions"] or [],
            package={
                "escalation": row["package__escalation"],
                "held_actions": row["package__held_actions"],
                "review": row["package__review"],
            },
        )
        for row in rows
    }


def _row(
    escalation: Escalation, *, headline: str, user: Any, now: datetime, order: QueueOrder
) -> QueueRow:
    inquiry = escalation.inquiry
    text = " ".join(inquiry.text.split())
    snippet = text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…"
    return QueueRow(
        escalation=escalation,
        customer_code=inquiry.customer.code,
        headline=headline,
        snippet=snippet,
        age_minutes=max(0, int((now - escalation.created_at).total_seconds() // 60)),
        due=due(escalation.deadline, now),
        sort_key=sort_key(escalation, order=order),
        mine=escalation.claimed_by_id == user.pk,
    )


# Above any amount at risk (a positive 32-bit field): the largest amount sorts first.
_AMOUNT_CEILING = 10**10


def sort_key(escalation: Escalation, *, order: QueueOrder = "deadline") -> str:
    """The queue's order (deadline, age, id; or the amount at risk, largest first, then
    those) as a string the browser can compare, so a live row lands where the server puts it."""
    deadline = int(escalation.deadline.timestamp() * 1_000_000)
    created = int(escalation.created_at.timestamp() * 1_000_000)
    key = f"{deadline:020d}-{created:020d}-{escalation.pk}"
    if order == "amount":
        return f"{_AMOUNT_CEILING - escalation.amount_at_risk:011d}-{key}"
    return key
