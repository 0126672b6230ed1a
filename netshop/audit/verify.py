"""Walking the audit chain: is every entry as it was written, and none added or removed?

Each entry names its predecessor's hash and hashes its own fields with it, so:

* an entry edited in place no longer matches its own hash;
* a deleted entry leaves its successor naming a hash no remaining entry has;
* an inserted entry names a predecessor that is not the one before it, while the entry after
  it still names that one (it links "past" the intruder).

Numeric gaps in ``seq`` are not evidence (PostgreSQL skips a number when an append rolls
back), so removal is judged by the links alone. Removing the newest entries leaves no trace in
the chain itself: compare the head ``verify_audit`` prints with one recorded elsewhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Literal

from netshop.audit.chain import entry_hash
from netshop.audit.models import GENESIS, AuditEntry

Problem = Literal["edited", "deleted", "inserted"]


@dataclasses.dataclass(frozen=True)
class VerifyReport:
    """The outcome of one walk; ``broken_seq`` is the first entry found wrong, if any."""

    entries: int
    head_seq: int | None = None
    head_hash: str = ""
    broken_seq: int | None = None
    problem: Problem | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.broken_seq is None

    def __str__(self) -> str:
        if self.ok:
            return f"audit chain intact: {self.entries} entries"
        return f"audit chain BROKEN at seq {self.broken_seq}: {self.detail}"


def audit_verify(*, chunk_size: int = 2000) -> VerifyReport:
    """Recompute every hash in ``seq`` order, streaming, and report the first problem."""
    rows = AuditEntry.objects.order_by("seq").iterator(chunk_size=chunk_size)
    return verify_entries(rows)


def verify_entries(rows: Iterable[AuditEntry]) -> VerifyReport:
    """The walk itself, over any ordered entries (the tests feed it lists too)."""
    count = 0
    previous: AuditEntry | None = None
    before_previous_hash: str | None = None
    for row, following in _with_next(rows):
        count += 1
        broken = _check(row, following, previous, before_previous_hash)
        if broken is not None:
            return dataclasses.replace(broken, entries=count)
        before_previous_hash = previous.hash if previous else GENESIS
        previous = row
    return VerifyReport(
        entries=count,
        head_seq=previous.seq if previous else None,
        head_hash=previous.hash if previous else GENESIS,
    )


def _check(
    row: AuditEntry,
    following: AuditEntry | None,
    previous: AuditEntry | None,
    before_previous_hash: str | None,
) -> VerifyReport | None:
    expected = previous.hash if previous else GENESIS
    hash_ok = entry_hash(row) == row.hash
    if row.prev_hash == expected:
        return None if hash_ok else _edited(row, "its contents do not match its hash")
    if following is not None and following.prev_hash == expected:
        return _broken(
            row,
            "inserted",
            "inserted: it links to no earlier entry, and the "
            f"next entry (seq {following.seq}) links past it",
        )
    if previous is not None and row.prev_hash == before_previous_hash:
        return _broken(
            previous,
            "inserted",
            f"inserted: the next entry (seq {row.seq}) links past it to the entry before it",
        )
    if not hash_ok:
        return _edited(row, "its link and contents do not match its hash")
    after = f"seq {previous.seq}" if previous else "the start of the chain"
    return _broken(
        row,
        "deleted",
        f"entries missing before it: its prev_hash does not match "
        f"the hash of {after} (deleted, or {after} rewritten with a new hash)",
    )


def _edited(row: AuditEntry, why: str) -> VerifyReport:
    return _broken(row, "edited", f"edited: {why}")


def _broken(row: AuditEntry, problem: Problem, detail: str) -> VerifyReport:
    return VerifyReport(entries=0, broken_seq=row.seq, problem=problem, detail=detail)


def _with_next(rows: Iterable[AuditEntry]) -> Iterator[tuple[AuditEntry, AuditEntry | None]]:
    """Each entry with the one after it: telling an insert from a delete needs a look ahead."""
    iterator = iter(rows)
    current = next(iterator, None)
    while current is not None:
        following = next(iterator, None)
        yield current, following
        current = following
