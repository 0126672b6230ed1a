"""A staff member's side of the console for benchmarks: a signed-in HTTP client that can make
decisions, and a console WebSocket that records every event with the time it arrived."""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.sync.client import connect


def session_cookie(username: str) -> str:
    """A real session for ``username`` in the bench database (needs Django set up)."""
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get(username=username))
    return client.cookies["sessionid"].value


def staff_http(base_url: str, username: str) -> httpx.Client:
    """An HTTP client signed in as ``username``, sending the CSRF token unsafe methods need."""
    csrf = secrets.token_hex(16)  # a 32-character secret: Django takes it unmasked
    return httpx.Client(
        base_url=base_url,
        cookies={"sessionid": session_cookie(username), "csrftoken": csrf},
        headers={"X-CSRFToken": csrf},
        timeout=30,
        trust_env=False,  # 127.0.0.1 only, never through a proxy
    )


@dataclass(frozen=True)
class Received:
    at: float  # time.time() when it arrived
    perf: float  # time.perf_counter() when it arrived
    message: dict[str, Any]


class ConsoleSocket:
    """``/ws/console/`` as ``username``; a thread records every message as it arrives."""

    def __init__(self, base_url: str, username: str) -> None:
        origin = base_url
        url = base_url.replace("http://", "ws://") + "/ws/console/"
        self.connection = connect(
            url,
            origin=origin,  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={session_cookie(username)}"},
            proxy=None,
            open_timeout=10,
        )
        self.received: list[Received] = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        with contextlib.suppress(Exception):  # closed: the benchmark is over
            for raw in self.connection:
                item = Received(time.time(), time.perf_counter(), json.loads(raw))
                with self.changed:
                    self.received.append(item)
                    self.changed.notify_all()

    def wait_for(self, matches: Callable[[dict[str, Any]], bool], timeout: float) -> Received:
        """The first message (already received or coming) that ``matches``."""
        deadline = time.monotonic() + timeout
        seen = 0
        with self.changed:
            while True:
                for item in self.received[seen:]:
                    if matches(item.message):
                        return item
                seen = len(self.received)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no matching console event in time")
                self.changed.wait(left)

    def close(self) -> None:
        self.connection.close()
        self.thread.join(timeout=5)


@contextlib.contextmanager
def console_socket(base_url: str, username: str) -> Iterator[ConsoleSocket]:
    socket = ConsoleSocket(base_url, username)
    try:
        yield socket
    finally:
        socket.close()


def inquiry_settled(inquiry_id: str, status: str) -> Callable[[dict[str, Any]], bool]:
    def matches(message: dict[str, Any]) -> bool:
        payload = message.get("payload") or {}
        return (
            message.get("event") == "inquiry.updated"
            and payload.get("id") == inquiry_id
            and payload.get("status") == status
        )

    return matches
