"""The customer's word on an AI answer: solved or not, a rating, a comment (issue 25, part 3).

Given under the reply on ``/help/`` or through the storefront API, once per AI message
(``AnswerFeedback``): the same answer sent again is the one recorded (a double click, a
retried request), a different one is refused (409 ``feedback_already_given``). Only the
conversation's own customer answers, only about an AI reply in it. Recorded, audited
content-free (``answer.feedback``), announced live and to the storefront's webhook.

"Not solved" puts the conversation in the queue at once: an open review escalation (reason
``NOT_SOLVED``) quoting the rejected reply and the customer's comment, and the conversation
held for a person (``escalations.not_solved``). A customer's reply to an AI answer that says
it missed the point (``missed_point``) counts the same (``on_customer_message``).
"""

from __future__ import annotations

import dataclasses
from typing import Any
from uuid import UUID

from django.db import transaction

from agents.models import (
    FEEDBACK_COMMENT_MAX,
    FEEDBACK_RATINGS,
    AnswerFeedback,
    Escalation,
    EscalationKind,
    EscalationStatus,
    FeedbackSource,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from agents.support import audit_trail
from agents.support.conversations.selectors import AI_ANSWERS_IN, uuid_or_none
from agents.support.conversations.services import conversation_locked
from agents.support.escalations.package import inquiry_package
from agents.support.escalations.services import escalation_record_wait
from agents.support.events.bus import publish
from agents.support.events.payloads import feedback_payload, inquiry_payload
from agents.support.missed_point import missed_the_point
from agents.support.vocabulary import NOT_SOLVED
from netshop.errors import DomainError
from netshop.models import ApiToken, Customer
from netshop.services.coupons import coupon_codes_withheld
from netshop.transactions import retry_conflicts

# The shop answers the customer: the last such message decides whether a reply of theirs is
# about an AI answer.
SHOP_AUTHORS = (MessageAuthor.AI, MessageAuthor.OPERATOR)


@dataclasses.dataclass(frozen=True)
class Feedback:
    """What the customer says of an answer: ``rating`` 1-5 and ``comment`` are optional."""

    solved: bool
    rating: int | None = None
    comment: str = ""


def feedback_checked(feedback: Feedback) -> Feedback:
    """The feedback as it is recorded (the comment trimmed), or the ``DomainError`` that
    refuses it: a rating outside 1-5, a comment over ``FEEDBACK_COMMENT_MAX`` characters."""
    rating = feedback.rating
    if rating is not None and (type(rating) is not int or rating not in FEEDBACK_RATINGS):
        raise DomainError("invalid_rating")
    comment = feedback.comment.strip()
    if len(comment) > FEEDBACK_COMMENT_MAX:
        raise DomainError("comment_too_long", limit=FEEDBACK_COMMENT_MAX)
    if "\x00" in comment:  # PostgreSQL text holds no NUL: refused, not a crash
        raise DomainError("invalid_request", "comment: must not contain NUL characters")
    return dataclasses.replace(feedback, comment=comment)


@retry_conflicts
@transaction.atomic
def answer_feedback_give(
    *,
    customer: Customer,
    inquiry_id: UUID | str,
    message_id: UUID | str,
    feedback: Feedback,
    channel: str = "web",
    storefront: ApiToken | None = None,
) -> tuple[AnswerFeedback, bool]:
    """``customer``'s word on the AI answer ``message_id`` of their conversation; the row and
    whether this call recorded it (False: the same answer was already recorded).

    Another customer's conversation is "not found" (404), as is one another storefront
    submitted (``storefront``: the token writing for the customer; None, their own page), a
    message not in it or one the customer cannot see (a note); a message that is no AI reply
    is refused (422).
    """
    feedback = feedback_checked(feedback)
    # Locking serialises two answers.
    inquiry = conversation_locked(inquiry_id, customer=customer, storefront=storefront)
    message = _ai_reply(inquiry, message_id)
    earlier = AnswerFeedback.objects.filter(message=message).first()
    if earlier is not None:
        return _replayed(earlier, feedback), False
    return feedback_record(
        inquiry=inquiry,
        message=message,
        feedback=feedback,
        source=FeedbackSource.BUTTONS,
        channel=channel,
    ), True


def _ai_reply(inquiry: Inquiry, message_id: UUID | str) -> Message:
    pk = uuid_or_none(message_id)
    message = inquiry.messages.filter(pk=pk).first() if pk else None
    if message is None or message.author_kind == MessageAuthor.NOTE:
        raise DomainError("message_not_found")
    if not message.is_answer:  # a person's message, or the shop's own notice
        raise DomainError("not_an_ai_reply")
    return message


def _replayed(earlier: AnswerFeedback, feedback: Feedback) -> AnswerFeedback:
    """The recorded answer when this one is the same; a different one is refused."""
    given = (earlier.solved, earlier.rating, earlier.comment)
    if given != (feedback.solved, feedback.rating, feedback.comment):
        raise DomainError("feedback_already_given", when=earlier.created_at.isoformat())
    return earlier


def feedback_record(
    *,
    inquiry: Inquiry,
    message: Message,
    feedback: Feedback,
    source: FeedbackSource,
    channel: str,
) -> AnswerFeedback:
    """Store the customer's word on ``message`` (checked, with the conversation locked),
    audit and announce it; "not solved" puts the conversation in the queue."""
    row = AnswerFeedback.objects.create(
        message=message,
        inquiry=inquiry,
        turn=message.turn,
        intent=answer_intent(message, inquiry),
        solved=feedback.solved,
        rating=feedback.rating,
        comment=feedback.comment,
        source=source,
        channel=channel,
    )
    audit_trail.answer_feedback_given(feedback=row)
    publish("answer.feedback", feedback_payload(row), subject=inquiry)
    if not row.solved:
        not_solved_escalate(inquiry=inquiry, message=message, feedback=feedback, source=source)
    return row


def answer_intent(message: Message, inquiry: Inquiry) -> str:
    """The answer's main intent as its turn read it (its grounds), else the conversation's."""
    reading = (message.grounds or {}).get("reading") or {}
    intents = reading.get("intents") or []
    return str(intents[0] if intents else inquiry.intent or "")


def not_solved_escalate(
    *, inquiry: Inquiry, message: Message, feedback: Feedback, source: FeedbackSource
) -> Escalation:
    """The conversation joins the review queue (once per rejected answer) with the answer and
    the customer's comment quoted, and waits for a person: the AI says nothing meanwhile."""
    intent = answer_intent(message, inquiry)
    review = {
        "not_solved": True,  # what the console's headline and review card quote
        "intent": intent,
        "message_id": str(message.pk),
        "reply": coupon_codes_withheld(message.text),
        "comment": feedback.comment,
        "rating": feedback.rating,
        "source": source,
    }
    escalation = escalation_record_wait(
        inquiry=inquiry,
        wait_key=_not_solved_key(inquiry, message),
        kind=EscalationKind.REVIEW,
        reason=NOT_SOLVED,
        summary=f"the customer said an AI answer did not solve it ({intent or '-'})",
        package=inquiry_package(inquiry) | {"review": review},
    )
    _hold_for_person(inquiry)
    return escalation


def _not_solved_key(inquiry: Inquiry, message: Message) -> str:
    """The wait key of a "not solved" of ``message``: the open one's (the queue hears of it
    once), or a new one when every earlier one was decided (the customer says it again after
    a person looked: it needs a person again, or the conversation would hold with no wait)."""
    key = f"{inquiry.pk}:not-solved:{message.pk}"
    earlier = inquiry.escalations.filter(wait_key__startswith=key)
    opened = earlier.filter(status=EscalationStatus.OPEN).values_list("wait_key", flat=True)
    if found := opened.first():
        return found
    count = earlier.count()
    return key if count == 0 else f"{key}:{count + 1}"


def _hold_for_person(inquiry: Inquiry) -> None:
    """The AI holds until a person acts: the conversation is escalated, unless a person
    already has it (owns it, or decides an approval in it)."""
    if inquiry.human_owner_id is not None or inquiry.status not in AI_ANSWERS_IN:
        return
    inquiry.status, inquiry.awaiting_until, inquiry.resolved_at = (
        InquiryStatus.ESCALATED,
        None,
        None,
    )
    inquiry.save(update_fields=["status", "awaiting_until", "resolved_at", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry), subject=inquiry)


def on_customer_message(sender: object, *, inquiry: Inquiry, message: Message, **_: Any) -> None:
    """A customer's message was stored (``customer_message_stored``, connected by
    ``agents.apps``), the conversation locked: a reply saying the AI answer just before it
    missed the point counts as "not solved"."""
    if not missed_the_point(message.text):
        return
    answer = _last_shop_message(inquiry, before=message)
    if answer is None or not answer.is_answer:
        return  # a person answered last, or nobody, or a notice: no AI answer to reject
    said = Feedback(solved=False, comment=message.text.strip()[:FEEDBACK_COMMENT_MAX])
    if AnswerFeedback.objects.filter(message=answer).exists():
        # Their word on it is recorded (once per answer): the queue hears of this all the same.
        not_solved_escalate(
            inquiry=inquiry, message=answer, feedback=said, source=FeedbackSource.REPLY
        )
        return
    feedback_record(
        inquiry=inquiry,
        message=answer,
        feedback=said,
        source=FeedbackSource.REPLY,
        channel=message.channel,
    )


def _last_shop_message(inquiry: Inquiry, *, before: Message) -> Message | None:
    return (
        inquiry.messages.filter(author_kind__in=SHOP_AUTHORS, created_at__lte=before.created_at)
        .exclude(pk=before.pk)
        .order_by("-created_at", "-id")
        .first()
    )
