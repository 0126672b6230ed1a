"""Drafts: an AI reply that waits for a person to send it (issue 25, part 2).

When a turn's reply may not go out on its own (``agents.support.autonomy``), the run records
it as a draft: a wait of kind ``DRAFT`` in the queue, holding the reply and the status the
turn would have ended in; the conversation waits, and the AI answers nothing more meanwhile.
A person sends it with one click, edits it and sends their version, or takes the conversation
over. Sending is exactly once: the conversation's row and then the draft's are locked, a sent
draft is decided, and each message keeps the thread id the AI wrote it under (unique in the
conversation; a person's version is marked edited), so two clicks in two browsers send one
reply and the second is told who sent it. A draft that replaced a follow-up ("a member of our
staff will get back to you"), sent as written, opens that follow-up for a person.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from agents.models import Escalation, EscalationKind, EscalationStatus, Inquiry, InquiryStatus
from agents.support import audit_trail
from agents.support.autonomy.disposition import Disposition
from agents.support.conversations.selectors import ai_may_answer, waits_for_ai
from agents.support.conversations.services import conversation_locked, refuse_blank
from agents.support.conversations.thread import TurnReply, reply_store
from agents.support.escalations.language import language_check
from agents.support.escalations.package import handoff_package
from agents.support.escalations.selectors import escalation_get
from agents.support.escalations.services import (
    escalation_decided,
    escalation_locked,
    escalation_record_wait,
    refuse_if_claimed_by_other,
    refuse_if_decided,
    refuse_unconfirmed_language,
)
from agents.support.events.bus import publish
from agents.support.events.payloads import inquiry_payload
from agents.support.run_requests import enqueue_run
from agents.support.vocabulary import NOT_SOLVED, OperatorDecision
from netshop.errors import DomainError
from netshop.transactions import retry_conflicts


def draft_record(
    *,
    inquiry: Inquiry,
    state: dict[str, Any],
    replies: list[TurnReply],
    disposition: Disposition,
    status: str,
    wait_key: str,
) -> Escalation:
    """Hold the turn's ``replies`` for a person (once per ``wait_key``): the wait carries the
    run's hand-off package, the replies and the ``status`` the turn ends in once sent."""
    intent = (state.get("classification") or {}).get("intent") or ""
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=wait_key,
        kind=EscalationKind.DRAFT,
        reason=disposition.reason,
        summary=f"reply drafted ({intent or 'no intent'}): {disposition.reason}",
        package=handoff_package(state)
        | {
            "draft": {
                "replies": [reply.as_dict() for reply in replies],
                "status": status,
                "language": state.get("language", ""),
                "intent": intent,
            }
        },
    )


def draft_text(escalation: Escalation) -> str:
    """The reply a draft holds, as the customer would read it (its messages in order)."""
    replies = (escalation.package.get("draft") or {}).get("replies") or []
    return "\n\n".join(str(reply["text"]) for reply in replies)


@retry_conflicts
@transaction.atomic
def draft_send(
    *,
    escalation_id: UUID | str,
    user: User,
    text: str | None = None,
    confirm_language: bool = False,
) -> Escalation:
    """Send the draft to the customer: as drafted, or ``text`` when the person edited it
    (words in another language than the customer's need ``confirm_language``). Refused once
    sent (``already_decided``, naming who), while someone else holds it, and while a person
    owns the conversation (they answer it). The conversation goes on as the turn would have
    (resolved, or waiting for the customer's answer), and a message that came meanwhile is
    answered next."""
    found = escalation_get(escalation_id=escalation_id)
    inquiry = conversation_locked(found.inquiry_id)  # the documented order: the inquiry first
    escalation = escalation_locked(escalation_id)
    if escalation.kind != EscalationKind.DRAFT:
        raise DomainError("not_a_draft")
    refuse_if_decided(escalation)
    refuse_if_claimed_by_other(escalation, user)
    if inquiry.human_owner_id is not None:
        owner = inquiry.human_owner.username if inquiry.human_owner else ""
        raise DomainError("already_human_owned", who=owner)
    edited = _edited(escalation, text)
    if edited is not None:
        refuse_blank(edited)
        check = language_check(edited, customer_language=inquiry.language)
        refuse_unconfirmed_language(check, confirmed=confirm_language)
    sent = _send(escalation, inquiry, edited=edited, user=user)
    escalation.inquiry = inquiry  # as it stands now, for the events the decision sends
    audit_trail.draft_sent(
        escalation=escalation, edited=edited is not None, length=len(sent), actor=user.username
    )
    record = {
        "decision": OperatorDecision.SEND_REPLY,
        "params": {},
        "reason": "",
        "reply": "",
        "operator": user.username,
        "edited": edited is not None,
    }
    escalation_decided(escalation, record, user=user)
    if ai_may_answer(inquiry) and waits_for_ai(inquiry_id=inquiry.pk):
        enqueue_run(inquiry.pk)  # the customer wrote again while the draft waited
    return escalation


def _edited(escalation: Escalation, text: str | None) -> str | None:
    """The person's text when it differs from the draft (line breaks and the blanks around
    it aside); None when the draft goes as written."""
    if text is None:
        return None
    mine = text.replace("\r\n", "\n").strip()
    return None if mine == draft_text(escalation).strip() else mine


def _send(escalation: Escalation, inquiry: Inquiry, *, edited: str | None, user: User) -> str:
    """Store the reply (the AI's messages, or the person's version under the first one's
    thread id) and move the conversation on; the text the customer got."""
    draft = escalation.package["draft"]
    replies = [TurnReply.of(reply) for reply in draft["replies"]]
    language = draft.get("language") or inquiry.language
    if edited is not None:
        reply_store(
            inquiry=inquiry,
            reply=replies[0],
            turn=escalation.turn,
            language=language,
            author=user,
            text=edited,
        )
    else:
        for reply in replies:
            reply_store(inquiry=inquiry, reply=reply, turn=escalation.turn, language=language)
    sent = edited if edited is not None else draft_text(escalation)
    status = str(draft.get("status") or InquiryStatus.RESOLVED)
    if status == InquiryStatus.ESCALATED:
        status = _follow_up(escalation, inquiry, edited=edited is not None)
    if _not_solved_open(inquiry):
        status = InquiryStatus.ESCALATED  # the customer's "not solved" still waits for a person
    _move_on(inquiry, status=status, reply=sent)
    return sent


def _not_solved_open(inquiry: Inquiry) -> bool:
    """Whether the customer said an answer did not solve it and nobody has judged it yet."""
    reviews = inquiry.escalations.filter(kind=EscalationKind.REVIEW, status=EscalationStatus.OPEN)
    return reviews.filter(reason=NOT_SOLVED).exists()


def _follow_up(escalation: Escalation, inquiry: Inquiry, *, edited: bool) -> str:
    """The status after a follow-up's draft is sent: its words as the AI wrote them promise a
    person will follow up, so the follow-up opens now and the conversation stays escalated;
    a person's own words answered it, and the conversation is resolved."""
    if edited:
        return InquiryStatus.RESOLVED
    held = escalation.package.get("escalation") or {}
    package = {key: value for key, value in escalation.package.items() if key != "draft"}
    escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{escalation.wait_key}:follow-up",
        kind=EscalationKind.FOLLOW_UP,
        reason=str(held.get("reason") or "missing_knowledge"),
        summary=str(held.get("summary") or escalation.summary),
        package=package,
    )
    return InquiryStatus.ESCALATED


def _move_on(inquiry: Inquiry, *, status: str, reply: str) -> None:
    """The conversation where the turn would have left it, had its reply gone out at once."""
    now = timezone.now()
    inquiry.status, inquiry.reply = status, reply
    inquiry.resolved_at = now if status == InquiryStatus.RESOLVED else None
    inquiry.awaiting_until = (
        now + timedelta(hours=settings.NETSHOP_AWAITING_CUSTOMER_HOURS)
        if status == InquiryStatus.AWAITING_CUSTOMER
        else None
    )
    inquiry.save(update_fields=["status", "reply", "resolved_at", "awaiting_until", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry))
