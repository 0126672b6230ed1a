"""A turn's messages, as the run saw them and as it answered: the graph's thread and the
stored conversation kept in step.

The driver hands a turn the messages no run has taken (``turn_input``); recording stores
what the turn wrote (``turn_record``) and marks what it took, so each customer message is
taken by exactly one run and each reply stored once, however often a run is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from agents.models import Inquiry, InquiryStatus, Message, MessageAuthor
from agents.support.conversations.messages import message_store
from agents.support.conversations.selectors import EDITED_DRAFT_SUFFIX, unthreaded_messages
from agents.support.grounds import GroundsDict, Owners, turn_grounds

OPERATOR_NAME = "operator"  # how an operator's message is marked in the graph's thread


def turn_input(*, inquiry: Inquiry, turn: int) -> dict[str, Any]:
    """The input of turn ``turn``: the customer's new text and the messages it takes."""
    taken = list(unthreaded_messages(inquiry_id=inquiry.pk))
    if not taken and not inquiry.messages.exists():  # from before messages were stored
        message_store(
            inquiry=inquiry,
            author_kind=MessageAuthor.CUSTOMER,
            text=inquiry.text,
            channel=inquiry.channel,
        )
        taken = list(unthreaded_messages(inquiry_id=inquiry.pk))
    return {
        "inquiry_id": str(inquiry.pk),
        "customer_id": inquiry.customer.code,
        "customer_language": inquiry.customer.language,
        "text": "\n".join(m.text for m in _customer_since_operator(taken)),
        "turn": turn,
        # The first turn answers no question: the AI has said nothing yet.
        "question_open": turn > 1 and _question_is_last_word(inquiry),
        "message_ids": [str(m.pk) for m in taken],
        "messages": [_as_graph_message(m) for m in taken],
    }


def _question_is_last_word(inquiry: Inquiry) -> bool:
    """Whether the last thing the shop said is the AI's question: a lapse's closing message
    or an operator's reply since means the new message answers no question."""
    last = (
        inquiry.messages.filter(author_kind__in=(MessageAuthor.AI, MessageAuthor.OPERATOR))
        .order_by("-created_at", "-id")
        .values_list("thread_id", flat=True)
        .first()
    )
    return bool(last and last.endswith(":question"))


def _customer_since_operator(messages: list[Message]) -> list[Message]:
    """What this turn answers: the customer's messages after an operator's last reply."""
    last_operator = max(
        (i for i, m in enumerate(messages) if m.author_kind == MessageAuthor.OPERATOR), default=-1
    )
    return [m for m in messages[last_operator + 1 :] if m.author_kind == MessageAuthor.CUSTOMER]


def _as_graph_message(message: Message) -> AnyMessage:
    if message.author_kind == MessageAuthor.OPERATOR:
        return AIMessage(message.text, id=message.thread_id, name=OPERATOR_NAME)
    return HumanMessage(message.text, id=message.thread_id)


@dataclass(frozen=True)
class TurnReply:
    """A message the turn wrote to the customer, not stored yet: its text, its id in the
    graph's thread and its grounds. Sent at once, or held as a draft for a person."""

    text: str
    thread_id: str
    grounds: GroundsDict

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "thread_id": self.thread_id, "grounds": self.grounds}

    @classmethod
    def of(cls, stored: Mapping[str, Any]) -> TurnReply:
        return cls(str(stored["text"]), str(stored["thread_id"]), stored["grounds"])


def turn_replies(
    inquiry: Inquiry, state: dict[str, Any], *, owners: Owners | None = None
) -> list[TurnReply]:
    """What the turn wrote to the customer and the thread does not hold yet (recording a run
    twice finds them stored), each with its grounds (``agents.support.grounds``); ``owners``,
    each specialist's intents, tells which requests a specialist had to answer."""
    turn = int(state.get("turn", 1))
    prefix = f"{inquiry.pk}:{turn}:"
    stored = set(inquiry.messages.filter(turn=turn).values_list("thread_id", flat=True))
    replies = []
    for message in state.get("messages", []):
        if not isinstance(message, AIMessage) or message.name == OPERATOR_NAME:
            continue
        if not str(message.id).startswith(prefix) or message.id in stored or not message.content:
            continue
        text = str(message.content)
        grounds = turn_grounds(
            state,
            reply=text,
            owners=owners or {},
            asking=str(message.id).endswith(":question"),
        )
        replies.append(TurnReply(text, str(message.id), grounds))
    return replies


def reply_store(
    *,
    inquiry: Inquiry,
    reply: TurnReply,
    turn: int,
    language: str,
    author: User | None = None,
    text: str | None = None,
) -> Message:
    """Send ``reply`` to the customer: the AI's message, or, with ``author`` and their
    ``text``, a person's version of it (keyed by its thread id marked edited)."""
    if author is not None:
        return message_store(
            inquiry=inquiry,
            author_kind=MessageAuthor.OPERATOR,
            author=author,
            text=text if text is not None else reply.text,
            channel="console",
            language=language,
            turn=turn,
            thread_id=reply.thread_id + EDITED_DRAFT_SUFFIX,
        )
    return message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text=reply.text,
        channel=inquiry.channel,
        language=language,
        turn=turn,
        thread_id=reply.thread_id,
        grounds=reply.grounds,
    )


def turn_record(
    *,
    inquiry: Inquiry,
    state: dict[str, Any],
    status: str,
    replies: list[TurnReply],
) -> None:
    """Store what the turn sends the customer (``replies``: all it wrote, or none while they
    wait as a draft), and mark the messages it took."""
    turn = int(state.get("turn", 1))
    turn_mark_taken(state)
    for reply in replies:
        reply_store(inquiry=inquiry, reply=reply, turn=turn, language=state.get("language", ""))
    if status == InquiryStatus.HANDLED_BY_HUMAN and state.get("reply"):
        stored = set(inquiry.messages.filter(turn=turn).values_list("thread_id", flat=True))
        _record_take_over_reply(inquiry, state, turn=turn, stored=stored)


def turn_mark_taken(state: dict[str, Any]) -> None:
    """The turn's messages are in the thread now: no later run takes them again."""
    ids = state.get("message_ids") or []
    if ids:
        Message.objects.filter(pk__in=ids, turn__isnull=True).update(turn=state.get("turn", 1))


def _record_take_over_reply(
    inquiry: Inquiry, state: dict[str, Any], *, turn: int, stored: set[str | None]
) -> None:
    """An operator took the waiting run over with a reply: the conversation is theirs."""
    thread_id = f"{inquiry.pk}:{turn}:take_over"
    if thread_id in stored:
        return
    names = [d.get("operator") for d in state.get("decisions", {}).values()]
    operator = User.objects.filter(username__in=[n for n in names if n]).first()
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.OPERATOR,
        author=operator,
        text=state["reply"],
        channel="console",
        language=state.get("language", ""),
        turn=turn,
        thread_id=thread_id,
    )
    if operator is not None and inquiry.human_owner_id is None:
        inquiry.human_owner = operator
        inquiry.save(update_fields=["human_owner", "updated_at"])
