"""Redis restarted mid-run (issue 7, fault suite).

Given a Redis server of the test's own (no persistence, like a crashed cache node), two
workers and this process using it as their broker, and a carrier and gateway slow enough
that runs are in flight; when Redis is killed and started again, losing every queued and
unacknowledged task, while inquiries arrive and an operator approves during the outage;
then the workers reconnect, ``runs_recover`` re-dispatches what was lost, and every
invariant holds.
"""

from __future__ import annotations

import random
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from kombu import pools as kombu_pools

from netshop.celery import app
from tests.faults.conftest import Desk, submit
from tests.faults.invariants import assert_invariants

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

FIRST = [
    ("C0001", "注文ORD-1002の荷物は今どこにありますか？"),
    ("C0001", "届いた商品（ORD-1003）が壊れていました。返金をお願いします。"),
    ("C0002", "Please cancel ORD-2002, I ordered it by mistake."),
    (
        "C0001",
        "昨日不在で持ち帰られた荷物を明後日の午前に再配達してください。注文番号はORD-1004です。",
    ),
    ("C0004", "ORD-3004の配送状況を教えてください。"),
    ("C0004", "ORD-3002の商品が壊れていたので返金してください。"),
    ("C0003", "ORD-3001をキャンセルしてください。"),
    ("C0002", "How long do I have to return an item?"),
]
DURING_THE_OUTAGE = [
    ("C0009", "Refund ORD-3017 please, the item was broken."),
    ("C0013", "注文ORD-3034はいつ届きますか？"),
    ("C0007", "不在票が入っていました。ORD-3012を明日の18時以降に再配達してください。"),
]
# What a worker logs, on purpose, while its broker is away: the consumer's reconnection and
# live updates that could not be sent (agents/support/events/transport.py), both at WARNING or
# with these.
BROKER_AWAY = [r"ConnectionError|ConnectionRefusedError|OperationalError.*Redis|redis\."]


class RedisServer:
    """A throwaway ``redis-server`` on a free port, without persistence."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.port = free_port(6390)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--daemonize", "no"],
                stdout=output, stderr=subprocess.STDOUT,
            )  # fmt: skip
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def crash(self) -> None:
        """SIGKILL: every queued and unacknowledged message is gone with it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def free_port(start: int) -> int:
    for port in range(start, start + 100):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError("no free port for redis-server")


@contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """Point this process's Celery app (dispatch, ping, purge) at ``url`` for a while.

    ``CELERY_BROKER_URL`` is read from ``REDIS_URL`` when settings load, so the app's
    configuration and its cached connection and producer pools are swapped by hand. The
    pools come from kombu's process-wide registries, one per broker URL: closing one and
    keeping it registered would hand later tests a closed pool, so they are all dropped.
    """
    previous = app.conf.broker_url

    def use(broker: str) -> None:
        app.conf.broker_url = broker
        kombu_pools.reset()
        app._pool = None
        app.amqp._producer_pool = None

    use(url)
    try:
        yield
    finally:
        use(previous)


@pytest.fixture
def own_redis(tmp_path: Path, settings: Any) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis.log")
    server.start()
    # Recovery's marks of runs sent again live beside the queue, as in production: lost with it.
    settings.CACHES = {
        **settings.CACHES,
        "runs": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": server.url},
    }
    try:
        with celery_broker(server.url):
            yield server
    finally:
        server.stop()


def test_redis_restarted_while_runs_are_in_flight(
    shop: None, operator, faults, fault_seed: int, worker_pool, own_redis: RedisServer
) -> None:
    rng = random.Random(fault_seed)  # noqa: S311  (replayable, not secret)
    faults.set(carrier={"latency_ms": 500}, gateway={"latency_ms": 500})
    pool = worker_pool(2, {**faults.env, "REDIS_URL": own_redis.url})
    desk = Desk(operator)

    ids = [submit(customer, text) for customer, text in rng.sample(FIRST, len(FIRST))]
    desk.drive(ids, timeout=rng.uniform(1.5, 3.0), at_least=1.5)
    own_redis.crash()
    ids += [submit(customer, text) for customer, text in DURING_THE_OUTAGE]
    desk.tick()  # approvals decided now cannot reach a worker either
    time.sleep(rng.uniform(1.0, 2.0))
    own_redis.start()
    desk.drive(ids, timeout=60)
    desk.settle(ids, timeout=60)
    pool.stop()

    print(f"re-dispatched by runs_recover: {len(desk.recovered)}")
    assert_invariants(ids, logs=pool.logs, allowed_exceptions=BROKER_AWAY)
    assert desk.recovered  # the outage lost tasks, and recovery found them
