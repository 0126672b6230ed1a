"""Deadlines that act: an approval still waiting past its deadline goes to the managers.

Once per escalation (``overdue_at`` is set in the same transaction): it leaves whoever held it
and joins the managers' queue, the customer is told once, in their language, that it takes
longer (an AI message keyed in the thread, so a retried or doubled sweep stores it once), and
the move is audited and published as ``escalation.overdue`` (which notifies the managers).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from agents.conversations.messages import message_store
from agents.escalations.claims import SYSTEM, waiting_queue
from agents.events import escalation_payload, inquiry_payload, publish
from agents.handoffs import audit_trail
from agents.models import Escalation, EscalationKind, EscalationStatus, Inquiry, MessageAuthor
from netshop.audit import AuditAction

SWEEP_BATCH = 200


def overdue_approvals_move() -> list[str]:
    """Move every approval past its deadline to the managers' queue; returns their ids.
    Safe when two sweeps run at once: rows are locked and skipped, and moved only once."""
    moved: list[str] = []
    while batch := _move_batch():
        moved += batch
    return moved


@transaction.atomic
def _move_batch() -> list[str]:
    now = timezone.now()
    overdue = (
        Escalation.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("claimed_by", "inquiry__customer")
        .filter(
            kind=EscalationKind.APPROVAL,
            status=EscalationStatus.OPEN,
            overdue_at__isnull=True,
            deadline__lt=now,
        )
        .order_by("deadline")[:SWEEP_BATCH]
    )
    ids = []
    for escalation in overdue:
        _move(escalation, now=now)
        ids.append(str(escalation.pk))
    return ids


def _move(escalation: Escalation, *, now: datetime) -> None:
    previous = escalation.claimed_by.username if escalation.claimed_by else None
    escalation.overdue_at = now
    escalation.claimed_by = escalation.claimed_at = escalation.claim_active_at = None
    escalation.owner = waiting_queue(escalation)
    escalation.save(
        update_fields=["overdue_at", "claimed_by", "claimed_at", "claim_active_at", "owner"]
    )
    audit_trail.claim_moved(
        escalation=escalation,
        action=AuditAction.ESCALATION_OVERDUE,
        actor=SYSTEM,
        previous=previous,
    )
    publish("escalation.overdue", escalation_payload(escalation) | {"previous": previous})
    _tell_customer_of_delay(escalation)


def _tell_customer_of_delay(escalation: Escalation) -> None:
    """Once per escalation; not while a person owns the conversation (they answer it)."""
    inquiry: Inquiry = escalation.inquiry
    if inquiry.human_owner_id is not None:
        return
    thread_id = f"{inquiry.pk}:{escalation.pk}:overdue"
    if inquiry.messages.filter(thread_id=thread_id).exists():
        return
    language = inquiry.language or inquiry.customer.language
    with translation.override(language):
        text = gettext(
            "Thank you for waiting. Your request needs a little longer than we expected: "
            "a member of our team is still checking it, and we will write to you here as soon "
            "as it is done."
        )
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text=text,
        channel=inquiry.channel,
        language=language,
        turn=inquiry.turns,
        thread_id=thread_id,
    )
    inquiry.reply = text
    inquiry.save(update_fields=["reply", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry))
