"""Who may see what: the one role check every page and socket uses, and an open socket's rule.

``socket_standing`` decides at connect and ``socket_recheck`` later (on a signal or a timer),
so a socket lives exactly as long as its login may hold it.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from enum import IntEnum
from importlib import import_module
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare

from netshop.roles import Role, user_has_role

View = TypeVar("View", bound=Callable[..., HttpResponse])


def role_required(role: Role) -> Callable[[View], View]:
    """Anonymous visitors are sent to log in; signed-in users without the role get 403."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not user_has_role(request.user, role):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


# --- Sockets ---------------------------------------------------------------------------------


class SocketClose(IntEnum):
    """Why the server closed a console or help socket: one code per reason.

    ``static/js/console/socket.js`` and ``static/js/help.js`` repeat these numbers (a test
    keeps them equal): the pages stop reconnecting on ``SIGNED_OUT`` and ``FORBIDDEN``.
    """

    BAD_FRAME = 4400  # the client sent something that is not JSON text
    SIGNED_OUT = 4401  # no live session: never signed in, logged out, deactivated, expired
    FORBIDDEN = 4403  # signed in, but not allowed this socket (no role, not the owner)
    NOT_FOUND = 4404  # no socket at that path


Permits = Callable[[Any], bool]


def socket_standing(*, user: Any, permits: Permits) -> SocketClose | None:
    """``None`` while ``user`` may keep the socket open, else the code to close it with."""
    if user is None or not user.is_authenticated or not user.is_active:
        return SocketClose.SIGNED_OUT
    return None if permits(user) else SocketClose.FORBIDDEN


def socket_recheck(
    *, session_key: str | None, user_id: object, permits: Permits
) -> SocketClose | None:
    """``socket_standing`` read afresh: the socket's session must still sign in its user.

    Covers what no signal reports: a session deleted or expired, a password changed elsewhere,
    a queryset ``update()`` or a direct SQL edit of the login or its groups.
    """
    user = session_user(session_key=session_key)
    if user is None or user.pk != user_id:
        return SocketClose.SIGNED_OUT
    return socket_standing(user=user, permits=permits)


def session_user(*, session_key: str | None) -> Any | None:
    """The user the stored session ``session_key`` signs in now, if any (read-only).

    Mirrors ``django.contrib.auth.get_user`` without its writes: a socket's check must not
    flush or cycle a session the browser still holds (the next HTTP request does that).
    """
    if not session_key:
        return None
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = load_backend(backend_path).get_user(user_id)  # None when deactivated
    if user is None:
        return None
    stored = session.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return user if any(constant_time_compare(stored, h) for h in hashes) else None


def session_digest(session_key: str | None) -> str | None:
    """Names a session in channel-layer messages without putting its key in Redis."""
    if not session_key:
        return None
    return hashlib.sha256(session_key.encode()).hexdigest()
