"""The fault suite's harness: the demo shop, worker processes to kill, an operator who approves.

Every scenario runs on real PostgreSQL and Redis with real Celery workers (except the model
scenario, which runs in-process). Randomness comes from one seed per test, printed at the
start and taken from ``NETSHOP_FAULT_SEED`` when set, so a failure's choices can be replayed
(the interleaving of processes still differs from run to run).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from agents.models import Escalation, EscalationKind, EscalationStatus, Inquiry, InquiryStatus
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.services import escalation_decide, newest_wait_status
from agents.team.runs.checkpointer import get_checkpointer
from agents.team.runs.recovery import runs_recover
from netshop.celery import app
from netshop.demo.seed import seed_demo
from netshop.errors import DomainError
from netshop.models import Customer
from netshop.roles import Role, role_assign
from tests.faults.invariants import IN_FLIGHT
from tests.support.workers import Worker, wait_for_workers, worker_env

SEED_ENV = "NETSHOP_FAULT_SEED"
# Every worker's PostgreSQL sessions carry this prefix (libpq reads PGAPPNAME), so a test can
# find, watch and terminate them without touching its own connection or anyone else's.
APP_PREFIX = "netshop-fault-"


@pytest.fixture
def fault_seed(request: pytest.FixtureRequest) -> int:
    seed = int(os.environ.get(SEED_ENV) or random.SystemRandom().randrange(2**31))
    print(f"\n{request.node.name}: seed {seed} (replay with {SEED_ENV}={seed})")
    return seed


@pytest.fixture
def shop(transactional_db: None, settings: Any) -> None:
    """The demo shop (C0001, C0002, generated customers), committed for the workers."""
    settings.NETSHOP_RETRY_BACKOFF_S = 0
    seed_demo(password="x")


@pytest.fixture
def operator(transactional_db: None) -> User:
    user = User.objects.create_user("fault-operator", password="x")
    role_assign(user=user, role=Role.OPERATOR)
    return user


# --- Workers ------------------------------------------------------------------------------------


class WorkerPool:
    """The test's worker processes: started, killed and replaced; each logs to its own file."""

    def __init__(self, log_dir: Path, env: dict[str, str]) -> None:
        self.log_dir = log_dir
        self.env = env
        self.workers: list[Worker] = []
        self.killed: list[Worker] = []
        self._started = 0
        self._lock = threading.Lock()

    def start(self, count: int = 1, *, wait: bool = True) -> list[Worker]:
        """Start ``count`` workers; with ``wait``, return once they answer."""
        new = [self._spawn() for _ in range(count)]
        if wait:
            self.wait_ready(*new)
        return new

    def wait_ready(self, *workers: Worker, timeout: float = 60) -> None:
        wait_for_workers([w.name for w in workers], timeout=timeout)

    def _spawn(self) -> Worker:
        with self._lock:
            self._started += 1
            name = f"fault{self._started}-{os.getpid()}"
        env = worker_env({**self.env, "PGAPPNAME": f"{APP_PREFIX}{name}"})
        worker = Worker(name, env, self.log_dir / f"{name}.log")
        with self._lock:
            self.workers.append(worker)
        return worker

    def kill(self, worker: Worker) -> None:
        """SIGKILL: the worker's output is kept, but it no longer counts as running."""
        worker.kill()
        with self._lock:
            self.workers.remove(worker)
            self.killed.append(worker)

    def alive(self) -> list[Worker]:
        with self._lock:
            return [w for w in self.workers if w.process.poll() is None]

    def stop(self) -> None:
        for worker in list(self.workers):
            worker.stop()

    @property
    def logs(self) -> list[Path]:
        with self._lock:
            return [w.log for w in [*self.workers, *self.killed] if w.log is not None]


@pytest.fixture
def worker_pool(transactional_db: None, tmp_path: Path) -> Iterator[Callable[..., WorkerPool]]:
    """``worker_pool(count, env)`` starts workers; all are stopped when the test ends."""
    pools: list[WorkerPool] = []
    # Open the saver once here: the workers then find its tables and pool settled.
    get_checkpointer()

    def start(count: int, env: dict[str, str] | None = None) -> WorkerPool:
        app.control.purge()  # no task left over from other tests may reach these workers
        log_dir = tmp_path / f"workers{len(pools)}"
        log_dir.mkdir()
        pool = WorkerPool(log_dir, env or {})
        pools.append(pool)
        pool.start(count)
        return pool

    yield start
    for pool in pools:
        pool.stop()


def in_a_run(worker: Worker) -> bool:
    """Whether the worker holds a run's lease (a session advisory lock), i.e. is mid-run."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid"
            " AND l.locktype = 'advisory' WHERE a.application_name = %s",
            [f"{APP_PREFIX}{worker.name}"],
        )
        return int(cursor.fetchone()[0]) > 0


# --- Inquiries and the operator --------------------------------------------------------------


def submit(customer: str, text: str) -> str:
    inquiry = inquiry_create(customer=Customer.objects.get(code=customer), text=text)
    return str(inquiry.pk)


def approve_waiting(operator: User) -> int:
    """Approve every open approval, as an operator clicking through the queue would."""
    approved = 0
    waiting = Escalation.objects.filter(
        kind=EscalationKind.APPROVAL, status=EscalationStatus.OPEN
    ).values_list("pk", flat=True)
    for escalation_id in list(waiting):
        try:
            escalation_decide(escalation_id=escalation_id, user=operator, decision="approve")
        except DomainError:  # decided meanwhile: nothing to do
            continue
        approved += 1
    return approved


def unsettled(ids: Sequence[str]) -> list[str]:
    """Inquiries a worker still has to move: in flight, or waiting on a wait already decided
    (the newest escalation holding actions; an older decision answered an earlier wait)."""
    inquiries = Inquiry.objects.filter(pk__in=list(ids)).annotate(wait_status=newest_wait_status())
    stuck = inquiries.filter(status__in=IN_FLIGHT) | inquiries.filter(
        status=InquiryStatus.AWAITING_APPROVAL, wait_status=EscalationStatus.DECIDED
    )
    return [str(pk) for pk in stuck.values_list("pk", flat=True)]


class Desk:
    """The support desk during a scenario: an operator approving what waits (if any), and the
    periodic recovery beat runs in production, re-dispatching what no worker advances."""

    def __init__(self, operator: User | None, *, recover_every: float = 3.0) -> None:
        self.operator = operator
        self.recover_every = recover_every
        self.recovered: set[str] = set()
        self._last_recover = time.monotonic()

    def tick(self, *, stale_after: timedelta = timedelta(seconds=3)) -> None:
        if self.operator is not None:
            approve_waiting(self.operator)
        if time.monotonic() - self._last_recover >= self.recover_every:
            self.recover(stale_after=stale_after)

    def recover(self, *, stale_after: timedelta) -> list[str]:
        recovered = runs_recover(stale_after=stale_after)
        self._last_recover = time.monotonic()
        self.recovered.update(recovered)
        return recovered

    def done(self, ids: Sequence[str]) -> bool:
        return not unsettled(ids) and (self.operator is None or not _open_approvals())

    def drive(self, ids: Sequence[str], *, timeout: float, at_least: float = 0) -> None:
        """Tick until every inquiry is settled (but ``at_least`` seconds) or ``timeout``."""
        started = time.monotonic()
        while (elapsed := time.monotonic() - started) < timeout:
            self.tick()
            if elapsed >= at_least and self.done(ids):
                return
            time.sleep(0.2)

    def settle(self, ids: Sequence[str], *, timeout: float = 90) -> None:
        """The end of a scenario: approve and recover until quiet; fail if runs stay in flight."""
        deadline = time.monotonic() + timeout
        self.recover_every = 1.0
        while time.monotonic() < deadline:
            self.tick(stale_after=timedelta(0))
            if self.done(ids):
                time.sleep(0.5)  # a resume dispatched just now shows up before we call it quiet
                if self.done(ids) and not self.recover(stale_after=timedelta(0)):
                    return
            time.sleep(0.2)
        stuck = dict(Inquiry.objects.filter(pk__in=unsettled(ids)).values_list("pk", "status"))
        pytest.fail(f"runs did not settle in {timeout:.0f} s: {stuck}")


def _open_approvals() -> bool:
    return Escalation.objects.filter(
        kind=EscalationKind.APPROVAL, status=EscalationStatus.OPEN
    ).exists()
