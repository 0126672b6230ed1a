"""What a writer checks before chaining to the head, and the entries it adds about it.

The head is the entry every new one will vouch for. A writer therefore checks its MAC first:

* signed by a key the writer does not hold as current: the chain changes key here, so an
  ``audit.key_rotated`` entry, signed by the old key (when the keyring still has it), names
  the new key id before the first entry the new key signs;
* not signed at all (a MAC that does not verify, a key id no configured key has, or no key
  on top of keyed entries): someone
  wrote the table without the key. The writer still appends (refusing would let anyone with
  INSERT rights stop every audited action) but first records ``audit.tamper_detected``
  naming the head's seq, and logs an error. ``verify_audit`` reports that entry as forged.
"""

from __future__ import annotations

import logging

from netshop.audit.actions import SYSTEM_ACTOR, AuditAction
from netshop.audit.chain import LEGACY_KEY_ID, Signature, entry_signature
from netshop.audit.keys import AuditKey, Keyring
from netshop.audit.models import AuditEntry

logger = logging.getLogger(__name__)

Signed = list[tuple[AuditEntry, AuditKey]]


def head_signature(head: AuditEntry, ring: Keyring) -> Signature:
    """How ``head`` is signed, where an unkeyed head counts as unsigned once the chain is
    keyed: only history from before the first key may be unkeyed, and an unkeyed entry on
    top of keyed ones was written by someone without the key."""
    signature = entry_signature(head, ring)
    if signature == "legacy" and (
        AuditEntry.objects.filter(seq__lt=head.seq).exclude(key_id=LEGACY_KEY_ID).exists()
    ):
        return "invalid"
    return signature


def custody_entries(head: AuditEntry | None, ring: Keyring) -> Signed:
    """The entries to append before the caller's, each with the key that signs it."""
    if head is None:
        return []
    signature = head_signature(head, ring)
    if signature in ("invalid", "unknown_key"):
        logger.error("audit head seq %s is not signed with the audit key (%s)", head.seq, signature)
        return [
            (_entry(AuditAction.AUDIT_TAMPER_DETECTED, seq=head.seq, found=signature), ring.current)
        ]
    if head.key_id == ring.current.id:
        return []
    # A legacy head has no key to sign the hand-over: the new key starts the keyed chain.
    signer = ring.get(head.key_id) if head.key_id != LEGACY_KEY_ID else None
    rotated = _entry(
        AuditAction.AUDIT_KEY_ROTATED, previous_key_id=head.key_id, new_key_id=ring.current.id
    )
    return [(rotated, signer or ring.current)]


def _entry(action: str, **data: object) -> AuditEntry:
    return AuditEntry(action=action, actor=SYSTEM_ACTOR, data=data)
