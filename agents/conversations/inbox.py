"""The inbox: every conversation, not only escalated ones, searched and filtered for staff.

The staff API and the console list conversations through ``conversations_search``, so a
query finds the same conversations on both. Each row carries what a list shows (its customer,
owner, whether it is flagged, its last message time) without a query per row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args
from uuid import UUID

from django.db.models import Exists, Max, OuterRef, Q, QuerySet

from agents.conversations.selectors import thread_messages
from agents.escalations.selectors import inquiry_get
from agents.models import (
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from netshop.errors import DomainError
from netshop.models import Order

InboxFilter = Literal["ai_resolved", "awaiting_customer", "human_owned", "flagged"]
INBOX_FILTERS: tuple[str, ...] = get_args(InboxFilter)


def flagged_expression() -> Exists:
    """An open review escalation: a lead asked for a second look."""
    return Exists(
        Escalation.objects.filter(
            inquiry=OuterRef("pk"), kind=EscalationKind.REVIEW, status=EscalationStatus.OPEN
        )
    )


def _operator_wrote() -> Exists:
    return Exists(
        Message.objects.filter(inquiry=OuterRef("pk"), author_kind=MessageAuthor.OPERATOR)
    )


FILTERS: dict[str, Q] = {
    # Resolved with no person in the thread: what the dashboard counts as "resolved by AI".
    "ai_resolved": Q(status=InquiryStatus.RESOLVED, human_owner__isnull=True, operator_wrote=False),
    "awaiting_customer": Q(status=InquiryStatus.AWAITING_CUSTOMER),
    "human_owned": Q(human_owner__isnull=False),
    "flagged": Q(flagged=True),
}


def conversations_search(
    *,
    query: str = "",
    filter: str | None = None,
    for_staff: bool = True,
) -> QuerySet[Inquiry]:
    """Conversations matching ``query`` and ``filter``, most recently active first.

    ``query`` matches a customer code exactly, an order number exactly (the conversations of
    that order's customer and any that mention it), or any text of the thread (notes too for
    staff). ``filter`` is one of ``INBOX_FILTERS`` (422 ``invalid_request`` otherwise).
    """
    found = (
        Inquiry.objects.select_related("customer", "human_owner")
        .annotate(
            flagged=flagged_expression(),
            operator_wrote=_operator_wrote(),
            last_message_at=Max("messages__created_at"),
        )
        .order_by("-updated_at", "-id")
    )
    if filter:
        if filter not in FILTERS:
            raise DomainError("invalid_request", f"filter: must be one of {', '.join(FILTERS)}")
        found = found.filter(FILTERS[filter])
    query = query.strip()
    if query:
        found = found.filter(_matching(query, for_staff=for_staff))
    return found


def _matching(query: str, *, for_staff: bool) -> Q:
    said = Message.objects.filter(inquiry=OuterRef("pk"), text__icontains=query)
    if not for_staff:
        said = said.exclude(author_kind=MessageAuthor.NOTE)
    ordered = Order.objects.filter(customer=OuterRef("customer"), number__iexact=query)
    return (
        Q(customer__code__iexact=query)
        | Q(text__icontains=query)
        | Q(Exists(said))
        | Q(Exists(ordered))
    )


def inbox_page(
    found: QuerySet[Inquiry], *, limit: int, before: tuple[datetime, UUID] | None
) -> tuple[list[Inquiry], tuple[datetime, UUID] | None]:
    """One page of ``found`` after the keyset ``before`` (updated_at, id); the next keyset."""
    if before is not None:
        at, pk = before
        found = found.filter(Q(updated_at__lt=at) | Q(updated_at=at, id__lt=pk))
    rows = list(found[: limit + 1])
    page = rows[:limit]
    more = len(rows) > limit
    return page, (page[-1].updated_at, page[-1].pk) if more and page else None


def thread_after(
    *, inquiry: Inquiry, for_staff: bool, after: UUID | None = None
) -> QuerySet[Message]:
    """The thread as the caller may see it, only the messages after message ``after`` (for
    polling); an ``after`` that is not this conversation's is 422 ``invalid_request``."""
    messages = thread_messages(inquiry=inquiry, for_staff=for_staff)
    if after is None:
        return messages
    mark = inquiry.messages.filter(pk=after).values_list("created_at", flat=True).first()
    if mark is None:
        raise DomainError("invalid_request", "after: no such message in this conversation")
    return messages.filter(Q(created_at__gt=mark) | Q(created_at=mark, id__gt=after))


def customer_conversation_get(*, inquiry_id: object, customer_code: str) -> Inquiry:
    """One of this customer's conversations; anyone else's is "not found", like a bad id."""
    inquiry = inquiry_get(inquiry_id=inquiry_id)
    if inquiry.customer.code != customer_code.strip():
        raise DomainError("inquiry_not_found", variant="by_id", id=inquiry_id)
    return inquiry


def conversation_get(*, inquiry_id: object) -> Inquiry:
    """One conversation with the inbox's annotations (``flagged``, ``last_message_at``)."""
    try:
        pk = UUID(str(inquiry_id))
    except ValueError:
        pk = None
    found = conversations_search().filter(pk=pk).first() if pk else None
    if found is None:
        raise DomainError("inquiry_not_found", variant="by_id", id=inquiry_id)
    return found
