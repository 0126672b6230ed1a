"""Inquiries and their runs: what the storefront submitted and where the agents are with it."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone

from netshop.models import Customer


class InquiryStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    AWAITING_APPROVAL = "awaiting_approval"
    RESOLVED = "resolved"
    ESCALATED = "escalated"
    HANDLED_BY_HUMAN = "handled_by_human"
    FAILED = "failed"


class Inquiry(models.Model):
    """One customer inquiry; its id is the graph's thread id."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="inquiries")
    text = models.TextField()
    channel = models.CharField(max_length=20, default="web")
    idempotency_key = models.CharField(max_length=100, null=True, blank=True, unique=True)
    status = models.CharField(
        max_length=20, choices=InquiryStatus.choices, default=InquiryStatus.QUEUED
    )
    language = models.CharField(max_length=2, blank=True)
    intent = models.CharField(max_length=40, blank=True)
    agents = models.JSONField(default=list, blank=True)
    reply = models.TextField(blank=True)
    escalation = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "inquiries"

    def __str__(self) -> str:
        return f"{self.customer.code}: {self.text[:40]}"
