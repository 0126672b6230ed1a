"""Anchors: signed records of the chain's head, kept where the database's users cannot reach.

A keyed chain stops anyone without the key from editing or adding entries, but not from
removing the newest ones or emptying the table: what is left still verifies. So the head
(seq, MAC, number of entries) is written every minute (beat task ``netshop.tasks.audit_anchor``)
and on demand (``manage.py audit_anchor``) to a sink outside the database, one JSON line per
anchor, signed with the audit key. ``verify_audit`` checks the table against every anchor.

The sink is a ``AnchorSink``: an append-only file under ``NETSHOP_VAR_DIR`` by default
(``NETSHOP_AUDIT_ANCHOR_PATH``); ``NETSHOP_AUDIT_ANCHOR_SINK`` names another class, e.g. one
writing each anchor as an object to storage with object lock (WORM).
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, Protocol

from django.conf import settings
from django.db import connection
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.module_loading import import_string

from netshop.audit.chain import canonical_json
from netshop.audit.custody import head_signature
from netshop.audit.keys import Keyring, keyring
from netshop.audit.models import AuditEntry


class AnchorSink(Protocol):
    """Where anchors go. Implementations must only ever append (never rewrite or drop)."""

    name: str

    def append(self, line: str) -> None:
        """Store one anchor line durably before returning."""

    def lines(self) -> Iterable[str]:
        """Every anchor line stored, oldest first."""

    def last(self) -> str | None:
        """The newest anchor line, if any."""


class FileAnchorSink:
    """JSON lines appended with ``O_APPEND`` and fsync'd; mode 600.

    Make the file append-only for the database's administrators too: another host or mount,
    ``chattr +a``, or ship it to write-once storage.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path or settings.NETSHOP_AUDIT_ANCHOR_PATH)
        self.name = str(self.path)

    def append(self, line: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, (line + "\n").encode())  # one write: an O_APPEND line is never split
            os.fsync(fd)
        finally:
            os.close(fd)

    def lines(self) -> Iterator[str]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as file:
            yield from (line.rstrip("\n") for line in file if line.strip())

    def last(self) -> str | None:
        if not self.path.exists():
            return None
        with self.path.open("rb") as file:
            file.seek(0, os.SEEK_END)
            file.seek(max(0, file.tell() - 4096))  # an anchor line is a few hundred bytes
            tail = file.read().decode("utf-8", errors="replace").strip().splitlines()
        return tail[-1] if tail else None


@dataclasses.dataclass(frozen=True)
class Anchor:
    """One signed head record: the chain had ``count`` entries, the newest ``seq`` with ``mac``.

    ``db`` names the database, so one sink can serve several (a dev machine's, a staging one)
    and ``verify_audit`` checks each against its own anchors only.
    """

    seq: int
    mac: str
    count: int
    at: str
    key_id: str
    db: str = ""
    anchor_mac: str = ""

    def signed_text(self) -> str:
        record = dataclasses.asdict(self)
        del record["anchor_mac"]
        return canonical_json(record)

    def line(self) -> str:
        return canonical_json(dataclasses.asdict(self))


@dataclasses.dataclass(frozen=True)
class AnchorResult:
    status: Literal["anchored", "unchanged", "empty", "refused"]
    anchor: Anchor | None = None
    detail: str = ""


def default_sink() -> AnchorSink:
    sink_class = import_string(settings.NETSHOP_AUDIT_ANCHOR_SINK)
    sink: AnchorSink = sink_class()
    return sink


def audit_anchor(*, sink: AnchorSink | None = None) -> AnchorResult:
    """Append a signed record of the current head to ``sink``, unless it is already there.

    Refuses to vouch for a head that is not signed with the audit key: that entry was written
    by someone without the key, and anchoring it would make it look like history.
    """
    sink = sink or default_sink()
    ring = keyring()
    head = AuditEntry.objects.order_by("-seq").annotate(total=_COUNT).first()
    if head is None:
        return AnchorResult("empty", detail="the audit log is empty: nothing to anchor")
    signature = head_signature(head, ring)
    if signature in ("invalid", "unknown_key"):
        return AnchorResult(
            "refused", detail=f"the head, seq {head.seq}, is not signed with the audit key"
        )
    last = anchor_parse(sink.last() or "", ring)
    if isinstance(last, Anchor) and (last.seq, last.mac, last.db) == (
        head.seq,
        head.hash,
        database_name(),
    ):
        return AnchorResult("unchanged", anchor=last)
    anchor = anchor_sign(
        Anchor(
            seq=head.seq,
            mac=head.hash,
            count=int(head.total),
            at=timezone.now().isoformat(timespec="seconds"),
            key_id=ring.current.id,
            db=database_name(),
        ),
        ring,
    )
    sink.append(anchor.line())
    return AnchorResult("anchored", anchor=anchor)


# The head and the number of entries in one statement, so they come from one snapshot.
_COUNT = RawSQL(f"SELECT count(*) FROM {AuditEntry._meta.db_table}", [])  # noqa: S608, S611 (a constant)


def database_name() -> str:
    return str(connection.settings_dict["NAME"])


def anchor_sign(anchor: Anchor, ring: Keyring) -> Anchor:
    key = ring.get(anchor.key_id) or ring.current
    unsigned = dataclasses.replace(anchor, key_id=key.id, anchor_mac="")
    return dataclasses.replace(unsigned, anchor_mac=key.mac(unsigned.signed_text()))


def anchor_parse(line: str, ring: Keyring) -> Anchor | str | None:
    """The anchor on ``line`` if it is well formed and signed; else why not (None: no line)."""
    if not line.strip():
        return None
    try:
        record: dict[str, Any] = json.loads(line)
        anchor = Anchor(**record)
    except (ValueError, TypeError):
        return "not an anchor record"
    key = ring.get(anchor.key_id)
    if key is None:
        return f"signed by key {anchor.key_id!r}, which is not in the keyring"
    if not hmac.compare_digest(key.mac(anchor.signed_text()), str(anchor.anchor_mac)):
        return "its anchor_mac does not match: not written with the audit key"
    return anchor
