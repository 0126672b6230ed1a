"""No delivery lost across a worker kill, with a real Celery worker on the test Redis.

Given a delivery committed in the outbox, when its task is lost before any worker ran it, or
the worker sending it is killed (SIGKILL) mid-request, then the row is still pending and the
beat sweep hands it to a worker that delivers it, under the same delivery id.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.utils import timezone

from netshop.celery import app
from netshop.models import ApiToken, WebhookDelivery
from netshop.webhooks.models import DeliveryStatus, WebhookEvent
from netshop.webhooks.services import deliveries_dispatch_due, delivery_enqueue
from tests.support.webhook_receiver import Slow, WebhookReceiver
from tests.support.workers import Worker, wait_for_workers, wait_until, worker_env

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

# The worker's send waits this long, so a request the receiver holds is still in flight; and
# the receiver is on 127.0.0.1, a private destination.
WORKER_ENV = {"NETSHOP_WEBHOOK_TIMEOUT_S": "60", "NETSHOP_WEBHOOK_ALLOW_PRIVATE": "1"}


@contextmanager
def worker(name: str) -> Iterator[Worker]:
    process = Worker(f"{name}-{os.getpid()}", worker_env(WORKER_ENV))
    try:
        wait_for_workers([process.name], timeout=90)
        yield process
    finally:
        process.stop()


def enqueued(token: ApiToken) -> WebhookDelivery:
    delivery = delivery_enqueue(
        token_id=token.pk, event=WebhookEvent.REPLIED, data={"inquiry_id": "i-1"}
    )
    assert delivery is not None
    return delivery


def row(delivery: WebhookDelivery) -> tuple[str, int]:
    delivery.refresh_from_db()
    return delivery.status, delivery.attempts


def test_a_delivery_whose_task_was_lost_is_delivered_by_the_sweep(
    token: ApiToken, receiver: WebhookReceiver
) -> None:
    app.control.purge()
    delivery = enqueued(token)  # committed; its task goes to the broker...
    app.control.purge()  # ...and is lost there (a broker restarted without persistence)
    assert row(delivery) == (DeliveryStatus.PENDING, 0)

    with worker("sweep"):
        assert deliveries_dispatch_due() == [delivery.pk]
        wait_until(lambda: row(delivery)[0] == DeliveryStatus.DELIVERED, timeout=60)

    [request] = receiver.requests
    assert request.header("NetShop-Webhook-Id") == str(delivery.pk)
    assert row(delivery) == (DeliveryStatus.DELIVERED, 1)


def test_a_worker_killed_mid_send_loses_nothing(token: ApiToken, receiver: WebhookReceiver) -> None:
    app.control.purge()
    receiver.script(Slow(120))  # the first request hangs until its worker is gone
    with worker("killed") as doomed:
        delivery = enqueued(token)
        receiver.wait_for(1, timeout=60)
        doomed.kill()
    claimed = WebhookDelivery.objects.get(pk=delivery.pk)
    assert (claimed.status, claimed.attempts) == (DeliveryStatus.PENDING, 1)
    assert claimed.next_attempt_at > timezone.now()  # its claim holds off other workers...

    # ...until it lapses (the send's timeout and a margin; here, at once).
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    app.control.purge()  # the killed task's message, redelivered only after visibility_timeout
    with worker("survivor"):
        assert deliveries_dispatch_due() == [delivery.pk]
        wait_until(lambda: row(delivery)[0] == DeliveryStatus.DELIVERED, timeout=60)

    requests = receiver.wait_for(2)
    assert [r.header("NetShop-Webhook-Id") for r in requests] == [str(delivery.pk)] * 2
    assert row(delivery) == (DeliveryStatus.DELIVERED, 2)
