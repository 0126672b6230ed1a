"""Deadlines that act: an approval or a draft still waiting past its deadline goes to the
managers.

Once per escalation (``overdue_at`` is set in the same transaction): it leaves whoever held it
and joins the managers' queue, the customer is told once, in their language, that it takes
longer (an AI message keyed in the thread, so a retried or doubled sweep stores it once), and
the move is audited and published as ``escalation.overdue`` (which notifies the managers).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from agents.models import Escalation, EscalationKind, EscalationStatus, Inquiry
from agents.support import audit_trail
from agents.support.conversations.messages import system_message_store
from agents.support.escalations.claims import SYSTEM, waiting_queue
from agents.support.events.bus import publish
from agents.support.events.payloads import escalation_payload, inquiry_payload
from netshop.audit import AuditAction
from netshop.transactions import retry_conflicts

SWEEP_BATCH = 200


def overdue_approvals_move() -> list[str]:
    """Move every approval past its deadline to the managers' queue; returns their ids.
    Safe when two sweeps run at once: each is moved under its rows' locks, re-checked."""
    moved: list[str] = []
    seen: set[UUID] = set()
    while batch := _overdue(seen):
        for escalation_id, inquiry_id in batch:
            seen.add(escalation_id)
            if _move_one(escalation_id=escalation_id, inquiry_id=inquiry_id):
                moved.append(str(escalation_id))
    return moved


# The waits a customer is waiting on: an approval, and a reply a person has to send.
OVERDUE_KINDS = (EscalationKind.APPROVAL, EscalationKind.DRAFT)


def _overdue_filter() -> Q:
    return Q(
        kind__in=OVERDUE_KINDS,
        status=EscalationStatus.OPEN,
        overdue_at__isnull=True,
        deadline__lt=timezone.now(),
    )


def _overdue(seen: set[UUID]) -> list[tuple[UUID, UUID]]:
    """The next overdue approvals (unlocked: ``_move_one`` locks and re-checks each)."""
    rows = Escalation.objects.filter(_overdue_filter()).exclude(pk__in=seen).order_by("deadline")
    return list(rows.values_list("pk", "inquiry_id")[:SWEEP_BATCH])


@retry_conflicts
@transaction.atomic
def _move_one(*, escalation_id: UUID, inquiry_id: UUID) -> bool:
    """Lock the inquiry, then its escalation (the documented lock order), and move it if it
    is still overdue and unmoved: a sweep that waited for another finds it moved."""
    inquiry = (
        Inquiry.objects.select_for_update(of=("self",))
        .select_related("customer")
        .get(pk=inquiry_id)
    )
    escalation = (
        Escalation.objects.select_for_update(of=("self",))
        .select_related("claimed_by")
        .filter(_overdue_filter(), pk=escalation_id)
        .first()
    )
    if escalation is None:
        return False
    _move(escalation, inquiry=inquiry, now=timezone.now())
    return True


def _move(escalation: Escalation, *, inquiry: Inquiry, now: datetime) -> None:
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
    _tell_customer_of_delay(escalation, inquiry)


def _tell_customer_of_delay(escalation: Escalation, inquiry: Inquiry) -> None:
    """Once per escalation; not while a person owns the conversation (they answer it)."""
    if inquiry.human_owner_id is not None:
        return
    thread_id = f"{inquiry.pk}:{escalation.pk}:overdue"
    if inquiry.messages.filter(thread_id=thread_id).exists():
        return
    text = system_message_store(inquiry=inquiry, key="escalation.overdue", thread_id=thread_id)
    inquiry.reply = text
    inquiry.save(update_fields=["reply", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry))
