"""Which staff are mailed about which escalation, exactly once each.

A mail is first *claimed*: a ``Notification`` row, unique per (escalation, kind, recipient),
inserted with ``ON CONFLICT DO NOTHING``, so sweeps running at once claim it once. It is then
sent by a task that locks the row (skipping it if another worker holds it), sends, and marks it
sent in the same transaction: a task delivered twice finds it sent. A row whose task was lost
is handed out again by the next sweep.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from agents.models import Escalation, EscalationKind, EscalationStatus
from netshop.roles import Role, user_has_role
from netshop.transactions import after_commit
from operators.models import Notification, NotificationKind, NotificationPreference
from operators.notifications import dispatch
from operators.notifications.mails import notification_mail
from operators.notifications.preferences import notification_preference_default, wants

logger = logging.getLogger(__name__)

# Large approvals older than this are no longer news: the sweep stops looking for them.
LARGE_APPROVAL_WINDOW = timedelta(days=1)
# A claimed mail still unsent after this long lost its task: the sweep hands it out again.
REDISPATCH_AFTER = timedelta(minutes=2)
# Mail about a deadline is pointless once the escalation is decided.
WHILE_OPEN = frozenset(
    {NotificationKind.DEADLINE_SOON, NotificationKind.OVERDUE, NotificationKind.SECOND_APPROVAL}
)
# Mailed to managers; the others go to operators (a deadline's to its holder once claimed).
TO_MANAGERS = frozenset({NotificationKind.OVERDUE, NotificationKind.SECOND_APPROVAL})


def notification_recipients(*, escalation: Escalation, kind: str) -> list[User]:
    """Active staff with an address who want ``kind``: managers for an overdue approval, and
    for a second approval those who have not approved it already; for a deadline, the
    escalation's holder alone once it is claimed."""
    staff = User.objects.filter(is_active=True, is_staff=True).exclude(email="").order_by("pk")
    if kind == NotificationKind.DEADLINE_SOON and escalation.claimed_by_id is not None:
        staff = staff.filter(pk=escalation.claimed_by_id)
    if kind == NotificationKind.SECOND_APPROVAL:
        staff = staff.exclude(username__in=_approvers(escalation))
    role = Role.MANAGER if kind in TO_MANAGERS else Role.OPERATOR
    saved = {p.user_id: p for p in NotificationPreference.objects.filter(user__in=staff)}
    return [
        user
        for user in staff
        if user_has_role(user, role)
        and wants(saved.get(user.pk) or notification_preference_default(user=user), kind)
    ]


@transaction.atomic
def notifications_claim(*, escalation: Escalation, kind: str) -> list[int]:
    """Claim ``kind``'s mail about ``escalation`` for each recipient (once) and hand the unsent
    ones to workers after commit; returns their ids."""
    rows = [
        Notification(escalation=escalation, kind=kind, recipient=user)
        for user in notification_recipients(escalation=escalation, kind=kind)
    ]
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    unsent = Notification.objects.filter(escalation=escalation, kind=kind, sent_at__isnull=True)
    ids = list(unsent.values_list("pk", flat=True))
    _dispatch_after_commit(ids)
    return ids


def notification_send(*, notification_id: int) -> bool:
    """Send one claimed mail unless it is sent, being sent, or moot; True if this call sent it.

    An SMTP failure raises: the transaction rolls back, the row stays unsent, and the task
    (or the next sweep) tries again.
    """
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("escalation", "recipient")
            .filter(pk=notification_id, sent_at__isnull=True)
            .first()
        )
        if row is None or _moot(row):
            return False
        mail = notification_mail(escalation=row.escalation, kind=row.kind, recipient=row.recipient)
        message = EmailMessage(mail.subject, mail.body, to=[row.recipient.email])
        message.extra_headers["Content-Language"] = mail.language
        message.send()
        row.sent_at = timezone.now()
        row.save(update_fields=["sent_at"])
    logger.info("notified %s of %s %s", row.recipient_id, row.kind, row.escalation_id)
    return True


def notifications_sweep(*, now: Any = None) -> int:
    """Periodic: claim the mails due now (deadlines near, approvals overdue, large approvals
    whose event path was lost) and hand out claimed mails whose task was lost; returns how
    many were claimed or handed out."""
    now = now or timezone.now()
    count = 0
    for kind, due in _due(now).items():
        unclaimed = due.exclude(
            Exists(Notification.objects.filter(escalation=OuterRef("pk"), kind=kind))
        )
        for escalation in unclaimed.select_related("claimed_by"):
            count += len(notifications_claim(escalation=escalation, kind=kind))
    lost = _lost(now)
    _dispatch_after_commit(lost)
    return count + len(lost)


def on_event_published(sender: Any, event: str, payload: dict[str, Any], **kwargs: Any) -> None:
    """``escalation.created`` of a large approval, or a first approval that awaits a manager's
    second: mail it, after the change commits."""
    if event == "escalation.created" and _large_approval(payload):
        kind = NotificationKind.LARGE_APPROVAL
    elif event == "escalation.action_decided" and payload.get("awaits_second_approval"):
        kind = NotificationKind.SECOND_APPROVAL
    else:
        return
    escalation_id = payload["id"]
    after_commit(lambda: dispatch.submit(dispatch.NOTIFY_TASK, escalation_id, kind))


def notify_escalation(*, escalation_id: str, kind: str) -> list[int]:
    """The task behind the event path: claim (and so send) ``kind``'s mails now."""
    escalation = Escalation.objects.select_related("claimed_by").filter(pk=escalation_id).first()
    if escalation is None:
        return []
    return notifications_claim(escalation=escalation, kind=kind)


def _large_approval(payload: dict[str, Any]) -> bool:
    return (
        payload.get("kind") == EscalationKind.APPROVAL
        and int(payload.get("amount_at_risk") or 0) >= settings.NETSHOP_NOTIFY_APPROVAL_YEN
    )


def _due(now: Any) -> dict[str, QuerySet[Escalation]]:
    waiting = Escalation.objects.filter(status=EscalationStatus.OPEN)
    soon = now + timedelta(minutes=settings.NETSHOP_NOTIFY_DEADLINE_MINUTES)
    return {
        NotificationKind.DEADLINE_SOON: waiting.filter(deadline__gt=now, deadline__lte=soon),
        NotificationKind.OVERDUE: waiting.filter(kind=EscalationKind.APPROVAL, deadline__lte=now),
        NotificationKind.LARGE_APPROVAL: waiting.filter(
            kind=EscalationKind.APPROVAL,
            amount_at_risk__gte=settings.NETSHOP_NOTIFY_APPROVAL_YEN,
            created_at__gte=now - LARGE_APPROVAL_WINDOW,
        ),
        # The event path mails it at once; the sweep catches one whose task was lost.
        NotificationKind.SECOND_APPROVAL: waiting.filter(awaits_second_approval=True),
    }


def _lost(now: Any) -> list[int]:
    stale = Notification.objects.filter(
        sent_at__isnull=True, created_at__lte=now - REDISPATCH_AFTER
    ).filter(Q(escalation__status=EscalationStatus.OPEN) | ~Q(kind__in=WHILE_OPEN))
    return list(stale.values_list("pk", flat=True)[:500])


def _moot(row: Notification) -> bool:
    if row.kind == NotificationKind.SECOND_APPROVAL and not row.escalation.awaits_second_approval:
        return True
    return row.kind in WHILE_OPEN and row.escalation.status != EscalationStatus.OPEN


def _approvers(escalation: Escalation) -> set[str]:
    """Everyone who has approved one of the escalation's actions."""
    entries = (escalation.action_decisions or {}).values()
    return {name for entry in entries for name in entry["record"].get("approvals", [])}


def _dispatch_after_commit(ids: list[int]) -> None:
    for notification_id in ids:
        after_commit(
            lambda notification_id=notification_id: dispatch.submit(  # type: ignore[misc]
                dispatch.SEND_TASK, notification_id
            )
        )
