"""Walking the audit chain and checking it against the anchors kept outside the database.

Each entry names its predecessor's MAC and is signed, with the audit key, over that link and
its own fields. Someone who can write the table but lacks the key can therefore change
nothing that still verifies; what they can do, and how each shows:

* ``edited``: an entry's MAC does not match its contents, and a later genuine entry chained to
  it (or an anchor covers it, or records another MAC for its seq): it was written, then changed;
* ``forged``: an entry not signed with the key, written after the last anchor and vouched for
  by no genuine entry (or reported by the writer who found it at the head:
  ``audit.tamper_detected``); an entry naming a key the keyring lacks (forged, or a retired
  key missing from ``NETSHOP_AUDIT_KEYS_OLD``); a key change without an ``audit.key_rotated``
  entry; an anchor line that is not signed;
* ``inserted``: an unsigned entry the next genuine entry links past;
* ``deleted``: a genuine entry whose predecessor is gone (its link names a MAC no entry before
  it has), an anchored entry missing, or fewer entries up to an anchor than it counted;
* ``truncated``: the table is empty, or restarts after an anchored seq;
* ``tail missing``: an anchor records entries beyond the table's last.

Numeric gaps in ``seq`` are not evidence (PostgreSQL skips a number when an append rolls
back), so removal is judged by the links and the anchors. Entries appended after the newest
anchor can still be removed from the end unnoticed: anchors are written every minute.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Literal

from netshop.audit.actions import AuditAction
from netshop.audit.anchors import Anchor, AnchorSink, anchor_parse, database_name, default_sink
from netshop.audit.chain import LEGACY_KEY_ID, entry_signature
from netshop.audit.keys import Keyring, keyring
from netshop.audit.models import GENESIS, AuditEntry

Problem = Literal["edited", "inserted", "deleted", "truncated", "tail missing", "forged"]


@dataclasses.dataclass(frozen=True)
class VerifyReport:
    """The outcome of one walk; ``broken_seq`` is the first entry found wrong, if any."""

    entries: int
    anchors: int = 0
    head_seq: int | None = None
    head_hash: str = ""
    broken_seq: int | None = None
    problem: Problem | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.problem is None

    def __str__(self) -> str:
        if self.ok:
            return f"audit chain intact: {self.entries} entries, {self.anchors} anchors match"
        where = f" at seq {self.broken_seq}" if self.broken_seq is not None else ""
        return f"audit chain BROKEN{where}: {self.problem}: {self.detail}"


def audit_verify(*, chunk_size: int = 2000, sink: AnchorSink | None = None) -> VerifyReport:
    """Check every entry's MAC and link in ``seq`` order, streaming, then every anchor."""
    rows = AuditEntry.objects.order_by("seq").iterator(chunk_size=chunk_size)
    return verify_entries(rows, anchor_lines=(sink or default_sink()).lines())


def verify_entries(
    rows: Iterable[AuditEntry], *, anchor_lines: Iterable[str] = (), ring: Keyring | None = None
) -> VerifyReport:
    """The walk itself, over any ordered entries (the tests feed it lists too)."""
    ring = ring or keyring()
    anchors = _load_anchors(anchor_lines, ring)
    if isinstance(anchors, VerifyReport):
        return anchors
    walk = _Walk(ring, anchors)
    for row, following in _with_next(rows):
        broken = walk.step(row, following)
        if broken is not None:
            return dataclasses.replace(broken, entries=walk.count, anchors=len(anchors))
    return dataclasses.replace(walk.finish(), entries=walk.count, anchors=len(anchors))


def _load_anchors(lines: Iterable[str], ring: Keyring) -> list[Anchor] | VerifyReport:
    anchors: list[Anchor] = []
    here = database_name()
    for number, line in enumerate(lines, start=1):
        parsed = anchor_parse(line, ring)
        if isinstance(parsed, str):
            detail = f"anchor line {number} is not genuine: {parsed}"
            return _broken(None, "forged", detail)
        if parsed is not None and parsed.db == here:  # another database's anchors: not ours
            anchors.append(parsed)
    return sorted(anchors, key=lambda anchor: anchor.seq)


class _Walk:
    """The state of one walk: the entries seen, the key in force, the anchors still ahead."""

    def __init__(self, ring: Keyring, anchors: list[Anchor]) -> None:
        self.ring = ring
        self.anchors = anchors
        self.next_anchor = 0
        self.count = 0
        self.previous: AuditEntry | None = None
        self.segment_key: str | None = None  # the key signing the chain so far
        self.handed_to: str | None = None  # the key an audit.key_rotated entry just named

    @property
    def anchored_up_to(self) -> int:
        return self.anchors[-1].seq if self.anchors else 0

    def step(self, row: AuditEntry, following: AuditEntry | None) -> VerifyReport | None:
        self.count += 1
        expected = self.previous.hash if self.previous else GENESIS
        if not self._genuine(row):
            return self._unsigned(row, following, expected)
        broken = self._link(row, expected) or self._key_in_force(row) or self._anchors_at(row)
        if broken is not None:
            return broken
        self._advance(row)
        return None

    def finish(self) -> VerifyReport:
        """Anchors beyond the last entry: the newest entries, or all of them, are gone."""
        last = self.previous
        beyond = self.anchors[self.next_anchor :]
        if beyond:
            newest = beyond[-1]
            if last is None:
                why = (
                    f"the table is empty; the anchor of {newest.at} recorded {newest.count} entries"
                )
                return _broken(newest.seq, "truncated", why)
            why = (
                f"the table ends at seq {last.seq}; the anchor of {newest.at} recorded "
                f"seq {newest.seq} ({newest.count} entries)"
            )
            return _broken(newest.seq, "tail missing", why)
        return VerifyReport(
            entries=self.count,
            head_seq=last.seq if last else None,
            head_hash=last.hash if last else GENESIS,
        )

    def _genuine(self, row: AuditEntry) -> bool:
        """Signed with a key of the ring, or an unkeyed entry from before the first keyed one."""
        signature = entry_signature(row, self.ring)
        return signature == "valid" or (signature == "legacy" and self.segment_key is None)

    def _unsigned(
        self, row: AuditEntry, following: AuditEntry | None, expected: str
    ) -> VerifyReport:
        """Say what an entry without a valid MAC is, from what vouches for it."""
        why = self._unsigned_why(row)
        if entry_signature(row, self.ring) == "unknown_key":  # forged, or a key left out
            return _broken(row.seq, "forged", why)
        if following is not None and self._genuine(following):
            return _vouched(row, following, expected, why)
        if row.seq <= self.anchored_up_to:
            return _broken(
                row.seq,
                "edited",
                f"{why}, and an anchor covers it "
                "(the entries after it were rechained without the key)",
            )
        return _broken(row.seq, "forged", f"{why}: written without the key after the newest anchor")

    def _link(self, row: AuditEntry, expected: str) -> VerifyReport | None:
        if row.prev_hash == expected:
            return None
        after = f"seq {self.previous.seq}" if self.previous else "the start of the chain"
        return _broken(
            row.seq,
            "deleted",
            f"entries missing before it: its prev_hash does not match the MAC of {after}",
        )

    def _unsigned_why(self, row: AuditEntry) -> str:
        signature = entry_signature(row, self.ring)
        if signature == "unknown_key":
            return f"signed by key {row.key_id!r}, which is not in the keyring"
        if signature == "legacy":
            return "an unkeyed (plain SHA-256) entry after the chain was keyed"
        return "its MAC does not match its contents"

    def _key_in_force(self, row: AuditEntry) -> VerifyReport | None:
        if row.key_id == LEGACY_KEY_ID or self.segment_key in (None, row.key_id):
            return None
        if row.key_id == self.handed_to:
            return None
        return _broken(
            row.seq,
            "forged",
            f"signed by key {row.key_id!r}, but the chain is signed by {self.segment_key!r} "
            "and no audit.key_rotated entry hands over to it",
        )

    def _anchors_at(self, row: AuditEntry) -> VerifyReport | None:
        """Check every anchor up to ``row``: the anchored entry must be this one, as it was."""
        while (
            self.next_anchor < len(self.anchors) and self.anchors[self.next_anchor].seq <= row.seq
        ):
            anchor = self.anchors[self.next_anchor]
            broken = self._anchor(anchor, row)
            if broken is not None:
                return broken
            self.next_anchor += 1
        return None

    def _anchor(self, anchor: Anchor, row: AuditEntry) -> VerifyReport | None:
        if anchor.seq < row.seq:  # the anchored entry is not in the table
            if self.previous is None:
                why = (
                    f"the anchored seq {anchor.seq} and every entry before it are gone; "
                    f"the chain restarts at seq {row.seq}"
                )
                return _broken(anchor.seq, "truncated", why)
            return _broken(
                anchor.seq, "deleted", f"the entry the anchor of {anchor.at} recorded is gone"
            )
        if anchor.mac != row.hash:
            why = (
                f"the anchor of {anchor.at} recorded another MAC for it: "
                "it, or the chain before it, was rewritten"
            )
            return _broken(row.seq, "edited", why)
        if anchor.count != self.count:
            problem: Problem = "deleted" if self.count < anchor.count else "inserted"
            why = f"{self.count} entries up to it, the anchor of {anchor.at} counted {anchor.count}"
            return _broken(row.seq, problem, why)
        return None

    def _advance(self, row: AuditEntry) -> None:
        if row.key_id != LEGACY_KEY_ID:
            self.segment_key = row.key_id
        rotated = row.action == AuditAction.AUDIT_KEY_ROTATED
        self.handed_to = str(row.data.get("new_key_id")) if rotated else None
        self.previous = row


def _vouched(row: AuditEntry, following: AuditEntry, expected: str, why: str) -> VerifyReport:
    """An unsigned entry followed by a genuine one: what the genuine one says about it."""
    if _reports(following, row.seq):
        return _broken(
            row.seq, "forged", f"{why}; the writer of seq {following.seq} found it at the head"
        )
    if following.prev_hash == expected:
        why = f"{why}, and the next entry (seq {following.seq}) links past it"
        return _broken(row.seq, "inserted", why)
    # The next genuine entry was chained to this one as it was written.
    return _broken(row.seq, "edited", f"{why}, but seq {following.seq} was chained to it")


def _reports(entry: AuditEntry, seq: int) -> bool:
    return entry.action == AuditAction.AUDIT_TAMPER_DETECTED and entry.data.get("seq") == seq


def _broken(seq: int | None, problem: Problem, detail: str) -> VerifyReport:
    return VerifyReport(entries=0, broken_seq=seq, problem=problem, detail=detail)


def _with_next(rows: Iterable[AuditEntry]) -> Iterator[tuple[AuditEntry, AuditEntry | None]]:
    """Each entry with the one after it: telling an insert from an edit needs a look ahead."""
    iterator = iter(rows)
    current = next(iterator, None)
    while current is not None:
        following = next(iterator, None)
        yield current, following
        current = following
