"""The login perimeter's two hooks into django-axes: who the client is, and what a locked-out
login sees.

Failures are counted per (username, client address); a pair past the limit is refused until the
cool-off passes or someone unlocks it (``manage.py axes_reset_username USERNAME``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone

LOCKED_OUT_STATUS = 429  # Too Many Requests: the credentials may be right, the rate is not


def client_ip(request: HttpRequest) -> str | None:
    """The address failures are counted against.

    Behind ``NETSHOP_TRUSTED_PROXY_COUNT`` proxies that each append the peer they saw to
    X-Forwarded-For, the client is that many hops from the right: entries further left are
    whatever the client chose to send, so they are never trusted.
    """
    count = settings.NETSHOP_TRUSTED_PROXY_COUNT
    if count > 0:
        forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= count:
            return hops[-count]
    remote = request.META.get("REMOTE_ADDR")
    return str(remote) if remote else None


def login_locked_out(*, username: str) -> bool:
    """Is ``username`` locked out of logging in, from any address, right now?

    A lockout is counted per (username, address), but a personal API token is a second way
    into the same account from nowhere in particular: while any lockout of the account
    stands (past ``AXES_FAILURE_LIMIT`` failures, within the cool-off), its tokens are
    refused too. Unlocking (``axes_reset_username``, the admin, the cool-off passing) lets
    them in again.
    """
    attempts = AccessAttempt.objects.filter(
        username=username, failures_since_start__gte=settings.AXES_FAILURE_LIMIT
    )
    cool_off = get_cool_off()
    if cool_off is not None:
        attempts = attempts.filter(attempt_time__gte=timezone.now() - cool_off)
    return bool(attempts.exists())  # axes ships no type hints


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, str] | None = None,
) -> HttpResponse:
    """The login page's lockout notice, in the visitor's language; no form to try again with."""
    cool_off = get_cool_off(request)
    context = {
        "username": get_client_username(request, credentials) or "",
        "cooloff_minutes": int(cool_off.total_seconds() // 60) if cool_off else None,
    }
    return render(request, "registration/locked_out.html", context, status=LOCKED_OUT_STATUS)


def password_reset_enabled() -> bool:
    """Reset links go out by mail: without a mail server the pages would promise a mail that
    never comes, and the form would only tell strangers which addresses have accounts."""
    return bool(settings.EMAIL_HOST)


def requires_password_reset(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """404 for a password-reset page while reset is off (``EMAIL_HOST`` unset)."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not password_reset_enabled():
            raise Http404("Password reset is not enabled.")
        return view(request, *args, **kwargs)

    return guarded
