"""Handing a delivery's attempt to a worker, now or after a back-off.

Production: the Celery task on the Redis broker (a countdown for a retry). Embedded: the same
task on a small thread pool inside the server process, a timer for a retry. Either way the
beat sweep (``tasks.deliver_due_webhooks``) re-sends whatever is due and was never attempted.
"""

from __future__ import annotations

from netshop.task_dispatch import task_submit

# Named, not imported: the task module imports the services, which dispatch through here.
DELIVER_TASK = "netshop.webhooks.tasks.deliver_webhook"
SWEEP_TASK = "netshop.webhooks.tasks.deliver_due_webhooks"


def delivery_dispatch(delivery_id: object, *, countdown: float = 0.0) -> None:
    """Attempt the delivery in a worker, ``countdown`` seconds from now."""
    task_submit(DELIVER_TASK, str(delivery_id), pool="webhooks", countdown=countdown)
