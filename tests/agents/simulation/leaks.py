"""What a simulation must not touch in the shop's own database, mail and broker: counted before
and after (``Footprint.now()``)."""

from __future__ import annotations

from dataclasses import dataclass

import redis
from django.conf import settings
from django.core import mail

from agents.models import ConsoleEvent, Escalation, Inquiry
from netshop.audit.models import AuditEntry
from netshop.webhooks.models import WebhookDelivery


def _audit_head() -> int:
    return AuditEntry.objects.order_by("-seq").values_list("seq", flat=True).first() or 0


def _last_event() -> int:
    return ConsoleEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0


def _length(broker: redis.Redis, queue: str) -> int:
    length = broker.llen(queue)
    assert isinstance(length, int)
    return length


@dataclass(frozen=True)
class Footprint:
    """The production audit chain's head, the queue, conversations, live events, webhook
    deliveries, mail sent and tasks waiting on the broker."""

    audit_entries: int
    audit_head: int
    escalations: int
    inquiries: int
    console_events: int
    webhook_deliveries: int
    mails: int
    broker_tasks: int

    @classmethod
    def now(cls) -> Footprint:
        broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        return cls(
            audit_entries=AuditEntry.objects.count(),
            audit_head=_audit_head(),
            escalations=Escalation.objects.count(),
            inquiries=Inquiry.objects.count(),
            console_events=_last_event(),
            webhook_deliveries=WebhookDelivery.objects.count(),
            mails=len(mail.outbox),
            broker_tasks=sum(_length(broker, queue) for queue in ("celery", "webhooks")),
        )
