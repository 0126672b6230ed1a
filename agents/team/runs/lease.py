"""One worker at a time per inquiry: a lease that dies with the worker holding it.

In PostgreSQL the lease is a session advisory lock. A worker process keeps one connection
for the leases of all the runs it has in flight (dozens, on threads), so a worker killed
mid-run releases every lease it held with that connection, and another worker can take the
runs over. Advisory locks are re-entrant within a session, so the process also keeps a lock
per inquiry of its own: two of its threads never hold the same inquiry. In the embedded shape
(one process) that lock alone does the same.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager, suppress

import psycopg
from django.conf import settings

_held_here: set[str] = set()  # the inquiries this process's threads hold
_held_here_guard = threading.Lock()


def _lock_key(inquiry_id: str) -> int:
    return int.from_bytes(hashlib.sha256(inquiry_id.encode()).digest()[:8], "big", signed=True)


def leases_visible() -> bool:
    """Whether one process sees the leases of another: PostgreSQL's advisory locks are the
    server's; without PostgreSQL a lease is a lock inside the process that holds it."""
    return "postgresql" in settings.DATABASES["default"]["ENGINE"]


# pg_locks shows a bigint advisory key as its high and low 32 bits (classid, objid), with
# objsubid 1 (two int4 keys show objsubid 2). Locks are per database.
_HELD_KEYS = (
    "SELECT classid::bigint, objid::bigint FROM pg_locks"
    " WHERE locktype = 'advisory' AND objsubid = 1 AND granted"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)


def leases_held(inquiry_ids: Collection[str]) -> set[str]:
    """The inquiries among ``inquiry_ids`` whose lease some session holds now, in any process.

    Read from pg_locks, which takes no lock: trying each lease and letting it go would, for
    that instant, turn away a worker taking the run ("busy"), whose task would then end with
    the run not advanced. PostgreSQL only (``leases_visible``).
    """
    if not inquiry_ids:
        return set()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_HELD_KEYS)
        held = {
            int.from_bytes(((high << 32) | low).to_bytes(8, "big"), "big", signed=True)
            for high, low in cursor.fetchall()
        }
    return {inquiry_id for inquiry_id in inquiry_ids if _lock_key(inquiry_id) in held}


@contextmanager
def run_lease(inquiry_id: str) -> Iterator[bool]:
    """Yields True while this process holds the inquiry's lease, False if another does."""
    with _local_lease(inquiry_id) as held_here:
        if not held_here or "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
            yield held_here
            return
        with _postgres_lease(inquiry_id) as held:
            yield held


# A worker killed on a host that stays up closes its socket, and the server lets its leases go
# at once. A host that vanished (power, network) sends nothing: the server probes an idle lease
# connection after 10 s, every 5 s, and gives up after 3 unanswered probes, letting the leases
# go (and recovery send the runs again) about 25 s after the host went, not after the kernel's
# two hours. Over TCP only: a Unix socket has no probes and needs none. Set once connected, not
# as startup options, which connection poolers refuse.
LEASE_KEEPALIVES = {
    "tcp_keepalives_idle": 10,
    "tcp_keepalives_interval": 5,
    "tcp_keepalives_count": 3,
}


def _lease_connect(conninfo: str) -> psycopg.Connection[tuple[object, ...]]:
    conn = psycopg.connect(conninfo, autocommit=True)
    for name, seconds in LEASE_KEEPALIVES.items():
        conn.execute(f"SET {name} = {int(seconds)}")  # our own constants: nothing to inject
    return conn


class _LeaseConnection:
    """The process's connection for leases, shared by its threads one statement at a time.

    A connection that broke (the server restarted, the network dropped) took its locks with
    it; the next lease opens a new one, and a run that held a lease on the old one finishes
    without unlocking what is already gone.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.conn: psycopg.Connection[tuple[object, ...]] | None = None

    def try_lock(self, key: int) -> psycopg.Connection[tuple[object, ...]] | None:
        """The connection now holding ``key``, or None if another session holds it."""
        from agents.team.runs.checkpointer import postgres_conninfo

        with self.lock:
            if self.conn is None or self.conn.broken or self.conn.closed:
                self.conn = _lease_connect(postgres_conninfo())
            try:
                row = self.conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
            except psycopg.OperationalError:
                self.conn = None  # dropped: the next lease reconnects
                raise
            return self.conn if row and row[0] else None

    def unlock(self, conn: psycopg.Connection[tuple[object, ...]], key: int) -> None:
        with self.lock:
            if conn is self.conn and not conn.broken:
                # A dropped connection already released the lock with its session; raising
                # here would hide the error that dropped it.
                with suppress(psycopg.Error):
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


_lease_connections: dict[int, _LeaseConnection] = {}
_lease_connections_guard = threading.Lock()


def _lease_connection() -> _LeaseConnection:
    """This process's lease connection (a forked child opens its own, never its parent's)."""
    with _lease_connections_guard:
        return _lease_connections.setdefault(os.getpid(), _LeaseConnection())


@contextmanager
def _postgres_lease(inquiry_id: str) -> Iterator[bool]:
    leases = _lease_connection()
    key = _lock_key(inquiry_id)
    conn = leases.try_lock(key)
    try:
        yield conn is not None
    finally:
        if conn is not None:
            leases.unlock(conn, key)


@contextmanager
def _local_lease(inquiry_id: str) -> Iterator[bool]:
    with _held_here_guard:
        held = inquiry_id not in _held_here
        _held_here.add(inquiry_id)
    try:
        yield held
    finally:
        if held:
            with _held_here_guard:
                _held_here.discard(inquiry_id)


def close_lease_connection() -> None:
    """Close this process's lease connection, letting go of every lease it holds (tests and
    shutdown: a database being dropped must see no session left)."""
    with _lease_connections_guard:
        leases = _lease_connections.pop(os.getpid(), None)
    if leases is not None:
        with leases.lock:
            if leases.conn is not None:
                leases.conn.close()
