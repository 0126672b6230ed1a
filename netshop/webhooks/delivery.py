"""One HTTP attempt of a delivery: a signed POST with httpx, bounded by a timeout.

Redirects are not followed (a 3xx is not an answer: the attempt fails and is retried), and
nothing of the response is read or kept but its status code.

Every connection goes only to a public address (``destinations``), the one checked: the host
is resolved once, each answer checked, and the socket opened to that address, never to the
name again (a name rebound to loopback between the check and the connection gets nothing).
Proxies from the environment are not used: a proxy would connect to whatever the name then
resolves to.
"""

from __future__ import annotations

import threading
import time
import typing
from dataclasses import dataclass

import httpcore
import httpx
from django.conf import settings

from netshop.webhooks.destinations import DestinationRefusedError, public_addresses
from netshop.webhooks.signing import body_bytes, signed_headers


@dataclass(frozen=True)
class AttemptResult:
    """How one attempt went: ``ok`` when the receiver answered 2xx; ``refused`` when nothing
    was sent and no retry would change that (the host is not a public address, or the URL
    cannot be read)."""

    ok: bool
    status_code: int | None = None
    error: str = ""
    refused: bool = False


class PublicOnlyBackend(httpcore.SyncBackend):
    """httpcore's sockets, opened only to public addresses, and to the address checked."""

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        if settings.NETSHOP_WEBHOOK_ALLOW_PRIVATE:
            return super().connect_tcp(host, port, timeout, local_address, socket_options)
        try:
            addresses = public_addresses(host, port)  # raises DestinationRefusedError
        except OSError as exc:  # resolves to nothing: a connection error, retried
            raise httpcore.ConnectError(str(exc)) from exc
        *others, last = addresses
        for address in others:
            try:
                return super().connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError:
                continue  # refused or unreachable: the next answer, as create_connection does
        return super().connect_tcp(str(last), port, timeout, local_address, socket_options)


_client: httpx.Client | None = None
_client_guard = threading.Lock()


def _shared_client() -> httpx.Client:
    """The process's one client, shared by its threads. Building a client loads the TLS
    certificate store (milliseconds of CPU); a shared one also keeps connections to a
    storefront alive between deliveries."""
    global _client
    with _client_guard:
        if _client is None or _client.is_closed:
            _client = httpx.Client(transport=_public_only_transport(), follow_redirects=False)
        return _client


def _public_only_transport() -> httpx.HTTPTransport:
    """httpx's transport, its pool connecting through ``PublicOnlyBackend``. httpx takes no
    network backend, so it is set on the pool httpx built (``test_delivery`` proves it is
    the one that connects)."""
    transport = httpx.HTTPTransport()
    pool = transport._pool
    if not isinstance(pool, httpcore.ConnectionPool):  # httpx changed: fail loudly, not open
        raise TypeError(f"httpx's transport holds a {type(pool).__name__}, not a pool")
    pool._network_backend = PublicOnlyBackend()
    return transport


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
    except DestinationRefusedError as refused:
        return AttemptResult(ok=False, error=f"not sent: {refused}", refused=True)
    except httpx.InvalidURL as exc:  # e.g. 0177.0.0.1, which httpx will not read: never will
        return AttemptResult(ok=False, error=f"not sent: {exc}"[:200], refused=True)
    except httpx.TimeoutException:
        return AttemptResult(ok=False, error=f"timed out after {timeout:g} s")
    except httpx.HTTPError as exc:
        return AttemptResult(ok=False, error=f"{type(exc).__name__}: {exc}"[:200])
    ok = 200 <= code < 300
    return AttemptResult(ok=ok, status_code=code, error="" if ok else f"HTTP {code}")
