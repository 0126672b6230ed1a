"""Handing notification work to a worker: Celery in production, a small thread pool embedded.

Named, not imported: the task module imports the services, which dispatch through here.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from celery import current_app
from django.conf import settings

logger = logging.getLogger(__name__)

NOTIFY_TASK = "operators.notifications.tasks.notify_escalation"
SEND_TASK = "operators.notifications.tasks.send_notification"
SWEEP_TASK = "operators.notifications.tasks.notifications_sweep"


def submit(task_name: str, *args: Any) -> None:
    """Run ``task_name`` with ``args`` in a worker (call it after commit)."""
    if settings.NETSHOP_EMBEDDED_WORKER:
        _embedded_pool().submit(_run_embedded, task_name, args)
    else:
        current_app.send_task(task_name, args=list(args))


@cache
def _embedded_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="netshop-notify")


def _run_embedded(task_name: str, args: tuple[Any, ...]) -> None:
    from django.db import connection

    try:
        if task_name not in current_app.tasks:
            current_app.loader.import_default_modules()
        current_app.tasks[task_name].run(*args)
    except Exception:
        logger.exception("embedded %s%r failed", task_name, args)
    finally:
        connection.close()
