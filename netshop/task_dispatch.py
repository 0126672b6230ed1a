"""Handing a named task to a worker, now or after a delay.

Production: the Celery task on the Redis broker, picked up by separate worker processes.
Embedded (``NETSHOP_EMBEDDED_WORKER``): the same task on a small thread pool inside the server
process, a timer for a delay. Tasks are named, not imported: a task module imports the
services, which dispatch through here.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from celery import current_app
from django.conf import settings

logger = logging.getLogger(__name__)

# The embedded shape's pools, by the work they do: runs, webhook deliveries, notifications,
# simulations (one at a time: each holds its sandbox).
EMBEDDED_POOL_SIZES = {"runs": 2, "webhooks": 2, "notifications": 1, "simulations": 1}


def task_submit(task_name: str, *args: Any, pool: str, countdown: float = 0.0) -> None:
    """Run ``task_name`` with ``args`` in a worker, ``countdown`` seconds from now (called
    after the transaction that asked for it commits)."""
    if not settings.NETSHOP_EMBEDDED_WORKER:
        current_app.send_task(task_name, args=list(args), countdown=countdown or None)
        return
    executor = _embedded_pool(pool)
    if countdown <= 0:
        executor.submit(_run_embedded, task_name, args)
        return
    timer = threading.Timer(countdown, executor.submit, args=(_run_embedded, task_name, args))
    timer.daemon = True
    timer.start()


@cache
def _embedded_pool(pool: str) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(
        max_workers=EMBEDDED_POOL_SIZES[pool], thread_name_prefix=f"netshop-{pool}"
    )


def _run_embedded(task_name: str, args: tuple[Any, ...]) -> None:
    from django.db import connection

    try:
        _registered_task(task_name).run(*args)
    except Exception:
        logger.exception("embedded %s%r failed", task_name, args)
    finally:
        connection.close()


def _registered_task(task_name: str) -> Any:
    """The task itself, for the in-process worker: loaded the way a Celery worker loads its
    task modules at boot, so a web process that never runs one does not pay for the import."""
    if task_name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[task_name]
