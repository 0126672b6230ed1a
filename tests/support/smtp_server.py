"""A real SMTP server for mail tests: aiosmtpd on 127.0.0.1, a free port, in a thread.

It keeps every message it receives (parsed), so a test can assert what arrived where.
"""

from __future__ import annotations

import email
import email.policy
import socket
import threading
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


class _Collector:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[list[str]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802  (aiosmtpd's hook name)
        parsed = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        with self.lock:
            self.messages.append(parsed)
            self.envelopes.append(list(envelope.rcpt_tos))
        return "250 OK"


class SmtpServer:
    """``server.port`` takes mail; ``server.messages`` is what arrived, in order."""

    def __init__(self) -> None:
        self._collector = _Collector()
        self.port = _free_port()
        self._controller = Controller(self._collector, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    @property
    def messages(self) -> list[EmailMessage]:
        with self._collector.lock:
            return list(self._collector.messages)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in str(m["To"])]

    def stop(self) -> None:
        self._controller.stop()


def _free_port() -> int:
    """A port nobody listens on now (aiosmtpd cannot report the one port 0 picked)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
