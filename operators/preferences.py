"""Each staff member's language, time zone and triage flow (after a decision, open the next
item): stored, changed, and applied to a request."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from netshop.errors import DomainError
from operators.models import DEFAULT_TIME_ZONE, StaffPreference

View = TypeVar("View", bound=Callable[..., HttpResponse])
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


def with_staff_preferences(view: View) -> View:
    """Run ``view`` in the signed-in user's language and time zone."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        preference = staff_preference_get(user=request.user)
        language = preference.language or translation.get_language() or settings.LANGUAGE_CODE
        request.LANGUAGE_CODE = language
        request.staff_preference = preference  # type: ignore[attr-defined]
        with translation.override(language), timezone.override(_zone(preference.time_zone)):
            response = view(request, *args, **kwargs)
        response.headers.setdefault("Content-Language", language)
        return response

    return wrapper  # type: ignore[return-value]


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(DEFAULT_TIME_ZONE)
