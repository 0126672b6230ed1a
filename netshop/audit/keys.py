"""The audit key: what signs the chain and its anchors, and the retired keys that still verify.

The key never lives in the database: someone who can write the table can recompute a plain
hash chain, but not a keyed one. ``NETSHOP_AUDIT_KEY`` is ``KEY_ID:SECRET`` (or a bare
``SECRET``, whose id is then derived from it); ``NETSHOP_AUDIT_KEYS_OLD`` lists retired keys
the same way, comma-separated, so entries and anchors signed before a rotation still verify.
The key id is stored with each entry and anchor: it says which key to check them with.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import os
import re
import secrets
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

# A secret shorter than this is guessable offline from any entry's MAC.
MIN_SECRET_LENGTH = 32
_KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,40}")


@dataclasses.dataclass(frozen=True)
class AuditKey:
    id: str
    secret: bytes = dataclasses.field(repr=False)

    def mac(self, text: str) -> str:
        """HMAC-SHA256 of ``text`` as 64 hex digits (the width of the old SHA-256 column)."""
        return hmac.new(self.secret, text.encode(), hashlib.sha256).hexdigest()


@dataclasses.dataclass(frozen=True)
class Keyring:
    """The key new entries are signed with, and every key an entry may name."""

    current: AuditKey
    keys: dict[str, AuditKey]

    def get(self, key_id: str) -> AuditKey | None:
        return self.keys.get(key_id)


def parse_key(value: str) -> AuditKey:
    """``KEY_ID:SECRET`` or ``SECRET``; refuses what would make a weak or ambiguous key."""
    key_id, sep, secret = value.strip().partition(":")
    if not sep or not _KEY_ID.fullmatch(key_id):
        key_id, secret = "", value.strip()
    if len(secret) < MIN_SECRET_LENGTH:
        raise ImproperlyConfigured(
            f"an audit key's secret needs at least {MIN_SECRET_LENGTH} characters "
            "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    return AuditKey(id=key_id or _derived_id(secret), secret=secret.encode())


def parse_keyring(current: str, old: str = "") -> Keyring:
    key = parse_key(current)
    keys = {k.id: k for k in (parse_key(item) for item in old.split(",") if item.strip())}
    clash = keys.get(key.id)
    if clash is not None and clash.secret != key.secret:
        raise ImproperlyConfigured(f"audit key id {key.id!r} names two different secrets")
    keys[key.id] = key
    return Keyring(current=key, keys=keys)


def keyring() -> Keyring:
    """The configured keyring (parsed once per distinct configuration)."""
    current = settings.NETSHOP_AUDIT_KEY
    path = getattr(settings, "NETSHOP_AUDIT_KEY_FILE", None)
    if not current and path is not None:
        current = local_audit_key(Path(path))
    return _cached(current, settings.NETSHOP_AUDIT_KEYS_OLD)


def local_audit_key(path: Path) -> str:
    """An embedded DEBUG run's own audit key, kept in ``var/`` (made once, mode 600), never in
    the database; settings only name the file, this makes it when the key is first needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="utf-8").strip()
    key = f"dev:{secrets.token_urlsafe(32)}"
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(key + "\n")
    return key


@cache
def _cached(current: str, old: str) -> Keyring:
    return parse_keyring(current, old)


def _derived_id(secret: str) -> str:
    # A fingerprint, not the secret: guessing the secret from it is as hard as from a MAC.
    return "k-" + hashlib.sha256(b"netshop-audit-key-id:" + secret.encode()).hexdigest()[:12]
