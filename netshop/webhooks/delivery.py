"""One HTTP attempt of a delivery: a signed POST with httpx, bounded by a timeout.

Redirects are not followed (a 3xx is not an answer: the attempt fails and is retried), and
nothing of the response is read or kept but its status code.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import httpx
from django.conf import settings

from netshop.webhooks.signing import body_bytes, signed_headers


@dataclass(frozen=True)
class AttemptResult:
    """How one attempt went: ``ok`` when the receiver answered 2xx."""

    ok: bool
    status_code: int | None = None
    error: str = ""


_client: httpx.Client | None = None
_client_guard = threading.Lock()


def _shared_client() -> httpx.Client:
    """The process's one client, shared by its threads. Building a client loads the TLS
    certificate store (milliseconds of CPU); a shared one also keeps connections to a
    storefront alive between deliveries."""
    global _client
    with _client_guard:
        if _client is None or _client.is_closed:
            _client = httpx.Client(follow_redirects=False)
        return _client


def post_signed(
    *, url: str, secret: str, delivery_id: str, event: str, payload: dict[str, object]
) -> AttemptResult:
    """POST ``payload`` to ``url``, signed now; a timeout or connection error is a result."""
    body = body_bytes(payload)
    headers = signed_headers(
        secret=secret, delivery_id=delivery_id, event=event, timestamp=int(time.time()), body=body
    )
    timeout = settings.NETSHOP_WEBHOOK_TIMEOUT_S
    try:
        # Streamed and closed unread: only the status matters, and a receiver dribbling out a
        # large body cannot hold the worker.
        with _shared_client().stream(
            "POST", url, content=body, headers=headers, timeout=timeout
        ) as response:
            code = response.status_code
    except httpx.TimeoutException:
        return AttemptResult(ok=False, error=f"timed out after {timeout:g} s")
    except httpx.HTTPError as exc:
        return AttemptResult(ok=False, error=f"{type(exc).__name__}: {exc}"[:200])
    ok = 200 <= code < 300
    return AttemptResult(ok=ok, status_code=code, error="" if ok else f"HTTP {code}")
