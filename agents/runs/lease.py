"""One worker at a time per inquiry: a lease that dies with the worker holding it.

In PostgreSQL the lease is a session advisory lock on a connection of its own, so a worker
killed mid-run releases it with its connection and another worker can take the run over.
In the embedded shape (one process) a lock per inquiry does the same.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import psycopg
from django.conf import settings

_local_locks: dict[str, threading.Lock] = {}
_local_guard = threading.Lock()


def _lock_key(inquiry_id: str) -> int:
    return int.from_bytes(hashlib.sha256(inquiry_id.encode()).digest()[:8], "big", signed=True)


@contextmanager
def run_lease(inquiry_id: str) -> Iterator[bool]:
    """Yields True while this process holds the inquiry's lease, False if another does."""
    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        with _postgres_lease(inquiry_id) as held:
            yield held
    else:
        with _local_lease(inquiry_id) as held:
            yield held


@contextmanager
def _postgres_lease(inquiry_id: str) -> Iterator[bool]:
    from agents.runs.checkpointer import postgres_conninfo

    with psycopg.connect(postgres_conninfo(), autocommit=True) as conn:
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", (_lock_key(inquiry_id),)).fetchone()
        held = bool(row and row[0])
        try:
            yield held
        finally:
            if held and not conn.broken:
                # A dropped connection already released the lock with its session; raising
                # here would hide the error that dropped it.
                with suppress(psycopg.Error):
                    conn.execute("SELECT pg_advisory_unlock(%s)", (_lock_key(inquiry_id),))


@contextmanager
def _local_lease(inquiry_id: str) -> Iterator[bool]:
    with _local_guard:
        lock = _local_locks.setdefault(inquiry_id, threading.Lock())
    held = lock.acquire(blocking=False)
    try:
        yield held
    finally:
        if held:
            lock.release()
