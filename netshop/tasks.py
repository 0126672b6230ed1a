"""The shop's periodic tasks (beat)."""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task
def audit_anchor() -> str:
    """Periodic (beat, every minute): anchor the audit head outside the database."""
    from netshop.audit.anchors import audit_anchor as anchor_head

    result = anchor_head()
    if result.status == "refused":
        logger.error("audit head not anchored: %s", result.detail)
    return result.status
