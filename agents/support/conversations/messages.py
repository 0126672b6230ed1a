"""Storing a message: one row, one audit entry, one live event, whoever wrote it."""

from __future__ import annotations

from django.contrib.auth.models import User

from agents.models import Inquiry, Message, MessageAuthor
from agents.support import audit_trail, catalogue
from agents.support.events.bus import publish
from agents.support.events.payloads import message_payload
from agents.support.grounds import GroundsDict
from agents.support.text import detect_language, language_evident

AUTHOR_ACTORS = {
    MessageAuthor.CUSTOMER: "customer",
    MessageAuthor.AI: audit_trail.SUPERVISOR,
}


def message_language(text: str, *, fallback: str) -> str:
    """The language a message is written in; ``fallback`` when it shows none ("ORD-1002")."""
    return detect_language(text) if language_evident(text) else fallback


def message_store(
    *,
    inquiry: Inquiry,
    author_kind: MessageAuthor,
    text: str,
    channel: str,
    author: User | None = None,
    language: str = "",
    turn: int | None = None,
    idempotency_key: str | None = None,
    thread_id: str | None = None,
    grounds: GroundsDict | None = None,
) -> Message:
    """Add a message to ``inquiry`` inside the caller's transaction; announced after commit.

    Audited content-free (ids, author kind, language, length, digest) in the one chain.
    """
    message = Message(
        inquiry=inquiry,
        author_kind=author_kind,
        author=author,
        text=text,
        channel=channel,
        language=language or message_language(text, fallback=inquiry.customer.language),
        turn=turn,
        idempotency_key=idempotency_key,
        grounds=grounds,
    )
    # Customers' and operators' messages are keyed in the graph's thread by their own id.
    message.thread_id = thread_id or (
        None if author_kind == MessageAuthor.NOTE else str(message.pk)
    )
    message.save(force_insert=True)
    actor = AUTHOR_ACTORS.get(author_kind) or (author.username if author else "operator")
    audit_trail.message_posted(message=message, actor=actor)
    publish("conversation.message", message_payload(message), subject=inquiry)
    return message


def system_message_store(*, inquiry: Inquiry, key: str, thread_id: str) -> str:
    """A message the support domain itself sends the customer (a question lapsed, an approval
    taking longer), worded by the catalogue's ``key`` in the conversation's language and stored
    as the AI's; its text. English for a language the catalogue lacks."""
    language = inquiry.language or inquiry.customer.language
    text = catalogue.say(catalogue.spoken(language, default="en"), key)
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text=text,
        channel=inquiry.channel,
        language=language,
        turn=inquiry.turns,
        thread_id=thread_id,
    )
    return text
