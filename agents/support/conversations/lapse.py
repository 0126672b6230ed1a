"""Questions nobody answered: a conversation that waited past its deadline is closed politely.

The AI asked the customer something and holds no worker while it waits (``awaiting_until``).
When the wait lapses the customer is told, in their language, that the conversation is closed
and that a reply still reopens it; no run is started and nothing is done on their behalf.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from agents.models import Inquiry, InquiryStatus
from agents.support import audit_trail
from agents.support.conversations.messages import system_message_store
from agents.support.events.bus import publish
from agents.support.events.payloads import inquiry_payload
from netshop.audit import AuditAction

LAPSE_BATCH = 200


def conversations_lapse() -> list[str]:
    """Close every conversation whose question to the customer went unanswered past its
    deadline; returns their ids. Safe to run concurrently (rows are locked and skipped)."""
    closed: list[str] = []
    while batch := _lapse_batch():
        closed += batch
    return closed


@transaction.atomic
def _lapse_batch() -> list[str]:
    lapsed = (
        Inquiry.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("customer")
        .filter(
            status=InquiryStatus.AWAITING_CUSTOMER,
            human_owner__isnull=True,
            awaiting_until__lt=timezone.now(),
        )
        .order_by("awaiting_until")[:LAPSE_BATCH]
    )
    ids = []
    for inquiry in lapsed:
        _close_unanswered(inquiry)
        ids.append(str(inquiry.pk))
    return ids


def _close_unanswered(inquiry: Inquiry) -> None:
    text = system_message_store(
        inquiry=inquiry, key="conversation.lapsed", thread_id=f"{inquiry.pk}:{inquiry.turns}:lapsed"
    )
    inquiry.status, inquiry.reply = InquiryStatus.RESOLVED, text
    inquiry.resolved_at, inquiry.awaiting_until = timezone.now(), None
    inquiry.save(update_fields=["status", "reply", "resolved_at", "awaiting_until", "updated_at"])
    audit_trail.conversation_changed(
        inquiry_id=inquiry.pk, action=AuditAction.CONVERSATION_CLOSED, actor="system"
    )
    publish("inquiry.updated", inquiry_payload(inquiry))
