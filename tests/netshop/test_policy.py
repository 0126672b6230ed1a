"""The shop's policy: versions a manager saves, in force at once, audited in the chain.

Given no saved version the environment's limits are in force (version 0); each save is the
next version with who, when and why, and an audit entry naming what changed. Bad input
saves nothing; two managers saving at once get consecutive versions, none lost.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from netshop.audit import AuditAction, audit_verify
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.models import PolicyVersion
from netshop.policy import policy_change, policy_in_force, policy_values
from tests.support.concurrency import released_together

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager() -> User:
    return User.objects.create_user("mgr")


def change(user: User, based_on: int = 0, reason: str = "a bad week", **limits: Any) -> Any:
    """Save the policy in force with ``limits`` changed, as a manager shown ``based_on``."""
    values = {**policy_values(policy_in_force()), **limits}
    return policy_change(user=user, values=values, reason=reason, based_on=based_on)


@override_settings(NETSHOP_FOUR_EYES_YEN=12345, NETSHOP_REVIEW_SAMPLE=0.5)
def test_with_no_version_saved_the_environments_values_are_in_force_as_version_0() -> None:
    policy = policy_in_force()

    assert (policy.version, policy.four_eyes_yen, policy.review_sample) == (0, 12345, 0.5)


def test_a_change_is_the_next_version_in_force_at_once_with_who_and_why(manager: User) -> None:
    first = change(manager, four_eyes_yen=10000)
    second = change(manager, based_on=1, reason="coupons too generous", coupon_cap_yen=500)

    policy = policy_in_force()
    assert (first.number, second.number, policy.version) == (1, 2, 2)
    assert (policy.four_eyes_yen, policy.coupon_cap_yen) == (10000, 500)
    assert (second.created_by, second.reason) == (manager, "coupons too generous")


def test_the_change_is_in_the_audit_chain_with_old_and_new_values_and_the_chain_verifies(
    manager: User,
) -> None:
    change(manager, four_eyes_yen=10000, reason="返金の不正が続いた")

    [entry] = AuditEntry.objects.filter(action=AuditAction.POLICY_CHANGED)
    assert entry.actor == "mgr"
    assert entry.data["changed"] == {"four_eyes_yen": {"before": 30000, "after": 10000}}
    assert (entry.data["version"], entry.data["previous_version"]) == (1, 0)
    assert entry.data["why"] == "返金の不正が続いた"
    assert audit_verify().ok


@pytest.mark.parametrize(
    ("limits", "reason", "code"),
    [
        ({"four_eyes_yen": 0}, "r", "policy_invalid"),
        ({"review_sample": 1.5}, "r", "policy_invalid"),
        ({"coupon_window_days": 0}, "r", "policy_invalid"),
        ({"four_eyes_yen": 10000}, "   ", "policy_reason_required"),
        ({}, "r", "policy_unchanged"),
    ],
)
def test_bad_input_is_refused_and_saves_nothing(
    manager: User, limits: dict[str, Any], reason: str, code: str
) -> None:
    with pytest.raises(DomainError) as refused:
        change(manager, reason=reason, **limits)

    assert refused.value.code == code
    assert PolicyVersion.objects.count() == 0
    assert not AuditEntry.objects.filter(action=AuditAction.POLICY_CHANGED).exists()


def test_a_save_based_on_an_older_version_keeps_the_change_made_meanwhile(manager: User) -> None:
    change(manager, four_eyes_yen=10000)  # version 1, while another manager looks at 0

    values = {**policy_values(policy_in_force()), "four_eyes_yen": 30000, "coupon_cap_yen": 500}
    policy_change(user=manager, values=values, reason="coupons", based_on=0)

    policy = policy_in_force()
    assert (policy.version, policy.four_eyes_yen, policy.coupon_cap_yen) == (2, 10000, 500)


def test_a_save_changing_a_limit_changed_meanwhile_to_another_value_is_refused(
    manager: User,
) -> None:
    change(manager, four_eyes_yen=10000)

    with pytest.raises(DomainError) as refused:
        change(manager, based_on=0, four_eyes_yen=20000)

    assert refused.value.code == "policy_changed_meanwhile"
    assert policy_in_force().four_eyes_yen == 10000


@pytest.mark.django_db(transaction=True)
def test_two_managers_saving_at_once_get_consecutive_versions_and_lose_nothing() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    saves: list[tuple[User, dict[str, Any]]] = [
        (alice, {"four_eyes_yen": 10000}),
        (bob, {"coupon_cap_yen": 500}),
    ]

    def save(who_what: tuple[User, dict[str, Any]]) -> int:
        who, limits = who_what
        return int(change(who, **limits).number)  # both based on version 0

    versions = released_together(save, saves)

    assert sorted(versions) == [1, 2]
    policy = policy_in_force()
    assert (policy.four_eyes_yen, policy.coupon_cap_yen) == (10000, 500)
    assert AuditEntry.objects.filter(action=AuditAction.POLICY_CHANGED).count() == 2
    assert audit_verify().ok
