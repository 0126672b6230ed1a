"""Appending to the audit log.

Design of the chain (why it looks like this):

* Each entry's MAC (``netshop.audit.chain``) is keyed with the audit key, which is not in the
  database, and the head is checked before anything is chained to it
  (``netshop.audit.custody``).
* The MAC covers ``seq``, so ``seq`` must be known before the row is written: the table
  refuses UPDATE, so there is no "insert, then fill in the hash". In PostgreSQL ``seq`` is
  taken from the column's own sequence with ``nextval`` before the insert; elsewhere it is
  the last ``seq`` plus one.
* Appends are serialised so the chain stays linear: in PostgreSQL by a transaction-level
  advisory lock, taken before the last hash is read and held until the surrounding
  transaction commits (so the next writer reads a committed predecessor, and ``seq`` follows
  commit order). SQLite needs no lock of ours: with ``transaction_mode=IMMEDIATE`` a write
  transaction holds the database's write lock from its first statement, across threads and
  processes. A Python lock would be worse than nothing here: held by a thread waiting for the
  database while the lock's owner's transaction waits for it, it deadlocks where neither
  database can see it. The unique ``prev_hash`` constraint backs all of this up.
* A rolled-back append leaves a gap in PostgreSQL's sequence; gaps are harmless, the
  verifier follows the ``prev_hash`` links.

Lock order (one order everywhere, or two writers deadlock):

1. business rows first, each path in the same order: customer, order, payment, shipment;
   an inquiry before its escalations (a decision locks the escalation and its inquiry in one
   statement; nobody holds an inquiry and then waits for an existing escalation);
2. then the audit lock, last. After it a transaction writes only rows nobody else can hold
   (its own locked rows, new rows, the console's event log) and commits.

Deferred foreign-key checks are the trap in rule 2: Django makes every foreign key
``DEFERRABLE INITIALLY DEFERRED``, so inserting an inquiry takes ``FOR KEY SHARE`` on its
customer only at commit, after the audit lock; a coupon holding the customer ``FOR UPDATE``
and waiting for the audit lock then closed a cycle (issue 10, finding 2). So the writer runs
``SET CONSTRAINTS ALL IMMEDIATE`` before it takes the lock: pending checks (and their
key-share locks) happen first, while this transaction holds no audit lock anybody waits
behind, and later statements check at once too. Paths checked: intake (``inquiry_create``),
coupon, refund, cancellation, redelivery and date change (``run_once``: the row lock, then
the audit entry), claim/release/decide (escalation and inquiry locked first), a run's record
(inquiry locked first, entries batched at the end), a crash record and console logins
(autocommit). ``tests/netshop/audit/test_lock_order.py`` proves the intake side.

Call it as the last write of a transaction: the advisory lock is held until commit, and
anything the transaction waits on after it delays every other writer.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from netshop.audit.chain import entry_mac
from netshop.audit.content import content_free
from netshop.audit.custody import custody_entries
from netshop.audit.keys import keyring
from netshop.audit.models import GENESIS, AuditEntry

_batch = threading.local()

# pg_advisory_xact_lock key: the bytes "nsaudit" read as an integer.
ADVISORY_LOCK_KEY = 31089109856708980


def audit_record(
    *,
    action: str,
    actor: str,
    inquiry_id: str | uuid.UUID | None = None,
    operation_id: str | None = None,
    verdict: str | None = None,
    reason: str | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    """Append one entry and return it (MAC computed, saved).

    Joins the caller's transaction if there is one, so an entry about a side effect is
    written if and only if the side effect's rows are. ``data`` goes through the content
    guard (``netshop.audit.content``); pass ids, names, amounts, statuses and digests.
    """
    entry = AuditEntry(
        action=_required(action, "action", 60),
        actor=_required(actor, "actor", 150),
        inquiry_id=_uuid_or_none(inquiry_id),
        operation_id=(operation_id or "")[:120],
        verdict=(verdict or "")[:40],
        reason=(reason or "")[:60],
        data=content_free(data),
    )
    batch = getattr(_batch, "entries", None)
    if batch is not None:
        batch.append(entry)
        return entry
    _append([entry])
    return entry


@contextmanager
def audit_batch() -> Iterator[None]:
    """Write every entry recorded inside the block at once: one lock, one read, one insert.

    For code that records several entries in a row (a step of a run): the chain and the
    entries are the same as one by one, for a fraction of the round trips.
    """
    if getattr(_batch, "entries", None) is not None:  # already batching: join the outer one
        yield
        return
    _batch.entries = []
    try:
        yield
        entries = _batch.entries
    finally:
        _batch.entries = None
    if entries:
        _append(entries)


def _append(entries: list[AuditEntry]) -> None:
    # No savepoint of its own: a failed append fails the caller's transaction anyway (its
    # side effect must not commit without its entry), and a savepoint costs two round trips.
    with transaction.atomic(savepoint=False):
        _serialise_appends()
        head = AuditEntry.objects.order_by("-seq").first()
        ring = keyring()
        signed = custody_entries(head, ring) + [(entry, ring.current) for entry in entries]
        seqs = _next_seqs(head.seq if head else 0, len(signed))
        prev_hash = head.hash if head else GENESIS
        now = timezone.now()
        for (entry, key), seq in zip(signed, seqs, strict=True):
            entry.seq, entry.prev_hash, entry.created_at = seq, prev_hash, now
            entry.key_id, entry.hash = key.id, entry_mac(entry, key)
            prev_hash = entry.hash
        AuditEntry.objects.bulk_create([entry for entry, _ in signed])


def inquiry_id_from_ref(ref: str) -> str | None:
    """The inquiry an operation id or inquiry reference was made for, when it starts with one.

    The agents build operation ids as ``<inquiry uuid>:<skill>:<digest>`` and pass the inquiry
    id as a coupon's ``inquiry_ref``; filing side effects under that inquiry puts them on its
    audit timeline without ``netshop`` importing ``agents``.
    """
    return _uuid_text(ref.split(":", 1)[0])


def _serialise_appends() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # Business-row locks the transaction still owes (deferred FK checks) come first:
            # see "Lock order" above.
            # One round trip for both (the statements run in order).
            cursor.execute(
                "SET CONSTRAINTS ALL IMMEDIATE; SELECT pg_advisory_xact_lock(%s)",
                [ADVISORY_LOCK_KEY],
            )


def _next_seqs(last_seq: int, count: int) -> list[int]:
    if connection.vendor != "postgresql":
        return list(range(last_seq + 1, last_seq + 1 + count))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'seq')) FROM generate_series(1, %s)",
            [AuditEntry._meta.db_table, count],
        )
        return sorted(int(row[0]) for row in cursor.fetchall())


def _required(value: str, name: str, limit: int) -> str:
    value = str(value).strip()
    if not value:
        raise ValueError(f"an audit entry needs an {name}")
    return value[:limit]


def _uuid_or_none(value: str | uuid.UUID | None) -> uuid.UUID | None:
    if value is None or value == "":
        return None
    if isinstance(value, uuid.UUID):
        return value
    return uuid.UUID(str(value))


def _uuid_text(value: str) -> str | None:
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return None
