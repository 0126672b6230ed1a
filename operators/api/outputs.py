"""Conversations and messages as the API shows them, to a storefront or to staff."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agents.models import Inquiry, Message
from agents.support.events.payloads import message_payload, staff_view
from operators.api.schemas import ConversationDetail, ConversationOut, MessageOut, ThreadOut


def message_out(message: Message, *, for_staff: bool) -> MessageOut:
    """A coupon code in a message is the customer's alone: staff read it withheld, as in the
    live events."""
    payload = message_payload(message)
    return MessageOut(**(staff_view(payload) if for_staff else payload))


def thread_out(inquiry: Inquiry, messages: Iterable[Message], *, for_staff: bool) -> ThreadOut:
    shown = [message_out(m, for_staff=for_staff) for m in messages]
    return ThreadOut(
        inquiry_id=str(inquiry.pk), messages=shown, last_id=shown[-1].id if shown else None
    )


def conversation_out(inquiry: Inquiry) -> ConversationOut:
    """A row of ``conversations_search`` (which annotates ``flagged`` and ``last_message_at``)."""
    return ConversationOut(**_conversation_fields(inquiry))


def conversation_detail(inquiry: Inquiry, messages: Iterable[Message]) -> ConversationDetail:
    return ConversationDetail(
        **_conversation_fields(inquiry),
        language=inquiry.language,
        turns=inquiry.turns,
        reply=staff_view({"reply": inquiry.reply})["reply"],
        awaiting_until=inquiry.awaiting_until.isoformat() if inquiry.awaiting_until else None,
        messages=[message_out(m, for_staff=True) for m in messages],
    )


def _conversation_fields(inquiry: Inquiry) -> dict[str, Any]:
    last = getattr(inquiry, "last_message_at", None)
    return {
        "id": str(inquiry.pk),
        "customer_id": inquiry.customer.code,
        "status": inquiry.status,
        "text": staff_view({"text": inquiry.text})["text"],
        "human_owner": inquiry.human_owner.username if inquiry.human_owner else None,
        "flagged": bool(getattr(inquiry, "flagged", False)),
        "last_message_at": last.isoformat() if last else None,
        "created_at": inquiry.created_at.isoformat(),
        "updated_at": inquiry.updated_at.isoformat(),
    }
