"""The audit log's one table: append-only rows, each chained to the one before by a keyed MAC.

Imported at the end of ``netshop/models.py`` so Django registers it with the ``netshop`` app.
PostgreSQL refuses UPDATE, DELETE and TRUNCATE on it (triggers, migrations 0002 and 0004), and
the app's own database role may only read and insert; ``audit_verify`` finds any row changed,
inserted or removed behind their backs, against the anchors kept outside the database.
"""

from __future__ import annotations

from django.db import models

# The ``prev_hash`` of the first entry: the chain has to start somewhere verifiable.
GENESIS = "0" * 64


class AuditEntry(models.Model):
    """One thing that happened. Content-free: ids, names, amounts, statuses, digests only.

    ``verdict``, ``reason`` and ``operation_id`` are empty strings when they do not apply
    (Django's convention for text columns), and hashed as such.
    """

    seq = models.BigAutoField(primary_key=True)
    created_at = models.DateTimeField(db_index=True)
    action = models.CharField(max_length=60)
    actor = models.CharField(max_length=150, db_index=True)
    # No foreign key: the inquiry lives in ``agents``, which ``netshop`` never imports.
    inquiry_id = models.UUIDField(null=True, blank=True, db_index=True)
    operation_id = models.CharField(max_length=120, blank=True, default="", db_index=True)
    verdict = models.CharField(max_length=40, blank=True, default="")
    reason = models.CharField(max_length=60, blank=True, default="")
    data = models.JSONField(default=dict, blank=True)
    # ``hash`` is the entry's HMAC-SHA256 (``netshop.audit.chain``); ``prev_hash`` its
    # predecessor's. The names predate the key and stay for the API and the CSV export.
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    # Which audit key signed the entry; empty for the plain SHA-256 entries from before.
    key_id = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["seq"]
        verbose_name = "audit entry"
        verbose_name_plural = "audit entries"
        indexes = [
            models.Index(fields=["action", "created_at"], name="audit_action_time"),
            models.Index(fields=["verdict", "created_at"], name="audit_verdict_time"),
        ]
        constraints = [
            # Two entries naming the same predecessor would fork the chain: refuse it here too,
            # whatever the lock in ``audit_record`` does.
            models.UniqueConstraint(fields=["prev_hash"], name="audit_linear_chain"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} by {self.actor}"
