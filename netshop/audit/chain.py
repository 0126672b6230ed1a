"""How an entry's MAC is computed: one definition for the writer and the verifier.

An entry's ``hash`` column holds HMAC-SHA256, keyed with the audit key (never stored in the
database), over the previous entry's MAC, the signing key's id and the entry's canonical
payload (``seq`` included). Whoever can write the table but lacks the key can neither edit an
entry nor add one that verifies. Entries written before the chain was keyed carry an empty
``key_id`` and a plain SHA-256 (``entry_hash``); they may only precede the first keyed entry,
whose MAC then covers them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from typing import Any, Literal

from netshop.audit.keys import AuditKey, Keyring
from netshop.audit.models import AuditEntry

# ``key_id`` of the entries written before the chain was keyed.
LEGACY_KEY_ID = ""

Signature = Literal["valid", "legacy", "invalid", "unknown_key"]


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 as is: the same value always gives the same text."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def entry_payload(entry: AuditEntry) -> dict[str, Any]:
    """The signed fields of ``entry`` (all but the MACs and the key id themselves)."""
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


def entry_mac(entry: AuditEntry, key: AuditKey) -> str:
    """HMAC-SHA256 over the previous MAC, the key id and the canonical payload."""
    return key.mac("\n".join((entry.prev_hash, key.id, canonical_json(entry_payload(entry)))))


def entry_hash(entry: AuditEntry) -> str:
    """The unkeyed SHA-256 of the entries written before the chain was keyed."""
    text = entry.prev_hash + canonical_json(entry_payload(entry))
    return hashlib.sha256(text.encode()).hexdigest()


def entry_signature(entry: AuditEntry, ring: Keyring) -> Signature:
    """Whether ``entry`` carries a MAC only the holder of the key it names could compute."""
    if entry.key_id == LEGACY_KEY_ID:
        return "legacy" if hmac.compare_digest(entry_hash(entry), entry.hash) else "invalid"
    key = ring.get(entry.key_id)
    if key is None:
        return "unknown_key"
    return "valid" if hmac.compare_digest(entry_mac(entry, key), entry.hash) else "invalid"
