"""What the operators' side stores for itself: each staff member's display preferences."""

from __future__ import annotations

from django.conf import settings
from django.db import models

DEFAULT_TIME_ZONE = "Asia/Tokyo"


class StaffPreference(models.Model):
    """How the console speaks to one person: language (blank: the browser's) and time zone."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="console_preference"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, blank=True)
    time_zone = models.CharField(max_length=64, default=DEFAULT_TIME_ZONE)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language or 'browser'} / {self.time_zone}"
