"""What each live event carries, and the view of it staff and a customer each get."""

from __future__ import annotations

from typing import Any

from agents.models import AnswerFeedback, Escalation, Inquiry, Message
from netshop.services.coupons import coupon_codes_withheld


def escalation_payload(escalation: Escalation) -> dict[str, Any]:
    return {
        "id": str(escalation.pk),
        "inquiry_id": str(escalation.inquiry_id),
        "kind": escalation.kind,
        "reason": escalation.reason,
        "summary": escalation.summary,
        "status": escalation.status,
        "amount_at_risk": escalation.amount_at_risk,
        "deadline": escalation.deadline.isoformat(),
        "created_at": escalation.created_at.isoformat(),
        "claimed_by": escalation.claimed_by.username if escalation.claimed_by else None,
        "decided_by": escalation.decided_by.username if escalation.decided_by else None,
        "decision": (escalation.decision or {}).get("decision"),
        "awaits_second_approval": escalation.awaits_second_approval,
    }


def inquiry_payload(inquiry: Inquiry) -> dict[str, Any]:
    return {
        "id": str(inquiry.pk),
        "status": inquiry.status,
        "reply": inquiry.reply,
        "human_owned": inquiry.human_owner_id is not None,
        "updated_at": inquiry.updated_at.isoformat() if inquiry.updated_at else None,
    }


def message_payload(message: Message) -> dict[str, Any]:
    """One message of a conversation as its watchers see it (``conversation.message``)."""
    return {
        "id": str(message.pk),
        "inquiry_id": str(message.inquiry_id),
        "author_kind": message.author_kind,
        "author": message.author.username if message.author else None,
        "text": message.text,
        "channel": message.channel,
        "language": message.language,
        "turn": message.turn,
        "answer": message.is_answer,  # an AI turn's answer: the customer may rate it
        "created_at": message.created_at.isoformat(),
    }


def feedback_payload(feedback: AnswerFeedback) -> dict[str, Any]:
    """A customer's word on an AI answer (``answer.feedback``); the comment is their text,
    shown inert wherever it is shown."""
    return {
        "id": feedback.pk,
        "inquiry_id": str(feedback.inquiry_id),
        "message_id": str(feedback.message_id),
        "solved": feedback.solved,
        "rating": feedback.rating,
        "comment": feedback.comment,
        "source": feedback.source,
        "intent": feedback.intent,
        "created_at": feedback.created_at.isoformat(),
    }


def step_payloads(inquiry_id: str, node: str, update: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished step as the timeline shows it: one per specialist it ran (a lane of the
    fan-out brings back several envelopes at once)."""
    envelopes = update.get("envelopes") or {}
    if len(envelopes) <= 1:
        return [step_payload(inquiry_id, node, update)]
    return [
        step_payload(inquiry_id, node, {**update, "envelopes": {agent: envelope}})
        for agent, envelope in envelopes.items()
    ]


def step_payload(inquiry_id: str, node: str, update: dict[str, Any]) -> dict[str, Any]:
    """One finished step of a run: which node, which specialist, how it ended (no content)."""
    payload: dict[str, Any] = {"inquiry_id": inquiry_id, "node": node}
    envelopes = update.get("envelopes") or {}
    if envelopes:
        agent, envelope = next(iter(envelopes.items()))
        payload |= {
            "agent": agent,
            "status": envelope.get("status"),
            "attempt": envelope.get("attempt"),
        }
    if update.get("classification"):
        payload |= {"intent": update["classification"].get("intent")}
    if update.get("status"):
        payload |= {"status": update["status"]}
    return payload


def customer_view(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as the customer hears it: which member of staff wrote is staff's to know."""
    return {key: value for key, value in payload.items() if key != "author"}


def staff_view(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as staff may see it: a reply's coupon code is the customer's alone."""
    withheld = {
        key: coupon_codes_withheld(value)
        for key in ("reply", "text")
        if isinstance(value := payload.get(key), str)
    }
    return {**payload, **withheld} if withheld else payload
