"""Changes to a login that can end what its open sockets may hear (connected in ``ready``).

Each receiver only tells the login's sockets, after commit, to re-check (``socket_recheck``
decides); what bypasses these signals (a queryset ``update()``, SQL, an expired session) is
caught by the sockets' periodic re-check instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model, user_logged_out
from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete

from agents.support.events.transport import access_revoked_publish
from operators.access import session_digest

# A save that touches none of these cannot change access (e.g. ``last_login`` at each login).
ACCESS_FIELDS = frozenset({"is_active", "is_staff", "is_superuser", "password"})


def connect_access_signals() -> None:
    user_model = get_user_model()
    uid = "operators.signals."
    user_logged_out.connect(on_logged_out, dispatch_uid=f"{uid}logged_out")
    post_save.connect(on_user_saved, sender=user_model, dispatch_uid=f"{uid}user_saved")
    post_delete.connect(on_user_deleted, sender=user_model, dispatch_uid=f"{uid}user_deleted")
    m2m_changed.connect(
        on_groups_changed, sender=user_model.groups.through, dispatch_uid=f"{uid}groups"
    )
    post_save.connect(on_group_saved, sender=Group, dispatch_uid=f"{uid}group_saved")
    pre_delete.connect(on_group_deleted, sender=Group, dispatch_uid=f"{uid}group_deleted")


def on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Sent before the session is flushed: name it, so its sockets close without a re-check."""
    if user is None or user.pk is None:
        return
    session = getattr(request, "session", None)
    digest = session_digest(getattr(session, "session_key", None))
    access_revoked_publish(user_id=user.pk, session=digest)


def on_user_saved(
    sender: Any, instance: Any, created: bool, update_fields: Iterable[str] | None, **kwargs: Any
) -> None:
    if created or (update_fields is not None and not ACCESS_FIELDS & set(update_fields)):
        return
    access_revoked_publish(user_id=instance.pk)


def on_user_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    access_revoked_publish(user_id=instance.pk)


def on_groups_changed(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: set[Any] | None, **kwargs: Any
) -> None:
    """A login left a group (roles are groups), from either side of the relation."""
    if action == "post_remove":
        users: Iterable[Any] = (pk_set or set()) if reverse else [instance.pk]
    elif action == "pre_clear":  # after the clear nobody can say who the members were
        users = _members(instance) if reverse else [instance.pk]
    else:
        return
    _tell(users)


def on_group_saved(sender: Any, instance: Group, created: bool, **kwargs: Any) -> None:
    """A renamed group may no longer be a role group."""
    if not created:
        _tell(_members(instance))


def on_group_deleted(sender: Any, instance: Group, **kwargs: Any) -> None:
    """The cascade removes its members without ``m2m_changed``: name them before it does."""
    _tell(_members(instance))


def _members(group: Group) -> list[Any]:
    return list(group.user_set.values_list("pk", flat=True))


def _tell(user_ids: Iterable[Any]) -> None:
    for user_id in user_ids:
        access_revoked_publish(user_id=user_id)
