"""The webhooks' tables: the outbox of deliveries and the last status each subscriber heard.

Imported at the end of ``netshop/models.py`` so Django registers them with the ``netshop`` app.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone


class WebhookEvent(models.TextChoices):
    """What a storefront hears of a conversation it submitted."""

    REPLIED = "conversation.replied", "conversation replied"
    AWAITING_APPROVAL = "conversation.awaiting_approval", "conversation awaiting approval"
    HANDED_TO_PERSON = "conversation.handed_to_person", "conversation handed to a person"
    RESOLVED = "conversation.resolved", "conversation resolved"
    FEEDBACK = "conversation.feedback", "customer feedback on an answer"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "pending"
    DELIVERED = "delivered", "delivered"
    FAILED = "failed", "failed (gave up)"


class WebhookDelivery(models.Model):
    """One event for one storefront: sent until its receiver answers 2xx or the retry
    window (``NETSHOP_WEBHOOK_RETRY_FOR_S``) closes. ``id`` is the delivery id the receiver
    deduplicates on; ``dedupe_key`` makes recording the same occurrence twice one row."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    token = models.ForeignKey(
        "netshop.ApiToken", on_delete=models.CASCADE, related_name="webhook_deliveries"
    )
    event = models.CharField(max_length=40, choices=WebhookEvent.choices)
    payload = models.JSONField()
    # No foreign key: the conversation lives in ``agents``, which ``netshop`` never imports.
    subject_id = models.UUIDField(null=True, blank=True, db_index=True)
    dedupe_key = models.CharField(max_length=120, null=True, blank=True)  # noqa: DJ001
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "webhook deliveries"
        indexes = [models.Index(fields=["status", "next_attempt_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["token", "dedupe_key"], name="webhook_delivery_once_per_occurrence"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.id}"


class WebhookSubjectStatus(models.Model):
    """The last status a storefront's subscription saw a conversation in, so a status event
    goes out on a change into that status, not on every save that repeats it."""

    token = models.ForeignKey("netshop.ApiToken", on_delete=models.CASCADE, related_name="+")
    subject_id = models.UUIDField()
    status = models.CharField(max_length=40)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["token", "subject_id"], name="webhook_subject_status_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.subject_id}: {self.status}"
