"""The webhook signature: HMAC-SHA256 over ``"{timestamp}.{body}"`` with the token's secret.

Pure functions, shared by the sender and by anyone checking a delivery (the tests' receiver,
the README's example). As Stripe and GitHub do, the timestamp is signed with the body so a
captured request cannot be replayed later with a fresh timestamp.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

SIGNATURE_VERSION = "v1"
ID_HEADER = "NetShop-Webhook-Id"
TIMESTAMP_HEADER = "NetShop-Webhook-Timestamp"
SIGNATURE_HEADER = "NetShop-Webhook-Signature"
EVENT_HEADER = "NetShop-Webhook-Event"
# How old a timestamp a receiver should accept (our advice; a receiver chooses its own).
TOLERANCE_S = 300


def body_bytes(payload: dict[str, Any]) -> bytes:
    """The exact bytes sent: compact, key-sorted UTF-8 JSON, the same on every attempt."""
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def signature(*, secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value: ``v1=<hex HMAC-SHA256(secret, "{timestamp}.{body}")>``."""
    signed = str(timestamp).encode() + b"." + body
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return f"{SIGNATURE_VERSION}={digest}"


def signature_valid(
    *, secret: str, timestamp: int, body: bytes, header: str, now: float, tolerance_s: int
) -> bool:
    """Whether ``header`` (one or more comma-separated ``v1=...``) signs this body at this
    timestamp, and the timestamp is within ``tolerance_s`` of ``now``."""
    if abs(now - timestamp) > tolerance_s:
        return False
    expected = signature(secret=secret, timestamp=timestamp, body=body)
    return any(hmac.compare_digest(expected, part.strip()) for part in header.split(","))


def signed_headers(
    *, secret: str, delivery_id: str, event: str, timestamp: int, body: bytes
) -> dict[str, str]:
    """The headers one attempt of a delivery carries."""
    return {
        "Content-Type": "application/json",
        "User-Agent": "NetShop-Webhooks/1",
        ID_HEADER: delivery_id,
        EVENT_HEADER: event,
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature(secret=secret, timestamp=timestamp, body=body),
    }
