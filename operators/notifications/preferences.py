"""Who wants which notification: a saved choice, or their role's default.

Defaults: every operator hears of a wait about to pass its deadline (only its holder, once
claimed); managers also hear of large new approvals and of approvals overdue. Desktop alerts
are off until a person switches them on.
"""

from __future__ import annotations

from typing import Any

from netshop.roles import Role, user_has_role
from operators.models import NotificationKind, NotificationPreference

PREFERENCE_FIELDS: dict[str, str] = {
    NotificationKind.LARGE_APPROVAL: "email_large_approval",
    # A four-eyes approval is a large one: who wants those wants to give the second approval.
    NotificationKind.SECOND_APPROVAL: "email_large_approval",
    NotificationKind.DEADLINE_SOON: "email_deadline_soon",
    NotificationKind.OVERDUE: "email_overdue",
}


def notification_preference_get(*, user: Any) -> NotificationPreference:
    """The saved preference, or an unsaved one holding the role's defaults."""
    found = NotificationPreference.objects.filter(user=user).first()
    return found or notification_preference_default(user=user)


def notification_preference_default(*, user: Any) -> NotificationPreference:
    manager = user_has_role(user, Role.MANAGER)
    return NotificationPreference(
        user=user,
        email_large_approval=manager,
        email_deadline_soon=True,
        email_overdue=manager,
        browser_alerts=False,
    )


def notification_preference_set(
    *,
    user: Any,
    email_large_approval: bool,
    email_deadline_soon: bool,
    email_overdue: bool,
    browser_alerts: bool,
) -> NotificationPreference:
    preference, _ = NotificationPreference.objects.update_or_create(
        user=user,
        defaults={
            "email_large_approval": email_large_approval,
            "email_deadline_soon": email_deadline_soon,
            "email_overdue": email_overdue,
            "browser_alerts": browser_alerts,
        },
    )
    return preference


def wants(preference: NotificationPreference, kind: str) -> bool:
    return bool(getattr(preference, PREFERENCE_FIELDS[kind]))
