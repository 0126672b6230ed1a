"""A conversation as the console shows it: the thread, and which composer controls show.

The controls mirror the services' preconditions (who owns the conversation, whether it may
be flagged) only to hide buttons that would be refused; the services decide, and refuse a
post that reaches them anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agents.models import Escalation, Inquiry, InquiryStatus, Message, MessageAuthor
from agents.support.escalations.claims import conversation_may_assign
from netshop.roles import Role, user_has_role
from operators import labels
from operators.console.selectors import (
    canned_replies_for,
    colleague_names,
    conversation_messages,
    conversation_open_review,
)
from operators.models import CannedReply

ANSWERING_AUTHORS = frozenset({MessageAuthor.AI, MessageAuthor.OPERATOR})


@dataclass(frozen=True)
class MessageView:
    """One message of the thread: who wrote it, when, on which channel, in which language."""

    id: str
    kind: str
    kind_label: str
    author: str
    text: str
    channel: str
    language: str
    at: datetime
    pending: bool  # a customer message nobody has answered yet


@dataclass(frozen=True)
class Composer:
    """What the signed-in operator may do here (owner, another operator, or a lead)."""

    owner: str
    is_owner: bool
    take_over: bool
    write: bool  # send messages, hand back, close: the owner only
    flag: bool  # a lead, on an AI-resolved conversation not already flagged
    assign: bool = False  # give it to a colleague (``conversation_may_assign``)


@dataclass
class ConversationView:
    inquiry: Inquiry
    messages: list[MessageView]
    composer: Composer
    canned: list[CannedReply] = field(default_factory=list)
    review: Escalation | None = None
    colleagues: list[str] = field(default_factory=list)  # who "Assign to…" offers

    @property
    def inquiry_id(self) -> str:
        return str(self.inquiry.pk)


def message_view(message: Message, *, answered: bool = False) -> MessageView:
    return MessageView(
        id=str(message.pk),
        kind=message.author_kind,
        kind_label=labels.label(labels.AUTHOR_LABELS, message.author_kind),
        author=message.author.username if message.author else "",
        text=message.text,
        channel=message.channel,
        language=message.language,
        at=message.created_at,
        pending=message.is_pending and not answered,
    )


def thread_views(messages: list[Message]) -> list[MessageView]:
    """The thread's messages; a customer message an operator or the AI wrote after is
    answered, whether or not a run took it."""
    answers = [i for i, m in enumerate(messages) if m.author_kind in ANSWERING_AUTHORS]
    last_answer = answers[-1] if answers else -1
    return [message_view(m, answered=i < last_answer) for i, m in enumerate(messages)]


def composer(
    inquiry: Inquiry, *, user: Any, messages: list[Message], review: Escalation | None
) -> Composer:
    owner_id = inquiry.human_owner_id
    ai_resolved = inquiry.status == InquiryStatus.RESOLVED and not any(
        m.author_kind == MessageAuthor.OPERATOR for m in messages
    )
    return Composer(
        owner=inquiry.human_owner.username if inquiry.human_owner else "",
        is_owner=owner_id is not None and owner_id == user.pk,
        take_over=owner_id is None,
        write=owner_id is not None and owner_id == user.pk,
        flag=ai_resolved and review is None and user_has_role(user, Role.MANAGER),
        assign=conversation_may_assign(inquiry, user),
    )


def conversation_page(*, inquiry: Inquiry, user: Any) -> ConversationView:
    """Everything the conversation page shows, in a fixed number of queries."""
    messages = conversation_messages(inquiry=inquiry)
    review = conversation_open_review(inquiry_id=inquiry.pk)
    panel = composer(inquiry, user=user, messages=messages, review=review)
    return ConversationView(
        inquiry=inquiry,
        messages=thread_views(messages),
        composer=panel,
        canned=canned_replies_for(language=inquiry.customer.language) if panel.write else [],
        review=review,
        colleagues=colleague_names(exclude=panel.owner) if panel.assign else [],
    )
