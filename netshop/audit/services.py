"""Appending to the audit log.

Design of the chain (why it looks like this):

* The hash covers ``seq``, so ``seq`` must be known before the row is written: the table
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

Call it as the last write of a transaction: the advisory lock is held until commit, and
anything the transaction waits on after it delays every other writer.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from netshop.audit.chain import entry_hash
from netshop.audit.content import content_free
from netshop.audit.models import GENESIS, AuditEntry

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
    """Append one entry and return it (hash computed, saved).

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
    with transaction.atomic():
        _serialise_appends()
        last = AuditEntry.objects.order_by("-seq").values_list("seq", "hash").first()
        entry.seq = _next_seq(last[0] if last else 0)
        entry.prev_hash = last[1] if last else GENESIS
        entry.created_at = timezone.now()
        entry.hash = entry_hash(entry)
        entry.save(force_insert=True)
    return entry


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
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ADVISORY_LOCK_KEY])


def _next_seq(last_seq: int) -> int:
    if connection.vendor != "postgresql":
        return last_seq + 1
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'seq'))", [AuditEntry._meta.db_table]
        )
        return int(cursor.fetchone()[0])


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
