"""Celery tasks: take an id, call one service, retry only what can recover.

Delivery is at least once (late acknowledgement): running a task twice is safe because the
run continues from its checkpoint under a lease, and every side effect has an operation id.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_init, worker_process_init

from agents.support.run_requests import ADVANCE_INQUIRY_TASK
from agents.team.runs.driver import DATABASE_GONE, inquiry_advance
from agents.team.runs.warm_up import process_warm_up

logger = logging.getLogger(__name__)


@worker_process_init.connect
def _ready_for_runs(**_: object) -> None:
    """Each process that runs tasks (a prefork child, the solo pool's one) warms up before its
    first task; if it cannot (the database is down, say), runs build what they need as they go."""
    try:
        process_warm_up()
    except Exception:
        logger.exception("warm-up failed; the first run will build what it needs")


@worker_init.connect
def _threads_ready_for_runs(sender: object, **_: object) -> None:
    """The thread pool runs tasks in the worker's own process and sends no process signal:
    that process warms up before its threads start."""
    if "thread" in str(getattr(sender, "pool_cls", "")).lower():
        _ready_for_runs()


@shared_task(
    name=ADVANCE_INQUIRY_TASK,
    acks_late=True,
    autoretry_for=DATABASE_GONE,
    retry_backoff=True,
    max_retries=5,
)
def advance_inquiry(inquiry_id: str) -> str:
    """Start, continue or resume the inquiry's run until it finishes or waits for a person."""
    return inquiry_advance(inquiry_id=inquiry_id)


@shared_task
def recover_runs() -> int:
    """Periodic (beat): re-dispatch runs that no worker is advancing."""
    from agents.team.runs.recovery import runs_recover

    return len(runs_recover())


@shared_task
def prune_checkpoints(days: int = 30) -> int:
    """Periodic (beat): drop the checkpoints of inquiries finished more than ``days`` ago."""
    from datetime import timedelta

    from agents.team.runs.recovery import checkpoints_prune

    return checkpoints_prune(older_than=timedelta(days=days))


@shared_task
def lapse_conversations() -> int:
    """Periodic (beat): close conversations whose question to the customer went unanswered."""
    from agents.support.conversations.lapse import conversations_lapse

    return len(conversations_lapse())


@shared_task
def expire_claims() -> int:
    """Periodic (beat): put claims nobody worked on for a while back in the queue."""
    from agents.support.escalations.claims import claims_expire

    return len(claims_expire())


@shared_task
def move_overdue_approvals() -> int:
    """Periodic (beat): approvals past their deadline go to the managers, the customer told."""
    from agents.support.escalations.deadlines import overdue_approvals_move

    return len(overdue_approvals_move())
