"""Keeping runs moving and the checkpoint tables bounded.

``runs_recover`` re-dispatches runs that no worker is advancing (a worker killed with its
task unacknowledged, a resume lost with a Redis restart). A run is live while a worker holds
its lease (a session advisory lock that dies with the worker's connection): one whose lease
nobody holds, unmoved for a short grace, has nobody advancing it, and is sent again within
seconds of its worker's death instead of minutes. Re-dispatching a live run is still harmless:
the inquiry's lease turns the second worker away.
``checkpoints_prune`` deletes the checkpoints of inquiries finished longer ago than a cut-off.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from agents.models import EscalationStatus, Inquiry, InquiryStatus
from agents.support.conversations.selectors import with_unanswered_messages
from agents.support.escalations.services import newest_wait_status
from agents.support.run_requests import run_submit
from agents.team.runs.checkpointer import get_checkpointer
from agents.team.runs.lease import leases_held, leases_visible
from agents.team.runs.outcome import FINAL_STATUSES
from agents.team.runs.resends import resend_forget, resends_claim
from netshop.transactions import after_commit

# At most this many runs are sent again per sweep; the next sweep takes the rest.
MAX_PER_SWEEP = 500


def runs_recover(*, stale_after: timedelta | None = None) -> list[str]:
    """Dispatch again every run in flight that no worker is advancing; returns their ids,
    oldest first.

    A run whose lease a worker holds is never sent again, however long it has run. One whose
    lease nobody holds is sent again once it has not moved for ``stale_after`` (by default the
    grace, ``NETSHOP_RUN_RECOVERY_GRACE_S``, in which a task just queued starts); where leases
    cannot be seen from here (SQLite) the age alone judges, by default over
    ``NETSHOP_RUN_STALE_S``. A run sent again is not sent again until a worker takes it or
    ``NETSHOP_RUN_REDISPATCH_S`` passes: a task waiting in a busy queue gets one copy behind it,
    not one per sweep.
    """
    visible = leases_visible()
    if stale_after is None:
        default = settings.NETSHOP_RUN_RECOVERY_GRACE_S if visible else settings.NETSHOP_RUN_STALE_S
        stale_after = timedelta(seconds=default)
    candidates = [str(pk) for pk in _in_flight(timezone.now() - stale_after)]
    if visible:
        held = leases_held(candidates)
        candidates = [inquiry_id for inquiry_id in candidates if inquiry_id not in held]
    dispatched = resends_claim(candidates, limit=MAX_PER_SWEEP)
    for inquiry_id in dispatched:
        after_commit(_sender(inquiry_id))
    return dispatched


def _in_flight(cutoff: datetime) -> QuerySet[Inquiry, object]:
    """Runs unmoved since ``cutoff`` that a worker still has to advance, oldest first."""
    # Judged by the wait's state, not by timestamps: clocks of two hosts may differ.
    return (
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
        .order_by("updated_at")
        .values_list("pk", flat=True)
    )


def _sender(inquiry_id: str) -> Callable[[], None]:
    def send_again() -> None:
        try:
            run_submit(inquiry_id)
        except Exception:
            resend_forget(inquiry_id)  # nothing left on the queue: the next sweep sends it
            raise

    return send_again


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
