"""Handing runs to workers, after the transaction that asked for them commits.

Production: Celery tasks on the Redis broker, picked up by separate worker processes.
Embedded: the same task functions on a small thread pool inside the server process.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from django.conf import settings

from netshop.transactions import after_commit

logger = logging.getLogger(__name__)


@cache
def _embedded_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="netshop-worker")


def _submit(task: Any, inquiry_id: str) -> None:
    if settings.NETSHOP_EMBEDDED_WORKER:
        _embedded_pool().submit(_run_embedded, task, inquiry_id)
    else:
        task.delay(inquiry_id)


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
    from agents.tasks import advance_inquiry

    after_commit(lambda: _submit(advance_inquiry, str(inquiry_id)))


def enqueue_resume(inquiry_id: object) -> None:
    """Resume the inquiry's run with its decisions in a worker once this transaction commits."""
    enqueue_run(inquiry_id)
