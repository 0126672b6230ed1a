"""Handing runs to workers, after the transaction that asked for them commits
(``netshop.task_dispatch``: Celery in production, a thread pool embedded)."""

from __future__ import annotations

from netshop.task_dispatch import task_submit
from netshop.transactions import after_commit

# Named, not imported: the task module imports the runs, which dispatch through here.
ADVANCE_INQUIRY_TASK = "agents.team.runs.tasks.advance_inquiry"


def _submit(task_name: str, inquiry_id: str) -> None:
    task_submit(task_name, inquiry_id, pool="runs")


def enqueue_run(inquiry_id: object) -> None:
    """Start (or continue) the inquiry's run in a worker once this transaction commits."""
    after_commit(lambda: run_submit(str(inquiry_id)))


def run_submit(inquiry_id: str) -> None:
    """Hand the inquiry's run to a worker now (for a caller already past its commit); raises
    if the broker refuses it."""
    _submit(ADVANCE_INQUIRY_TASK, inquiry_id)
