"""Celery tasks: each takes ids and calls one service; all are safe to run twice or at once."""

from __future__ import annotations

from celery import shared_task

from operators.notifications import services
from operators.notifications.dispatch import NOTIFY_TASK, SEND_TASK, SWEEP_TASK


@shared_task(name=NOTIFY_TASK, acks_late=True)
def notify_escalation(escalation_id: str, kind: str) -> int:
    return len(services.notify_escalation(escalation_id=escalation_id, kind=kind))


@shared_task(
    name=SEND_TASK,
    acks_late=True,
    autoretry_for=(OSError,),  # smtplib's errors are OSErrors: the server may come back
    retry_backoff=30,
    max_retries=5,
)
def send_notification(notification_id: int) -> bool:
    return services.notification_send(notification_id=notification_id)


@shared_task(name=SWEEP_TASK)
def notifications_sweep() -> int:
    """Periodic (beat): deadlines near, approvals overdue, mails whose task was lost."""
    return services.notifications_sweep()
