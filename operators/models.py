"""What the operators' side stores for itself: display preferences and canned replies."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

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


class CannedReply(models.Model):
    """A ready answer operators start from, per language; leads keep the library in the admin.

    Inactive replies stay for the record but are no longer offered in the composer.
    """

    title = models.CharField(_("title"), max_length=120)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    body = models.TextField(_("body"))
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["language", "title"]
        verbose_name = _("canned reply")
        verbose_name_plural = _("canned replies")

    def __str__(self) -> str:
        return f"[{self.language}] {self.title}"
