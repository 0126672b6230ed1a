"""Headers for a socket on the real ASGI application: an allowed Origin and, for a user,
their session cookie. Made outside the event loop (logging in uses the ORM)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

ORIGIN = (b"origin", b"http://testserver")


def socket_headers(user: User | None) -> list[tuple[bytes, bytes]]:
    if user is None:
        return [ORIGIN]
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [ORIGIN, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())]
