"""How an entry's hash is computed: one definition for the writer and the verifier."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from netshop.audit.models import AuditEntry


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 as is: the same value always gives the same text."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def entry_payload(entry: AuditEntry) -> dict[str, Any]:
    """The hashed fields of ``entry`` (all but the hashes themselves)."""
    return {
        "seq": entry.seq,
        "created_at": entry.created_at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
        "action": entry.action,
        "actor": entry.actor,
        "inquiry_id": str(entry.inquiry_id) if entry.inquiry_id else None,
        "operation_id": entry.operation_id,
        "verdict": entry.verdict,
        "reason": entry.reason,
        "data": entry.data,
    }


def entry_hash(entry: AuditEntry) -> str:
    """sha256 over the previous entry's hash and this entry's canonical payload."""
    text = entry.prev_hash + canonical_json(entry_payload(entry))
    return hashlib.sha256(text.encode()).hexdigest()
