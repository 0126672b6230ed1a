"""Keeping runs moving and the checkpoint tables bounded.

``runs_recover`` re-dispatches runs that no worker is advancing (a worker killed with its
task unacknowledged, a resume lost with a Redis restart). Re-dispatching a live run is
harmless: the inquiry's lease turns the second worker away.
``checkpoints_prune`` deletes the checkpoints of inquiries finished longer ago than a cut-off.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from agents.models import EscalationStatus, Inquiry, InquiryStatus
from agents.support.conversations.selectors import with_unanswered_messages
from agents.support.escalations.services import newest_wait_status
from agents.support.run_requests import enqueue_run
from agents.team.runs.checkpointer import get_checkpointer
from agents.team.runs.outcome import FINAL_STATUSES


def runs_recover(*, stale_after: timedelta = timedelta(minutes=2)) -> list[str]:
    """Dispatch again every run stuck in flight; returns the inquiry ids it dispatched."""
    cutoff = timezone.now() - stale_after
    # Judged by the wait's state, not by timestamps: clocks of two hosts may differ.
    stuck = (
        Inquiry.objects.filter(updated_at__lt=cutoff)
        .annotate(wait_status=newest_wait_status())
        .filter(
            Q(status__in=[InquiryStatus.QUEUED, InquiryStatus.RUNNING])
            | Q(status=InquiryStatus.AWAITING_APPROVAL, wait_status=EscalationStatus.DECIDED)
            # A customer's message no run took (its task lost with a worker or the broker).
            | Q(
                with_unanswered_messages(),
                status__in=[InquiryStatus.AWAITING_CUSTOMER, InquiryStatus.RESOLVED],
                human_owner__isnull=True,
            )
        )
    )
    ids = [str(pk) for pk in stuck.values_list("pk", flat=True)[:500]]
    for inquiry_id in ids:
        enqueue_run(inquiry_id)
    return ids


def checkpoints_prune(*, older_than: timedelta) -> int:
    """Delete the checkpoints of inquiries finished before ``now - older_than``."""
    cutoff = timezone.now() - older_than
    finished = Inquiry.objects.filter(status__in=FINAL_STATUSES, resolved_at__lt=cutoff)
    saver = get_checkpointer()
    count = 0
    for inquiry_id in finished.values_list("pk", flat=True).iterator():
        saver.delete_thread(str(inquiry_id))
        count += 1
    return count
