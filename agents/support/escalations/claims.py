"""Who holds an escalation or a conversation: claims, releases, assignment, idle claims.

An operator claims an open escalation nobody holds and lets it go; they may not take another
operator's (409 naming the holder). A manager may release or take over any claim. Anyone on
staff may assign what they hold, or what nobody holds, to a colleague (an active operator or
manager); a manager may reassign anything. A claim whose holder shows no activity for
``NETSHOP_CLAIM_TIMEOUT_MINUTES`` goes back to the queue (``claims_expire``).

"Activity" is what a holder does with the escalation through the services: claiming or being
assigned it, previewing a decision's reply, attempting a decision (refused or not). It is one
column (``claim_active_at``) written by one UPDATE, never a page view or a socket frame.

Every change locks the escalation's row, is audited and published after commit.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from agents.models import (
    MANAGERS_QUEUE,
    OPERATORS_QUEUE,
    Escalation,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
)
from agents.support import audit_trail
from agents.support.escalations.services import (
    escalation_locked,
    refuse_if_claimed_by_other,
    refuse_if_decided,
)
from agents.support.events.bus import publish
from agents.support.events.names import EventName
from agents.support.events.payloads import escalation_payload, inquiry_payload
from netshop.audit import AuditAction
from netshop.errors import DomainError
from netshop.roles import Role, user_has_role
from netshop.transactions import retry_conflicts

SWEEP_BATCH = 200
SYSTEM = "system"


def waiting_queue(escalation: Escalation) -> str:
    """The queue an escalation nobody holds waits in: the managers' once it is overdue or
    awaits a manager's second approval."""
    if escalation.overdue_at or escalation.awaits_second_approval:
        return MANAGERS_QUEUE
    return OPERATORS_QUEUE


def _holder(escalation: Escalation) -> str | None:
    return escalation.claimed_by.username if escalation.claimed_by else None


def claim_may_change(escalation: Escalation, user: Any) -> bool:
    """Whether ``user`` may claim, release or assign it: operators what they hold or nobody
    holds, managers anything (the console offers the controls by this rule)."""
    if escalation.claimed_by_id in (None, user.pk):
        return True
    return user_has_role(user, Role.MANAGER)


def _refuse_unless_may_change(escalation: Escalation, user: User) -> None:
    if not claim_may_change(escalation, user):
        refuse_if_claimed_by_other(escalation, user)


def _hold(escalation: Escalation, user: User | None) -> None:
    now = timezone.now()
    escalation.claimed_by = user
    escalation.claimed_at = escalation.claim_active_at = now if user else None
    escalation.owner = user.username if user else waiting_queue(escalation)
    escalation.save(update_fields=["claimed_by", "claimed_at", "claim_active_at", "owner"])


def _announce(event: EventName, escalation: Escalation, **extra: Any) -> None:
    """The escalation as every event carries it, and who held it before when that says
    more than the event's name (a take-over, someone else's claim released)."""
    publish(event, escalation_payload(escalation) | {k: v for k, v in extra.items() if v})


@retry_conflicts
@transaction.atomic
def escalation_claim(*, escalation_id: UUID | str, user: User) -> Escalation:
    """Take the escalation; a manager takes it over from whoever holds it."""
    escalation = escalation_locked(escalation_id)
    refuse_if_decided(escalation)
    _refuse_unless_may_change(escalation, user)
    if escalation.claimed_by_id == user.pk:
        return escalation
    previous = _holder(escalation)
    _hold(escalation, user)
    if previous is None:
        audit_trail.claim_changed(escalation=escalation, username=user.username, claimed=True)
    else:
        audit_trail.claim_moved(
            escalation=escalation,
            action=AuditAction.ESCALATION_CLAIMED,
            actor=user.username,
            previous=previous,
        )
    _announce("escalation.claimed", escalation, previous=previous)
    return escalation


@retry_conflicts
@transaction.atomic
def escalation_release(*, escalation_id: UUID | str, user: User) -> Escalation:
    """Put the escalation back in its queue; a manager may release anyone's claim."""
    escalation = escalation_locked(escalation_id)
    refuse_if_decided(escalation)
    _refuse_unless_may_change(escalation, user)
    if escalation.claimed_by_id is None:
        return escalation
    previous = _holder(escalation)
    _hold(escalation, None)
    if previous == user.username:
        audit_trail.claim_changed(escalation=escalation, username=user.username, claimed=False)
    else:
        audit_trail.claim_moved(
            escalation=escalation,
            action=AuditAction.ESCALATION_RELEASED,
            actor=user.username,
            previous=previous,
        )
    _announce(
        "escalation.released", escalation, previous=previous if previous != user.username else None
    )
    return escalation


def colleague_get(*, username: str) -> User:
    """The active operator or manager called ``username``, or the refusal naming them."""
    colleague = User.objects.filter(username=username, is_active=True).first()
    if colleague is None or not user_has_role(colleague, Role.OPERATOR):
        raise DomainError("assignee_not_colleague", who=username[:150])
    return colleague


def colleagues_assignable() -> QuerySet[User]:
    """Who an escalation or a conversation may be given to, by username."""
    staff = Q(is_staff=True, groups__name__in=[Role.OPERATOR, Role.MANAGER])
    return (
        User.objects.filter(Q(is_superuser=True) | staff, is_active=True)
        .distinct()
        .order_by("username")
    )


@retry_conflicts
@transaction.atomic
def escalation_assign(*, escalation_id: UUID | str, user: User, assignee: str) -> Escalation:
    """Give the escalation to a colleague: it is theirs as if they had claimed it."""
    colleague = colleague_get(username=assignee)
    escalation = escalation_locked(escalation_id)
    refuse_if_decided(escalation)
    if escalation.claimed_by_id == colleague.pk:  # a repeat (a double click) changes nothing
        return escalation
    _refuse_unless_may_change(escalation, user)
    previous = _holder(escalation)
    _hold(escalation, colleague)
    audit_trail.claim_moved(
        escalation=escalation,
        action=AuditAction.ESCALATION_ASSIGNED,
        actor=user.username,
        previous=previous,
    )
    _announce("escalation.assigned", escalation, previous=previous, assigned_by=user.username)
    return escalation


def claim_touch(*, escalation_id: UUID | str, user: User) -> bool:
    """Note activity by the holder (a preview, a decision attempt): one UPDATE, no lock wait
    beyond the row's; nothing happens for anyone else. Its own transaction, so a refused
    decision still counts as activity."""
    touched = Escalation.objects.filter(
        pk=escalation_id, claimed_by=user, status=EscalationStatus.OPEN
    ).update(claim_active_at=timezone.now())
    return touched > 0


def claims_expire() -> list[str]:
    """Release every claim idle past the timeout; returns the escalations' ids. Safe when
    two sweeps run at once: each row is locked and skipped by the other, and re-checked."""
    released: list[str] = []
    while batch := _expire_batch():
        released += batch
    return released


@transaction.atomic
def _expire_batch() -> list[str]:
    cutoff = timezone.now() - timedelta(minutes=settings.NETSHOP_CLAIM_TIMEOUT_MINUTES)
    idle = (
        Escalation.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("claimed_by")
        .annotate(active=Coalesce("claim_active_at", "claimed_at"))
        .filter(status=EscalationStatus.OPEN, claimed_by__isnull=False, active__lt=cutoff)
        .order_by("active")[:SWEEP_BATCH]
    )
    ids = []
    for escalation in idle:
        previous = _holder(escalation)
        _hold(escalation, None)
        audit_trail.claim_moved(
            escalation=escalation,
            action=AuditAction.ESCALATION_CLAIM_TIMED_OUT,
            actor=SYSTEM,
            previous=previous,
        )
        _announce("escalation.claim_timed_out", escalation, previous=previous)
        ids.append(str(escalation.pk))
    return ids


# --- Conversations ----------------------------------------------------------------------


@retry_conflicts
@transaction.atomic
def conversation_assign(*, inquiry_id: UUID | str, user: User, assignee: str) -> Inquiry:
    """Give a conversation to a colleague: they own it as if they had taken it over (the AI
    sends nothing). Its owner or a manager may hand it on; anyone on staff may give one that
    nobody owns."""
    colleague = colleague_get(username=assignee)
    inquiry = _locked_inquiry(inquiry_id)
    previous = inquiry.human_owner.username if inquiry.human_owner else ""
    if inquiry.human_owner_id == colleague.pk:  # a repeat changes nothing
        return inquiry
    if not conversation_may_assign(inquiry, user):
        raise DomainError("owned_by_other", who=previous)
    inquiry.human_owner, inquiry.status = colleague, InquiryStatus.HANDLED_BY_HUMAN
    inquiry.awaiting_until = inquiry.resolved_at = None
    inquiry.save(
        update_fields=["human_owner", "status", "awaiting_until", "resolved_at", "updated_at"]
    )
    audit_trail.conversation_assigned(
        inquiry_id=inquiry.pk, actor=user.username, assignee=colleague.username, previous=previous
    )
    publish("inquiry.updated", inquiry_payload(inquiry))
    publish(
        "conversation.assigned",
        {
            "inquiry_id": str(inquiry.pk),
            "assignee": colleague.username,
            "previous": previous or None,
            "assigned_by": user.username,
        },
    )
    return inquiry


def conversation_may_assign(inquiry: Inquiry, user: Any) -> bool:
    """Its owner or a manager may hand a conversation on; anyone on staff if nobody owns it."""
    if inquiry.human_owner_id in (None, user.pk):
        return True
    return user_has_role(user, Role.MANAGER)


def _locked_inquiry(inquiry_id: UUID | str) -> Inquiry:
    inquiry = (
        Inquiry.objects.select_for_update(of=("self",))
        .select_related("human_owner")
        .filter(pk=inquiry_id)
        .first()
    )
    if inquiry is None:
        raise DomainError("inquiry_not_found", variant="by_id", id=inquiry_id)
    return inquiry
