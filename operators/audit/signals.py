"""Console logins and login lockouts go into the audit log (connected in
``OperatorsConfig.ready``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from netshop.audit import AuditAction, audit_record
from netshop.roles import Role, user_has_role


def record_console_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Staff logins only: who, and with which role. No address or agent string (not needed)."""
    if user is None or not user_has_role(user, Role.OPERATOR):
        return
    role = Role.MANAGER if user_has_role(user, Role.MANAGER) else Role.OPERATOR
    audit_record(
        action=AuditAction.CONSOLE_LOGIN,
        actor=user.get_username(),
        data={"user_id": user.pk, "role": role.value},
    )


def record_login_locked_out(sender: Any, request: Any, username: str | None, **kwargs: Any) -> None:
    """The moment a login is locked (django-axes signals every refused try after it too): whose
    login, and after how many failures. Only for logins that exist, so a stranger's guesses at
    names write nothing; no address, as for logins."""
    if getattr(request, "axes_failures_since_start", None) != settings.AXES_FAILURE_LIMIT:
        return
    user = get_user_model()._default_manager.filter(username=username or "").first()
    if user is None:
        return
    audit_record(
        action=AuditAction.LOGIN_LOCKED_OUT,
        actor=user.get_username(),
        data={"user_id": user.pk, "failures": settings.AXES_FAILURE_LIMIT},
    )
