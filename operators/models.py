"""What the operators' side stores for itself: preferences, canned replies, notifications."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

DEFAULT_TIME_ZONE = "Asia/Tokyo"


class StaffPreference(models.Model):
    """How the console speaks to one person: language (blank: the browser's) and time zone, and
    whether a decision moves them on to the next item."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="console_preference"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, blank=True)
    time_zone = models.CharField(max_length=64, default=DEFAULT_TIME_ZONE)
    open_next = models.BooleanField(
        default=True,
        help_text="After a decision, open the next item of the queue nobody else holds.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language or 'browser'} / {self.time_zone}"


class CannedReply(models.Model):
    """A ready answer operators start from, per language; managers keep the library in the
    console (``operators.knowledge``) and the admin.

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


class NotificationKind(models.TextChoices):
    """Why a member of staff is mailed about an escalation."""

    LARGE_APPROVAL = "large_approval", _("new approval at or above the notification amount")
    DEADLINE_SOON = "deadline_soon", _("wait about to pass its deadline")
    OVERDUE = "overdue", _("approval past its deadline")
    SECOND_APPROVAL = "second_approval", _("approval waiting for a manager's second approval")


class NotificationPreference(models.Model):
    """Which notifications one person wants; without a row, their role's defaults apply
    (``operators.notifications.preferences``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    email_large_approval = models.BooleanField(default=False)
    email_deadline_soon = models.BooleanField(default=True)
    email_overdue = models.BooleanField(default=True)
    browser_alerts = models.BooleanField(
        default=False, help_text="A desktop notification and a beep for each new approval."
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notifications of {self.user_id}"


class Notification(models.Model):
    """One mail to one person about one escalation, claimed before it is sent.

    The unique constraint is what makes it exactly once: sweeps running at once, or a task
    delivered twice, find the row and send nothing more. ``sent_at`` is set in the
    transaction that holds the row's lock while the mail goes out.
    """

    escalation = models.ForeignKey(
        "agents.Escalation", on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["escalation", "kind", "recipient"], name="notification_once_per_recipient"
            )
        ]
        indexes = [models.Index(fields=["sent_at", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} of {self.escalation_id} to {self.recipient_id}"


class ConversationRead(models.Model):
    """When a member of staff last read a conversation: the inbox shows what came after as
    unread, for each person on their own."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    inquiry = models.ForeignKey("agents.Inquiry", on_delete=models.CASCADE, related_name="+")
    read_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "inquiry"], name="conversation_read_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} read {self.inquiry_id} at {self.read_at:%Y-%m-%d %H:%M}"


class ArticleSuggestion(models.Model):
    """An operator's answer a member of staff suggested as a help article: the draft it
    became, from which message, by whom. One per message (the unique constraint): pressing
    "Suggest as article" again opens the same draft instead of writing a second one."""

    message = models.OneToOneField(
        "agents.Message", on_delete=models.CASCADE, related_name="article_suggestion"
    )
    article = models.ForeignKey(
        "netshop.HelpArticle", on_delete=models.CASCADE, related_name="suggestions"
    )
    suggested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.message_id} suggested as {self.article_id}"
