"""Celery tasks: one attempt of one delivery, and the sweep that makes a lost task harmless.

Both are safe to run twice or at once (late acknowledgement, several workers): an attempt is
claimed under a row lock before anything is sent.
"""

from __future__ import annotations

from celery import shared_task

from netshop.webhooks.dispatch import DELIVER_TASK, SWEEP_TASK
from netshop.webhooks.services import deliveries_dispatch_due, delivery_send


@shared_task(name=DELIVER_TASK, acks_late=True)
def deliver_webhook(delivery_id: str) -> str:
    """Send the delivery's due attempt (if nobody else holds it) and schedule the next."""
    return delivery_send(delivery_id=delivery_id)


@shared_task(name=SWEEP_TASK)
def deliver_due_webhooks() -> int:
    """Periodic (beat): hand every due, unsent delivery to a worker."""
    return len(deliveries_dispatch_due())
