"""Who is calling: a storefront (its bearer token) or a staff member (session or own token).

Authentication answers 401; a caller who is known but lacks the role gets 403 from
``require_role``. A staff session's unsafe requests must carry the CSRF token, as in the rest
of the site; a staff token needs none, since no browser sends it on its own.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest
from ninja.errors import AuthorizationError
from ninja.security import APIKeyCookie, HttpBearer

from netshop.errors import DomainError
from netshop.models import ApiToken
from netshop.perimeter import login_locked_out
from netshop.roles import Role, user_has_role


def live_tokens(key: str) -> QuerySet[ApiToken]:
    """The unrevoked token with this key, if any (looked up by digest only)."""
    return ApiToken.objects.filter(key_digest=ApiToken.digest(key), revoked_at__isnull=True)


class StorefrontToken(HttpBearer):
    """``Authorization: Bearer <key>``: a storefront's token that has not been revoked."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        if not token:
            return None
        return live_tokens(token).filter(user__isnull=True).first()


class StaffToken(HttpBearer):
    """``Authorization: Bearer <key>``: a staff member's own token; the request acts as them.

    The role is checked on each request like a session's, so taking a role away takes it
    from the person's tokens too; a deactivated account's tokens stop working, and a
    locked-out account's (too many failed logins) are refused with 401 ``account_locked``
    until it is unlocked.
    """

    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        if not token:
            return None
        found = live_tokens(token).filter(user__is_active=True).select_related("user").first()
        if found is None or found.user is None:
            return None
        if login_locked_out(username=found.user.get_username()):
            raise DomainError("account_locked")
        request.user = found.user  # audit and services see the same person a session shows
        return found.user


class StaffSession(APIKeyCookie):
    """The signed-in user's session; unsafe methods are CSRF-checked.

    Unlike ninja's ``SessionAuth``, an anonymous caller gets 401 rather than a CSRF 403: the
    CSRF check only means something once a session is there to be abused.
    """

    param_name = settings.SESSION_COOKIE_NAME

    def __call__(self, request: HttpRequest) -> Any:
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        return request.user


storefront = StorefrontToken()
staff_token = StaffToken()
staff = StaffSession()
STAFF = [staff_token, staff]  # either proves a staff member; roles are checked per endpoint


def require_role(request: HttpRequest, role: Role) -> User:
    """The staff user behind ``request`` if they hold ``role``; 403 otherwise (a storefront
    token included: it authenticates a shop, not a person)."""
    user = getattr(request, "auth", None)
    if not isinstance(user, User) or not user_has_role(user, role):
        raise AuthorizationError(message=f"This needs the {role.value} role.")
    return user


def require_storefront_or_role(request: HttpRequest, role: Role) -> None:
    """Let a storefront through; a staff user must hold ``role``."""
    if not is_storefront(request):
        require_role(request, role)


def is_storefront(request: HttpRequest) -> bool:
    """Is the caller the shop's storefront (which relays replies to the customer as written)?"""
    return storefront_of(request) is not None


def storefront_of(request: HttpRequest) -> ApiToken | None:
    """The storefront token the request authenticated with (None for staff): what it may read
    and write is the conversations it submitted."""
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ApiToken) else None
