"""Handing a delivery's attempt to a worker, now or after a back-off.

Production: the Celery task on the Redis broker (a countdown for a retry). Embedded: the same
task on a small thread pool inside the server process, a timer for a retry. Either way the
beat sweep (``tasks.deliver_due_webhooks``) re-sends whatever is due and was never attempted.
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

# Named, not imported: the task module imports the services, which dispatch through here.
DELIVER_TASK = "netshop.webhooks.tasks.deliver_webhook"
SWEEP_TASK = "netshop.webhooks.tasks.deliver_due_webhooks"


def delivery_dispatch(delivery_id: object, *, countdown: float = 0.0) -> None:
    """Attempt the delivery in a worker, ``countdown`` seconds from now."""
    if settings.NETSHOP_EMBEDDED_WORKER:
        _embedded_later(str(delivery_id), countdown)
    else:
        current_app.send_task(DELIVER_TASK, args=[str(delivery_id)], countdown=countdown or None)


@cache
def _embedded_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="netshop-webhooks")


def _embedded_later(delivery_id: str, countdown: float) -> None:
    if countdown <= 0:
        _embedded_pool().submit(_run_embedded, delivery_id)
        return
    timer = threading.Timer(countdown, _embedded_pool().submit, args=(_run_embedded, delivery_id))
    timer.daemon = True
    timer.start()


def _run_embedded(delivery_id: str) -> None:
    from django.db import connection

    try:
        _registered_task(DELIVER_TASK).run(delivery_id)
    except Exception:
        logger.exception("embedded webhook delivery %s failed", delivery_id)
    finally:
        connection.close()


def _registered_task(task_name: str) -> Any:
    if task_name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[task_name]
