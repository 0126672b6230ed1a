"""Handing runs to workers, after the transaction that asked for them commits.

Production: Celery tasks on the Redis broker, picked up by separate worker processes.
Embedded: the same task functions on a small thread pool inside the server process.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from celery import current_app
from django.conf import settings

from netshop.transactions import after_commit

logger = logging.getLogger(__name__)

# Named, not imported: the task module imports the runs, which dispatch through here.
ADVANCE_INQUIRY_TASK = "agents.runs.tasks.advance_inquiry"


@cache
def _embedded_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="netshop-worker")


def _submit(task_name: str, inquiry_id: str) -> None:
    if settings.NETSHOP_EMBEDDED_WORKER:
        _embedded_pool().submit(_run_embedded, _registered_task(task_name), inquiry_id)
    else:
        current_app.send_task(task_name, args=[inquiry_id])


def _registered_task(task_name: str) -> Any:
    """The task itself, for the in-process worker: loaded the way a Celery worker loads its
    task modules at boot, so a web process that never runs one does not pay for the import."""
    if task_name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[task_name]


def _run_embedded(task: Any, inquiry_id: str) -> None:
    from django.db import connection

    try:
        task.run(inquiry_id)
    except Exception:
        logger.exception("embedded run of %s failed", inquiry_id)
    finally:
        connection.close()


def enqueue_run(inquiry_id: object) -> None:
    """Start (or continue) the inquiry's run in a worker once this transaction commits."""
    after_commit(lambda: _submit(ADVANCE_INQUIRY_TASK, str(inquiry_id)))
