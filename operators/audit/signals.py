"""Console logins go into the audit log (connected in ``OperatorsConfig.ready``)."""

from __future__ import annotations

from typing import Any

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
