"""Each staff member's language, time zone and triage flow (after a decision, open the next
item): stored, changed, and applied to every request (``StaffPreferences``, a middleware)."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import timezone, translation

from netshop.errors import DomainError
from operators.models import DEFAULT_TIME_ZONE, StaffPreference

# ``operators.api.errors.API_PREFIX``, repeated here: the API sits in a layer above this one.
API_PREFIX = "/api/"
LANGUAGE_CODES = frozenset(code for code, _ in settings.LANGUAGES)
# Offered in the switcher; any IANA zone is accepted.
COMMON_TIME_ZONES = (
    "Asia/Tokyo",
    "UTC",
    "Asia/Seoul",
    "Asia/Shanghai",
    "Asia/Singapore",
    "Asia/Kolkata",
    "Europe/London",
    "Europe/Berlin",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "Australia/Sydney",
)


def staff_preference_get(*, user: Any) -> StaffPreference:
    """The saved preference, or an unsaved default (blank language follows the browser)."""
    found = StaffPreference.objects.filter(user=user).first()
    return found or StaffPreference(user=user, language="", time_zone=DEFAULT_TIME_ZONE)


def staff_preference_set(
    *, user: Any, language: str, time_zone: str, open_next: bool | None = None
) -> StaffPreference:
    """Save the preferences; ``open_next`` left ``None`` keeps the one saved."""
    if language and language not in LANGUAGE_CODES:
        raise DomainError("unknown_language", language=language)
    if time_zone not in zoneinfo.available_timezones():
        raise DomainError("unknown_time_zone", time_zone=time_zone)
    chosen: dict[str, Any] = {"language": language, "time_zone": time_zone}
    if open_next is not None:
        chosen["open_next"] = open_next
    preference, _ = StaffPreference.objects.update_or_create(user=user, defaults=chosen)
    return preference


class StaffPreferences:
    """Every page a staff member opens, in their saved language and time zone.

    One place for the console, the audit pages, the dashboard and the error pages alike (the
    pages used to apply it one view at a time, and the manager pages followed the browser).
    Placed after ``LocaleMiddleware``, which chose the browser's language: a blank saved
    language keeps that choice. Customers and visitors are left as ``LocaleMiddleware`` chose,
    and so is the JSON API: its clients are programs that say their language in the request,
    and its list pages keep their query counts.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        staff = user is not None and user.is_authenticated and user.is_staff
        if not staff or request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        preference = staff_preference_get(user=user)
        language = preference.language or translation.get_language() or settings.LANGUAGE_CODE
        request.LANGUAGE_CODE = language
        request.staff_preference = preference  # type: ignore[attr-defined]
        with translation.override(language), timezone.override(_zone(preference.time_zone)):
            response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(DEFAULT_TIME_ZONE)
