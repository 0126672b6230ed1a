"""A real daphne server for browser tests, on the test database and the test Redis.

Like the workers in ``tests.support.workers`` it is a separate process: a test that talks to
it must commit its data (``transactional_db``).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.support.workers import ROOT, worker_env

HOSTS = "127.0.0.1,localhost"
SECRET_KEY = "browser-tests-only-secret-key"
DAPHNE = [sys.executable, "-m", "daphne"]
# A test process driving Playwright lifts Django's async-safety check for itself; empty turns
# it back on, so the product's processes run exactly as they would in production.
KEEP_ASYNC_CHECK = {"DJANGO_ALLOW_ASYNC_UNSAFE": ""}


class FewRoundsPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """For logins a test process writes and the server checks.

    The server verifies them with its own default hasher, which reads the round count from
    the stored hash: seeding costs milliseconds instead of a second per login.
    """

    iterations = 1000


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """``daphne netshop.asgi:application`` on ``port``; it can be stopped and started again.

    Restarting keeps the port, so open pages reconnect to the same address (a dropped server).
    """

    def __init__(self, log: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.log = log
        self.env = worker_env(
            {
                "ALLOWED_HOSTS": HOSTS,
                "DEBUG": "0",
                "SECRET_KEY": SECRET_KEY,
                "PYTHONUNBUFFERED": "1",
                **KEEP_ASYNC_CHECK,
            }
        )
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [*DAPHNE, "-b", "127.0.0.1", "-p", str(self.port), "netshop.asgi:application"],
                cwd=ROOT,
                env=self.env,
                start_new_session=True,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        self._wait_healthy(timeout)

    def stop(self) -> None:
        """SIGTERM (SIGKILL if it lingers): every open socket is dropped."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def _wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.process.returncode}; see {self.log}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        self.stop()
        raise TimeoutError(f"daphne did not answer /healthz in {timeout}s; see {self.log}")


@contextmanager
def running_server(log: Path) -> Iterator[LiveServer]:
    """A started server, stopped on the way out whatever happened."""
    server = LiveServer(log)
    server.start()
    try:
        yield server
    finally:
        server.stop()
