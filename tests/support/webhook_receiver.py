"""A real HTTP receiver for webhook tests: an ``http.server`` on 127.0.0.1 in a thread.

It records every request it gets (headers, exact body bytes, when) and answers from a script:
a status code each, or ``Slow(seconds)`` to hold the request past the sender's timeout; once
the script runs out it answers 200.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Slow:
    """Hold the request this long, then answer 200 (to a sender that has usually gone)."""

    seconds: float


Answer = int | Slow


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    body: bytes
    at: float
    answered: Answer

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str:
        return self.headers[name.lower()]


class WebhookReceiver:
    """``receiver.url`` accepts POSTs; ``receiver.script(500, Slow(2), 200)`` scripts answers."""

    def __init__(self) -> None:
        self.requests: list[Received] = []
        self._script: deque[Answer] = deque()
        self._lock = threading.Condition()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/hooks/netshop"

    def script(self, *answers: Answer) -> None:
        with self._lock:
            self._script.extend(answers)

    def wait_for(self, count: int, timeout: float = 30) -> list[Received]:
        """The first ``count`` requests, once that many have come."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.requests) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{len(self.requests)} of {count} webhook requests came")
                self._lock.wait(left)
            return self.requests[:count]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next_answer(self) -> Answer:
        with self._lock:
            return self._script.popleft() if self._script else 200

    def _record(self, received: Received) -> None:
        with self._lock:
            self.requests.append(received)
            self._lock.notify_all()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                answer = receiver._next_answer()
                headers = {name.lower(): value for name, value in self.headers.items()}
                receiver._record(Received(headers, body, time.time(), answer))
                if isinstance(answer, Slow):
                    time.sleep(answer.seconds)
                    answer = 200
                try:
                    self.send_response(answer)
                    self.send_header("Content-Length", "0")
                    if 300 <= answer < 400:
                        self.send_header("Location", "/elsewhere")
                    self.end_headers()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the sender gave up waiting, as it should

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
