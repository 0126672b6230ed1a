"""Handing notification work to a worker (``netshop.task_dispatch``: Celery in production, a
small thread pool embedded).

Named, not imported: the task module imports the services, which dispatch through here.
"""

from __future__ import annotations

from typing import Any

from netshop.task_dispatch import task_submit

NOTIFY_TASK = "operators.notifications.tasks.notify_escalation"
SEND_TASK = "operators.notifications.tasks.send_notification"
SWEEP_TASK = "operators.notifications.tasks.notifications_sweep"


def submit(task_name: str, *args: Any) -> None:
    """Run ``task_name`` with ``args`` in a worker (call it after commit)."""
    task_submit(task_name, *args, pool="notifications")
