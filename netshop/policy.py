"""The shop's policy limits: the amounts, windows and rates that gate money and deadlines.

A manager changes them in the console (``policy_change``); each change is a new, immutable
``PolicyVersion`` with who, when and why, and an entry in the audit chain. ``policy_in_force``
reads the newest version from the database on every call (one indexed query, no cache), so a
change applies at once in every web and worker process without a restart. With no version
saved, the environment's values (``NETSHOP_FOUR_EYES_YEN`` and the rest, read at the call, so
``override_settings`` works) are in force as version 0; the first save is version 1.

Two managers saving at once are serialised on a lock and get consecutive versions. A save
changes only the limits its form changed (relative to the version it was based on): a change
another manager saved meanwhile is kept, and one to the same limit is refused, never lost.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from typing import Any, Final

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from netshop.audit import AuditAction, audit_record
from netshop.errors import DomainError
from netshop.models import PolicyVersion

ENVIRONMENT_VERSION: Final = 0  # no version saved: the environment's values are in force
# pg_advisory_xact_lock key: the bytes "nspolicy" read as an integer.
POLICY_LOCK_KEY: Final = 0x6E73706F6C696379 & 0x7FFFFFFFFFFFFFFF


@dataclasses.dataclass(frozen=True)
class Policy:
    """The limits in force, with the version they come from (0: the environment's)."""

    version: int
    four_eyes_yen: int  # a refund or cancellation of this many yen or more needs two approvals
    operator_limit_yen: int  # above this only managers may approve
    coupon_cap_yen: int  # an apology coupon's value at most
    coupon_limit_per_customer: int  # apology coupons per customer within the window
    coupon_window_days: int
    return_window_days: int  # days after delivery an unused item may be returned
    exchange_window_days: int  # days after delivery a sized item may be exchanged
    approval_deadline_minutes: int  # an approval or a draft is due within this
    review_sample: float  # the share of AI-resolved conversations sampled for review


@dataclasses.dataclass(frozen=True)
class Limit:
    """One limit as people see it: the field, its environment variable, label and unit."""

    name: str
    setting: str
    label: Promise
    unit: Promise


LIMITS: Final[tuple[Limit, ...]] = (
    Limit("four_eyes_yen", "NETSHOP_FOUR_EYES_YEN", _("Four-eyes amount"), _("yen")),
    Limit("operator_limit_yen", "NETSHOP_OPERATOR_LIMIT_YEN", _("Operator limit"), _("yen")),
    Limit("coupon_cap_yen", "NETSHOP_COUPON_CAP_YEN", _("Apology coupon cap"), _("yen")),
    Limit(
        "coupon_limit_per_customer",
        "NETSHOP_COUPON_LIMIT_PER_CUSTOMER",
        _("Apology coupons per customer"),
        _("coupons"),
    ),
    Limit("coupon_window_days", "NETSHOP_COUPON_WINDOW_DAYS", _("Coupon window"), _("days")),
    Limit("return_window_days", "NETSHOP_RETURN_WINDOW_DAYS", _("Return window"), _("days")),
    Limit("exchange_window_days", "NETSHOP_EXCHANGE_WINDOW_DAYS", _("Exchange window"), _("days")),
    Limit(
        "approval_deadline_minutes",
        "NETSHOP_APPROVAL_DEADLINE_MINUTES",
        _("Approval and draft deadline"),
        _("minutes"),
    ),
    Limit("review_sample", "NETSHOP_REVIEW_SAMPLE", _("Review sample rate"), _("share, 0 to 1")),
)
LIMIT_NAMES: Final[tuple[str, ...]] = tuple(limit.name for limit in LIMITS)


def policy_in_force() -> Policy:
    """The policy now: the newest saved version, else the environment's (version 0)."""
    row = PolicyVersion.objects.order_by("-number").values("number", *LIMIT_NAMES).first()
    if row is None:
        return policy_from_environment()
    return Policy(version=row.pop("number"), **row)


def policy_from_environment() -> Policy:
    """The environment's values: the initial policy, in force until a manager saves one."""
    values = {limit.name: getattr(settings, limit.setting) for limit in LIMITS}
    return Policy(version=ENVIRONMENT_VERSION, **values)


def policy_values(policy: Policy) -> dict[str, int | float]:
    """The limits of ``policy`` by name, without its version."""
    return {name: getattr(policy, name) for name in LIMIT_NAMES}


@transaction.atomic
def policy_change(
    *, user: User, values: Mapping[str, Any], reason: str, based_on: int
) -> PolicyVersion:
    """Save the limits in ``values`` that differ from version ``based_on`` (the one the
    manager was shown) as the next version, with ``reason``, and audit it. The role is the
    caller's to check. Raises ``DomainError``: no reason, an invalid value (nothing is
    saved), nothing changed, or a limit someone else changed meanwhile."""
    reason = reason.strip()
    if not reason:
        raise DomainError("policy_reason_required")
    _lock()
    current = policy_in_force()
    base = current if based_on == current.version else _version(based_on)
    changes = {k: v for k, v in values.items() if k in LIMIT_NAMES and v != getattr(base, k)}
    _refuse_conflicts(changes, base=base, current=current)
    new_values = policy_values(current) | changes
    if new_values == policy_values(current):
        raise DomainError("policy_unchanged")
    version = PolicyVersion(
        number=current.version + 1, created_by=user, reason=reason, **new_values
    )
    _validated(version)
    version.save()
    _audit(version, before=current, user=user)
    return version


def _lock() -> None:
    """Serialise saves: the next number is read and written under one lock (SQLite's write
    transactions are serialised already)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [POLICY_LOCK_KEY])


def _version(number: int) -> Policy:
    """A saved version (or the environment's, 0), as the policy it was."""
    if number == ENVIRONMENT_VERSION:
        return policy_from_environment()
    row = PolicyVersion.objects.filter(number=number).values("number", *LIMIT_NAMES).first()
    if row is None:
        raise DomainError("policy_invalid", field="based_on", problem=f"no version {number}")
    return Policy(version=row.pop("number"), **row)


def _refuse_conflicts(changes: Mapping[str, Any], *, base: Policy, current: Policy) -> None:
    """A limit this save changes that another save changed since ``base`` to something else
    would be lost one way or the other: refused, naming who and which."""
    clashing = [
        name
        for name, value in changes.items()
        if getattr(current, name) != getattr(base, name) and getattr(current, name) != value
    ]
    if not clashing:
        return
    row = PolicyVersion.objects.select_related("created_by").get(number=current.version)
    raise DomainError(
        "policy_changed_meanwhile",
        who=row.created_by.username if row.created_by else "someone",
        fields=", ".join(str(_label(name)) for name in clashing),
        version=current.version,
    )


def _validated(version: PolicyVersion) -> None:
    try:
        version.full_clean(exclude=["created_by", "number"])
    except ValidationError as invalid:
        field, problems = next(iter(invalid.message_dict.items()))
        raise DomainError("policy_invalid", field=str(_label(field)), problem=problems[0]) from None


def _label(name: str) -> Promise | str:
    return next((limit.label for limit in LIMITS if limit.name == name), name)


def _audit(version: PolicyVersion, *, before: Policy, user: User) -> None:
    """The change in the chain: every limit changed, old -> new, and why (the reason's first
    words and a digest of the whole, which the version's row keeps)."""
    changed = {
        name: {"before": getattr(before, name), "after": getattr(version, name)}
        for name in LIMIT_NAMES
        if getattr(before, name) != getattr(version, name)
    }
    audit_record(
        action=AuditAction.POLICY_CHANGED,
        actor=user.username,
        data={
            "version": version.number,
            "previous_version": before.version,
            "changed": changed,
            "why": version.reason[:120],
            "why_sha256": hashlib.sha256(version.reason.encode()).hexdigest(),
        },
    )
