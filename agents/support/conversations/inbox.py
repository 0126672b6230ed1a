"""The inbox: every conversation, not only escalated ones, searched and filtered for staff.

The staff API lists conversations through ``conversations_search``, which matches and
filters exactly as the console's inbox does (``agents.support.conversations.search``). Each row
carries what a list shows (its customer, owner, whether it is flagged, its last message
time) without a query per row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args
from uuid import UUID

from django.db.models import Max, Q, QuerySet

from agents.models import (
    Inquiry,
    Message,
)
from agents.support.conversations.search import (
    STATUS_FILTERS,
    conversation_search,
    flagged_expression,
)
from agents.support.conversations.selectors import inquiry_get, thread_messages
from netshop.errors import DomainError
from netshop.models import ApiToken

InboxFilter = Literal[
    "ai_resolved",
    "awaiting_customer",
    "human_owned",
    "flagged",
    "escalated",
    "failed",
    "waiting_on_us",
]
INBOX_FILTERS: tuple[str, ...] = get_args(InboxFilter)


def conversations_search(
    *,
    query: str = "",
    filter: str | None = None,
) -> QuerySet[Inquiry]:
    """Conversations matching ``query`` and ``filter``, most recently active first, with
    what a list row shows (``flagged``, ``last_message_at``) annotated.

    The matching is the console's (``agents.support.conversations.search``): a customer's code or
    name, an order number (one the customer holds, or one a message names), or any text of
    the thread. ``filter`` is one of ``INBOX_FILTERS``; another is 422 ``invalid_request``
    here (the console's search quietly matches nothing for it).
    """
    if filter and filter not in STATUS_FILTERS:
        raise DomainError("invalid_request", f"filter: must be one of {', '.join(STATUS_FILTERS)}")
    found = conversation_search(text=query, status_filter=filter or "")
    return found.annotate(flagged=flagged_expression(), last_message_at=Max("messages__created_at"))


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


def storefront_conversation_get(
    *, inquiry_id: object, token: ApiToken, customer_code: str | None = None
) -> Inquiry:
    """A conversation this storefront token submitted (of this customer, when named).

    Any other, another storefront's or one started on the help page or in the console, is
    "not found" exactly like an id that does not exist, so a storefront cannot probe ids.
    """
    inquiry = inquiry_get(inquiry_id=inquiry_id)
    theirs = customer_code is None or inquiry.customer.code == customer_code.strip()
    if inquiry.storefront_token_id != token.pk or not theirs:
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
