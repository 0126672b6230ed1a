"""The staff side of conversations: the inbox, the whole thread, and what a person does in it.

Operators take a conversation over, write to the customer, write notes, hand it back to the
AI or close it; managers (the shop's leads) flag an AI-resolved one for review. The rules
(who owns what, what may happen in which state) are the conversation services'.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated
from uuid import UUID

from django.contrib.auth.models import User
from django.http import HttpRequest
from ninja import Router, Status
from pydantic import Field

from agents.models import Inquiry
from agents.support.conversations.inbox import (
    InboxFilter,
    conversation_get,
    conversations_search,
    inbox_page,
)
from agents.support.conversations.selectors import thread_messages
from agents.support.conversations.services import (
    conversation_close,
    conversation_hand_back,
    conversation_take_over,
    note_add,
    operator_message_send,
)
from agents.support.escalations.review_flags import conversation_flag
from netshop.errors import DomainError
from netshop.roles import Role
from operators.api.auth import STAFF, require_role
from operators.api.outputs import conversation_detail, conversation_out, message_out
from operators.api.schemas import (
    ConversationDetail,
    ConversationPage,
    Cursor,
    ErrorOut,
    FilterText,
    FlagIn,
    KeyHeader,
    MessageOut,
    TextIn,
)

router = Router(auth=STAFF, tags=["conversations"])

DENIED = {401: ErrorOut, 403: ErrorOut}
CHANGED = {200: ConversationDetail, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut, **DENIED}
BODY = {400: ErrorOut, 413: ErrorOut, 415: ErrorOut}  # a JSON body, bounded
WRITTEN = {201: MessageOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut, **BODY, **DENIED}
Change = Callable[..., Inquiry]


@router.get(
    "/conversations",
    response={200: ConversationPage, 422: ErrorOut, **DENIED},
    summary="The inbox: every conversation, searched and filtered",
)
def conversations(
    request: HttpRequest,
    q: FilterText = "",
    filter: InboxFilter | None = None,
    limit: Annotated[int, Field(ge=1, le=200)] = 50,
    cursor: Cursor | None = None,
) -> ConversationPage:
    """Conversations most recently active first. ``q`` matches a customer code or an order
    number exactly, or any text of the thread; ``filter`` keeps the AI-resolved ones, those
    awaiting the customer, those a person owns, those flagged for review, those with a person
    (escalated or awaiting a decision), the failed ones, or those waiting on the team (the
    customer wrote last and a person is to answer). Follow
    ``next_cursor`` for more (operators and managers)."""
    require_role(request, Role.OPERATOR)
    found = conversations_search(query=q, filter=filter)
    page, after = inbox_page(found, limit=limit, before=_keyset(cursor))
    next_cursor = f"{after[0].isoformat()}|{after[1]}" if after else None
    return ConversationPage(items=[conversation_out(i) for i in page], next_cursor=next_cursor)


@router.get(
    "/conversations/{inquiry_id}",
    response={200: ConversationDetail, 404: ErrorOut, **DENIED},
    summary="A conversation with its whole thread, notes included",
)
def conversation(request: HttpRequest, inquiry_id: str) -> ConversationDetail:
    """The conversation and every message of it, internal notes included (staff only)."""
    require_role(request, Role.OPERATOR)
    return _detail(inquiry_id)


@router.post(
    "/conversations/{inquiry_id}/take-over",
    response=CHANGED,
    summary="Take the conversation over from the AI",
)
def take_over(request: HttpRequest, inquiry_id: str) -> ConversationDetail:
    """From now on the caller owns the conversation and the AI sends nothing; a run in flight
    finishes without sending its reply. 409 ``already_human_owned`` if someone owns it."""
    return _change(request, inquiry_id, conversation_take_over)


@router.post(
    "/conversations/{inquiry_id}/hand-back",
    response=CHANGED,
    summary="Hand the conversation back to the AI",
)
def hand_back(request: HttpRequest, inquiry_id: str) -> ConversationDetail:
    """The AI answers the customer's next message (or one already waiting) with the whole
    thread as context. Only the owner may (409 ``not_human_owned`` / ``owned_by_other``)."""
    return _change(request, inquiry_id, conversation_hand_back)


@router.post(
    "/conversations/{inquiry_id}/close",
    response=CHANGED,
    summary="Close the conversation",
)
def close(request: HttpRequest, inquiry_id: str) -> ConversationDetail:
    """The owner is done: the conversation is resolved. A customer's reply within
    NETSHOP_REOPEN_DAYS reopens it; a later one starts a new conversation."""
    return _change(request, inquiry_id, conversation_close)


@router.post(
    "/conversations/{inquiry_id}/messages",
    response=WRITTEN,
    summary="Write to the customer (the conversation's owner)",
)
def operator_message(
    request: HttpRequest, inquiry_id: str, payload: TextIn, idempotency_key: KeyHeader = None
) -> Status[MessageOut]:
    """The message goes to the customer as written (their page and socket); only the person
    who took the conversation over may write (409 ``not_human_owned`` / ``owned_by_other``);
    blank text is 422. The same ``Idempotency-Key`` again returns the message it made; with
    another text it is 409 ``message_key_reused``."""
    user = require_role(request, Role.OPERATOR)
    message = operator_message_send(
        inquiry_id=_pk(inquiry_id), user=user, text=payload.text, idempotency_key=idempotency_key
    )
    return Status(201, message_out(message, for_staff=True))


@router.post(
    "/conversations/{inquiry_id}/notes",
    response=WRITTEN,
    summary="Write an internal note",
)
def note(request: HttpRequest, inquiry_id: str, payload: TextIn) -> Status[MessageOut]:
    """A note is in the staff's thread only: the customer never sees or hears of it."""
    user = require_role(request, Role.OPERATOR)
    message = note_add(inquiry_id=_pk(inquiry_id), user=user, text=payload.text)
    return Status(201, message_out(message, for_staff=True))


@router.post(
    "/conversations/{inquiry_id}/flag",
    response={**CHANGED, **BODY},
    summary="Flag an AI-resolved conversation for review (managers)",
)
def flag(request: HttpRequest, inquiry_id: str, payload: FlagIn) -> ConversationDetail:
    """A review escalation joins the queue. Only a conversation the AI resolved without a
    person may be flagged (422 ``not_ai_resolved``), once at a time (409 ``already_flagged``)."""
    user = require_role(request, Role.MANAGER)
    conversation_flag(inquiry_id=_pk(inquiry_id), user=user, reason=payload.reason)
    return _detail(inquiry_id)


def _change(request: HttpRequest, inquiry_id: str, service: Change) -> ConversationDetail:
    user: User = require_role(request, Role.OPERATOR)
    service(inquiry_id=_pk(inquiry_id), user=user)
    return _detail(inquiry_id)


def _detail(inquiry_id: str) -> ConversationDetail:
    inquiry = conversation_get(inquiry_id=inquiry_id)
    return conversation_detail(inquiry, thread_messages(inquiry=inquiry, for_staff=True))


def _pk(inquiry_id: str) -> UUID:
    try:
        return UUID(inquiry_id)
    except ValueError:
        raise DomainError("inquiry_not_found", variant="by_id", id=inquiry_id) from None


def _keyset(cursor: str | None) -> tuple[datetime, UUID] | None:
    if not cursor:
        return None
    at, _, pk = cursor.partition("|")
    try:
        return datetime.fromisoformat(at), UUID(pk)
    except ValueError:
        raise DomainError("invalid_request", "cursor: not one this API gave") from None
