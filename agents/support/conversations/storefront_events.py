"""What a storefront hears of the conversations it submitted: live events turned into webhooks.

``agents.support.events.bus.publish`` hands every event here (``on_event_publishing``), inside
the caller's transaction, so the delivery row commits (or rolls back) with the change it
reports. Only a conversation that came
in over the API with a token that has a callback URL produces any; the others cost one query,
or none when the caller hands over the conversation it holds.

- ``conversation.replied``: a message the customer sees, from the AI or an operator;
- ``conversation.awaiting_approval``: the run waits for a person's decision;
- ``conversation.handed_to_person``: escalated, taken over, or failed and handed over;
- ``conversation.resolved``;
- ``conversation.feedback``: the customer said whether an AI answer solved their problem.

A status event goes out when the conversation *moves into* that status (a save that repeats
the status is not news); a reply goes out once per message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.models import Inquiry, InquiryStatus, MessageAuthor
from netshop.webhooks.models import WebhookEvent
from netshop.webhooks.services import delivery_enqueue, subject_status_changed

STATUS_EVENTS = {
    InquiryStatus.AWAITING_APPROVAL: WebhookEvent.AWAITING_APPROVAL,
    InquiryStatus.ESCALATED: WebhookEvent.HANDED_TO_PERSON,
    InquiryStatus.HANDLED_BY_HUMAN: WebhookEvent.HANDED_TO_PERSON,
    InquiryStatus.FAILED: WebhookEvent.HANDED_TO_PERSON,
    InquiryStatus.RESOLVED: WebhookEvent.RESOLVED,
}
REPLY_AUTHORS = (MessageAuthor.AI, MessageAuthor.OPERATOR)


def storefront_announce(
    event: str, payload: dict[str, Any], subject: Inquiry | None = None
) -> None:
    """Record the webhooks live event ``event`` (with its console ``payload``, about the
    conversation ``subject`` when the caller holds it) amounts to."""
    if event == "conversation.message" and payload["author_kind"] in REPLY_AUTHORS:
        _announce_reply(payload, _subscriber(payload["inquiry_id"], subject))
    elif event == "inquiry.updated":
        _announce_status(payload, _subscriber(payload["id"], subject))
    elif event == "answer.feedback":
        _announce_feedback(payload, _subscriber(payload["inquiry_id"], subject))


def _subscriber(inquiry_id: str, subject: Inquiry | None) -> Mapping[str, Any] | None:
    """The conversation's token and facts, if its storefront listens for webhooks."""
    if subject is not None:
        return _subscriber_of(subject)
    return (
        Inquiry.objects.filter(
            pk=inquiry_id,
            storefront_token__isnull=False,
            storefront_token__revoked_at__isnull=True,
        )
        .exclude(storefront_token__callback_url="")
        .exclude(storefront_token__webhook_secret="")
        .values("storefront_token_id", "customer__code", "status", "turns")
        .first()
    )


def _subscriber_of(inquiry: Inquiry) -> Mapping[str, Any] | None:
    """As ``_subscriber``, from the conversation in hand: nothing to read unless it came from
    a storefront, whose token is then read once and kept on the instance."""
    if inquiry.storefront_token_id is None:
        return None
    token = inquiry.storefront_token
    if token is None or token.revoked_at is not None:
        return None
    if not (token.callback_url and token.webhook_secret):
        return None
    return {
        "storefront_token_id": token.pk,
        "customer__code": inquiry.customer.code,
        "status": inquiry.status,
        "turns": inquiry.turns,
    }


def _announce_reply(message: dict[str, Any], subscriber: Mapping[str, Any] | None) -> None:
    if subscriber is None:
        return
    data = _conversation(message["inquiry_id"], subscriber, turn=message["turn"])
    data["message"] = {
        key: message[key] for key in ("id", "author_kind", "text", "language", "created_at")
    }
    delivery_enqueue(
        token_id=subscriber["storefront_token_id"],
        event=WebhookEvent.REPLIED,
        data=data,
        subject_id=message["inquiry_id"],
        dedupe_key=f"message:{message['id']}",
    )


FEEDBACK_FIELDS = ("message_id", "solved", "rating", "comment", "source", "created_at")


def _announce_feedback(feedback: dict[str, Any], subscriber: Mapping[str, Any] | None) -> None:
    if subscriber is None:
        return
    data = _conversation(feedback["inquiry_id"], subscriber)
    data["feedback"] = {key: feedback[key] for key in FEEDBACK_FIELDS}
    delivery_enqueue(
        token_id=subscriber["storefront_token_id"],
        event=WebhookEvent.FEEDBACK,
        data=data,
        subject_id=feedback["inquiry_id"],
        dedupe_key=f"feedback:{feedback['id']}",
    )


def _announce_status(inquiry: dict[str, Any], subscriber: Mapping[str, Any] | None) -> None:
    if subscriber is None:
        return
    status = inquiry["status"]
    changed = subject_status_changed(
        token_id=subscriber["storefront_token_id"], subject_id=inquiry["id"], status=status
    )
    event = STATUS_EVENTS.get(status)
    if not changed or event is None:
        return
    data = _conversation(inquiry["id"], subscriber, status=status)
    data |= {"reply": inquiry["reply"], "human_owned": inquiry["human_owned"]}
    delivery_enqueue(
        token_id=subscriber["storefront_token_id"],
        event=event,
        data=data,
        subject_id=inquiry["id"],
    )


def _conversation(
    inquiry_id: str,
    subscriber: Mapping[str, Any],
    *,
    status: str | None = None,
    turn: int | None = None,
) -> dict[str, Any]:
    """What every event says of the conversation, so the storefront need not fetch it."""
    return {
        "inquiry_id": str(inquiry_id),
        "customer_id": subscriber["customer__code"],
        "status": status or subscriber["status"],
        "turn": turn or subscriber["turns"] or 1,
    }


def on_event_publishing(
    sender: object, *, event: str, payload: dict[str, Any], subject: Inquiry | None, **_: Any
) -> None:
    """The bus's ``event_publishing`` receiver (connected by ``agents.apps``)."""
    storefront_announce(event, payload, subject)
