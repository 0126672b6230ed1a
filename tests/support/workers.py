"""Real Celery worker processes for tests, on the test database and the test Redis.

A test that runs work in workers must commit its data (``transactional_db``): the workers
are separate processes with their own connections.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from django.conf import settings
from django.db import connection

from netshop.celery import app

ROOT = Path(__file__).resolve().parents[2]


def worker_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The test process's environment, pointed at the test database."""
    db = connection.settings_dict
    env = dict(os.environ)
    user, host, port = db["USER"] or "postgres", db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    env["DATABASE_URL"] = f"postgres://{user}@{host}:{port}/{db['NAME']}"
    env["NETSHOP_RETRY_BACKOFF_S"] = "0"
    env.pop("NETSHOP_DB_POOL_SIZE", None)  # the production pool, whatever this process runs
    env.update(extra or {})
    return env


class Worker:
    """One worker process; with ``log``, its stdout and stderr go to that file; with ``beat``,
    it also runs the periodic tasks of ``CELERY_BEAT_SCHEDULE`` as production's beat would."""

    def __init__(
        self, name: str, env: dict[str, str], log: Path | None = None, *, beat: bool = False
    ) -> None:
        self.name = name
        self.log = log
        self.beat_dir = tempfile.mkdtemp(prefix="netshop-beat-") if beat else None
        output = log.open("ab") if log is not None else None
        try:
            self.process = self._start(name, env, output, self._beat_args())
        finally:
            if output is not None:
                output.close()  # the child holds its own copy

    def _beat_args(self) -> list[str]:
        if self.beat_dir is None:
            return []
        return ["--beat", "--schedule-filename", str(Path(self.beat_dir) / "schedule")]

    @staticmethod
    def _start(
        name: str, env: dict[str, str], output: IO[bytes] | None, extra: list[str]
    ) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "netshop",
                "worker",  # the production pool: runs on threads (CELERY_WORKER_POOL)
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"{name}@%h",
                "-l",
                "warning",
                *extra,
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=output,
            stderr=subprocess.STDOUT if output is not None else None,
        )

    def kill(self) -> None:
        """SIGKILL, as a crashed machine would: no cleanup, no acknowledgement."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.beat_dir is not None:
            shutil.rmtree(self.beat_dir, ignore_errors=True)


def wait_for_workers(names: list[str], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=0.5) or []
        alive = {name.split("@")[0] for reply in replies for name in reply}
        if set(names) <= alive:
            return
    raise TimeoutError(f"workers {names} did not start")


@contextmanager
def running_workers(
    count: int = 1, env: dict[str, str] | None = None, *, name: str = "test", beat: bool = False
) -> Iterator[list[Worker]]:
    """``count`` workers named ``name``; with ``beat``, the first also runs beat."""
    app.control.purge()  # nothing left over from other tests may reach these workers
    workers = [
        Worker(f"{name}{i}-{os.getpid()}", worker_env(env), beat=beat and i == 0)
        for i in range(count)
    ]
    try:
        wait_for_workers([w.name for w in workers])
        yield workers
    finally:
        for worker in workers:
            worker.stop()


def worker_address(worker: Worker) -> str:
    """The name the worker answers broadcasts (ping, inspect, consumers) to."""
    return f"{worker.name}@{socket.gethostname()}"


def worker_consuming(worker: Worker, on: bool) -> None:
    """Let the worker take tasks from every queue, or not (they wait in the broker)."""
    destination = [worker_address(worker)]
    for queue in settings.CELERY_TASK_QUEUES:
        if on:
            app.control.add_consumer(queue, destination=destination, reply=True)
        else:
            app.control.cancel_consumer(queue, destination=destination, reply=True)


def worker_settled(worker: Worker, timeout: float = 15) -> bool:
    """Wait until ``worker`` holds no task (running, prefetched or scheduled for later), then
    empty the broker; False when it is still busy after ``timeout`` seconds, or does not
    answer (the caller stops it instead).

    For a worker shared by several tests: what one test started must not run in the next.
    """
    destination = [worker_address(worker)]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        inspect = app.control.inspect(destination=destination, timeout=1)
        held = [inspect.active(), inspect.reserved(), inspect.scheduled()]
        if None in held:
            return False
        if not any(tasks for replies in held if replies for tasks in replies.values()):
            app.control.purge()
            return True
        time.sleep(0.2)
    return False


def wait_until(predicate: object, timeout: float = 60, interval: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(interval)
    raise TimeoutError("condition not reached in time")
