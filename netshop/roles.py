"""Staff roles, stored as Django groups: operators decide escalations; managers also audit.

A manager can do everything an operator can. Check roles with ``user_has_role`` rather than
with group names, so that implication lives in one place.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db import transaction


class Role(StrEnum):
    OPERATOR = "operator"
    MANAGER = "manager"


# The groups whose members hold a role: a manager also counts as an operator.
_HOLDERS: dict[Role, frozenset[str]] = {
    Role.OPERATOR: frozenset({Role.OPERATOR, Role.MANAGER}),
    Role.MANAGER: frozenset({Role.MANAGER}),
}

# Both roles may browse the shop's data read-only in the admin, as far as their work needs it.
# Operators answer customers and decide escalations: customers, orders, shipments, payments
# and what was done about them. They have no need for the integrations' books, which managers
# (the shop's leads) audit: API tokens, the audit log, the payment gateway's and the
# carrier's transaction ledgers, and the storefronts' webhook deliveries (every storefront's
# payloads) with their per-conversation status.
_HIDDEN_FROM: dict[Role, frozenset[str]] = {
    Role.OPERATOR: frozenset(
        {
            "view_apitoken",
            "view_auditentry",
            "view_gatewaytransaction",
            "view_carrierbooking",
            "view_webhookdelivery",
            "view_webhooksubjectstatus",
        }
    ),
    Role.MANAGER: frozenset(),
}

_ROLES_CACHE = "_netshop_roles"


def ensure_role_groups() -> dict[Role, Group]:
    """Create the role groups (idempotent) and give them exactly the view permissions on the
    shop's data their role has (one a role no longer has is taken away)."""
    groups = {}
    views = Permission.objects.filter(
        content_type__app_label="netshop", codename__startswith="view_"
    )
    for role in Role:
        group, _ = Group.objects.get_or_create(name=role.value)
        hidden = _HIDDEN_FROM[role]
        group.permissions.add(*[p for p in views if p.codename not in hidden])
        group.permissions.remove(*[p for p in views if p.codename in hidden])
        groups[role] = group
    return groups


@transaction.atomic
def role_assign(*, user: Any, role: Role | str) -> None:
    """Make ``user`` a staff member with exactly ``role`` (a previous role is replaced)."""
    role = Role(role)
    groups = ensure_role_groups()
    user.groups.remove(*[group for other, group in groups.items() if other != role])
    user.groups.add(groups[role])
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.__dict__.pop(_ROLES_CACHE, None)


def user_has_role(user: Any, role: Role | str) -> bool:
    """True if ``user`` is an active staff member holding ``role`` (superusers hold all)."""
    role = Role(role)
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    if not user.is_staff:
        return False
    if _ROLES_CACHE not in user.__dict__:
        names = user.groups.filter(name__in=list(Role)).values_list("name", flat=True)
        user.__dict__[_ROLES_CACHE] = frozenset(names)
    return bool(user.__dict__[_ROLES_CACHE] & _HOLDERS[role])
