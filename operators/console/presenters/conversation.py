"""A conversation as the console shows it: the thread, and which composer controls show.

The controls mirror the services' preconditions (who owns the conversation, whether it may
be flagged) only to hide buttons that would be refused; the services decide, and refuse a
post that reaches them anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from agents.models import Escalation, Inquiry, InquiryStatus, Message, MessageAuthor
from agents.support.escalations.claims import conversation_may_assign
from netshop.roles import Role, user_has_role
from operators import labels
from operators.console.presenters.customer_panel import CustomerPanel, customer_panel
from operators.console.selectors import (
    canned_replies_for,
    colleague_names,
    conversation_messages,
    conversation_open_review,
)
from operators.models import CannedReply

ANSWERING_AUTHORS = frozenset({MessageAuthor.AI, MessageAuthor.OPERATOR})


@dataclass(frozen=True)
class GroundsView:
    """What an AI answer stood on, as the operator reads it beside the reply: the reading
    (main intent, confidence), the records used and the self-check's verdict."""

    intent: str
    other_intents: list[str]
    confidence: int | None  # a percentage
    injection_suspected: bool
    orders: list[str]
    tracking: list[str]
    faq: list[str]  # the help articles quoted (title, key and version), else those read
    passed: bool
    problems: list[str]


PROBLEM_LABELS = {
    "unanswered": _("Request not answered: %(subject)s"),
    "order": _("Order number not in the records read: %(subject)s"),
    "tracking": _("Tracking number not in the records read: %(subject)s"),
    "amount": _("Amount not in the records read: %(subject)s"),
}


def grounds_view(grounds: dict[str, Any] | None) -> GroundsView | None:
    """The grounds an AI message keeps, labelled in the operator's language."""
    if not grounds:
        return None
    reading, records, check = grounds["reading"], grounds["records"], grounds["check"]
    intents = [labels.label(labels.SKILL_LABELS, i) for i in reading["intents"] if i]
    confidence = reading.get("confidence")
    quoted = [_article_named(f) for f in records["faq"] if f.get("quoted")]
    problems = [
        str(PROBLEM_LABELS.get(p["kind"], "%(subject)s"))
        % {
            "subject": labels.label(labels.SKILL_LABELS, p["subject"])
            if p["kind"] == "unanswered"
            else p["subject"]
        }
        for p in check["problems"]
    ]
    return GroundsView(
        intent=intents[0] if intents else "",
        other_intents=intents[1:],
        confidence=None if confidence is None else round(confidence * 100),
        injection_suspected=bool(reading.get("injection_suspected")),
        orders=list(records["orders"]),
        tracking=list(records["tracking"]),
        faq=quoted or [_article_named(f) for f in records["faq"]],
        passed=bool(check["passed"]),
        problems=problems,
    )


def _article_named(record: dict[str, Any]) -> str:
    """An article as the grounds name it: its title, and which article and version (grounds
    from before help articles name an FAQ entry's question only)."""
    if "version" not in record:
        return str(record["question"])
    return _("%(title)s (%(article)s, version %(version)s)") % {
        "title": record["question"],
        "article": record.get("article", ""),
        "version": record["version"],
    }


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
    grounds: GroundsView | None = None  # an AI answer's


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
    customer: CustomerPanel | None = None  # their orders, open waits, earlier conversations

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
        grounds=grounds_view(message.grounds),
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
        customer=customer_panel(inquiry),
    )
