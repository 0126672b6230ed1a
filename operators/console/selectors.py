"""Reads only the console pages need.

The queue itself comes from ``agents.support.escalations.selectors``, the inbox's conversations from
``agents.support.conversations.search`` and a thread from
``agents.support.conversations.selectors``.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.core.paginator import Page, Paginator
from django.db.models import OuterRef, Q, Subquery

from agents.models import (
    ConsoleEvent,
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    Message,
)
from agents.support.conversations.search import conversation_search
from agents.support.conversations.selectors import thread_messages
from agents.support.escalations.claims import colleagues_assignable
from agents.support.vocabulary import FLAGGED_FOR_REVIEW
from netshop.models import Order
from netshop.selectors import order_facts
from operators.models import CannedReply, ConversationRead

INBOX_PAGE_SIZE = 25

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


def open_escalation_count() -> int:
    """Every open escalation, whatever a page filters: the number in the queue's tab title."""
    return Escalation.objects.filter(status=EscalationStatus.OPEN).count()


def console_event_seq() -> int:
    """The number of the latest live event: a page rendered now has seen everything up to it."""
    return ConsoleEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def inbox_page(
    *, text: str, status_filter: str, page: Any, reader: Any, size: int = INBOX_PAGE_SIZE
) -> Page:
    """One page of the inbox (two queries: the count and the rows), each row with its
    latest message's text and time (``last_text``, ``last_at``) and when ``reader`` last read
    it (``read_at``) read in the same query."""
    latest = Message.objects.filter(inquiry=OuterRef("pk")).order_by("-created_at", "-id")
    read = ConversationRead.objects.filter(user=reader.pk, inquiry=OuterRef("pk"))
    found = conversation_search(text=text, status_filter=status_filter).annotate(
        last_text=Subquery(latest.values("text")[:1]),
        last_kind=Subquery(latest.values("author_kind")[:1]),
        last_at=Subquery(latest.values("created_at")[:1]),
        read_at=Subquery(read.values("read_at")[:1]),
    )
    return Paginator(found, size).get_page(page)


def conversation_messages(*, inquiry: Inquiry) -> list[Message]:
    """The whole thread as staff see it, internal notes included."""
    return list(thread_messages(inquiry=inquiry, for_staff=True))


def conversation_open_review(*, inquiry_id: UUID | str) -> Escalation | None:
    """The flag waiting in the queue for this conversation, if a lead raised one."""
    return (
        Escalation.objects.filter(
            inquiry_id=inquiry_id,
            kind=EscalationKind.REVIEW,
            reason=FLAGGED_FOR_REVIEW,
            status=EscalationStatus.OPEN,
        )
        .only("id", "inquiry_id")
        .first()
    )


def canned_replies_for(*, language: str) -> list[CannedReply]:
    """The active canned replies in the customer's language, by title."""
    return list(CannedReply.objects.filter(active=True, language=language).order_by("title"))


def current_order_facts(*, inquiry: Inquiry, numbers: list[str]) -> dict[str, dict[str, Any]]:
    """The facts about the customer's orders ``numbers`` as they stand now, by number.

    The hand-off package holds the facts as the run saw them; after a decision (a refund
    made, an order cancelled) the page shows these instead. Orders of another customer are
    never read; an unknown number is left out.
    """
    orders = Order.objects.filter(customer_id=inquiry.customer_id, number__in=numbers)
    return {order.number: order_facts(order=order) for order in orders}


def colleague_names(*, exclude: str = "") -> list[str]:
    """The usernames "Assign to…" offers (one query), without the current holder."""
    names = colleagues_assignable().values_list("username", flat=True)
    return [name for name in names if name != exclude]
