"""Inquiries and their runs: what the storefront submitted and where the agents are with it."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from netshop.models import Customer


class InquiryStatus(models.TextChoices):
    """Where an inquiry is; also the run's status in the graph state (``InquiryState``)."""

    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    AWAITING_APPROVAL = "awaiting_approval", _("awaiting approval")
    RESOLVED = "resolved", _("resolved")
    ESCALATED = "escalated", _("escalated")
    HANDLED_BY_HUMAN = "handled_by_human", _("handled by a person")
    FAILED = "failed", _("failed")


class Inquiry(models.Model):
    """One customer inquiry; its id is the graph's thread id."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    customer = models.ForeignKey(Customer, on_delete=models.PROTECT, related_name="inquiries")
    text = models.TextField()
    channel = models.CharField(max_length=20, default="web")
    # NULL means "no key": the unique constraint only binds inquiries that carry one.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    status = models.CharField(
        max_length=20, choices=InquiryStatus.choices, default=InquiryStatus.QUEUED
    )
    language = models.CharField(max_length=2, blank=True)
    intent = models.CharField(max_length=40, blank=True)
    agents = models.JSONField(default=list, blank=True)
    reply = models.TextField(blank=True)
    escalation = models.JSONField(null=True, blank=True)
    handoffs = models.JSONField(
        default=list, blank=True, help_text="Content-free hand-off receipts with their verdicts."
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "inquiries"
        constraints = [
            models.UniqueConstraint(
                fields=["customer", "idempotency_key"], name="inquiry_idempotency_per_customer"
            )
        ]

    def __str__(self) -> str:
        return f"{self.customer.code}: {self.text[:40]}"


class EscalationKind(models.TextChoices):
    """Why a run waits for a person; the labels are what the console shows."""

    APPROVAL = "approval", _("approval needed")
    FAILURE = "failure", _("failure")
    FOLLOW_UP = "follow_up", _("follow-up")
    CUSTOMER_REQUEST = "customer_request", _("customer asked for a person")


class EscalationStatus(models.TextChoices):
    OPEN = "open"
    DECIDED = "decided"


class Escalation(models.Model):
    """A wait for a person (seed 002): owner, reason, deadline, resume token, and the package.

    ``wait_key`` names the wait it records (the graph's interrupt id, or the run's final
    escalation), so recording the same wait twice finds the first row.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    inquiry = models.ForeignKey(Inquiry, on_delete=models.CASCADE, related_name="escalations")
    wait_key = models.CharField(max_length=120, unique=True)
    kind = models.CharField(max_length=20, choices=EscalationKind.choices)
    reason = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    actions = models.JSONField(default=list, blank=True)
    package = models.JSONField(default=dict, help_text="The hand-off package (SPEC 5.2).")
    amount_at_risk = models.PositiveIntegerField(default=0)
    owner = models.CharField(max_length=150, default="queue:operators")
    deadline = models.DateTimeField()
    resume_token_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    status = models.CharField(
        max_length=10, choices=EscalationStatus.choices, default=EscalationStatus.OPEN
    )
    claimed_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    decision = models.JSONField(null=True, blank=True)
    decided_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["deadline", "created_at"]
        indexes = [models.Index(fields=["status", "deadline"])]

    def __str__(self) -> str:
        return f"{self.kind} for {self.inquiry_id}"

    @property
    def is_overdue(self) -> bool:
        return self.status == EscalationStatus.OPEN and self.deadline < timezone.now()


class ConsoleEvent(models.Model):
    """Every live event, numbered: a console that lost its socket asks for what it missed."""

    id = models.BigAutoField(primary_key=True)
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"#{self.id} {self.type}"
