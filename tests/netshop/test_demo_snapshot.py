"""The suite's copied demo shop (``tests.support.demo_snapshot``) is the shop seeding makes.

Many transactional tests get the demo shop copied back rather than seeded again; if the copy
drifted from ``seed_demo`` they would test a shop the product never makes.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from netshop.demo.seed import seed_demo
from netshop.models import Customer, Order
from netshop.roles import Role, user_has_role
from tests.support.demo_snapshot import demo_shop_seed

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "snapshot-test-password"


def group_permissions() -> dict[str, set[str]]:
    return {
        group.name: set(group.permissions.values_list("codename", flat=True))
        for group in Group.objects.all()
    }


@pytest.mark.parametrize("round_", ["seeded", "copied"])
def test_seeding_again_over_the_suites_demo_shop_changes_nothing(round_: str) -> None:
    """Run twice: the first call seeds (or copies, if an earlier test seeded), the second copies
    after the flush between them; either way the shop is exactly what seeding leaves."""
    demo_shop_seed(password=PASSWORD)
    granted = group_permissions()

    report = seed_demo(password=PASSWORD)

    assert (dict(report.created), dict(report.updated)) == ({}, {})
    assert group_permissions() == granted
    assert granted[Role.OPERATOR]
    assert not {"view_auditentry", "view_apitoken"} & granted[Role.OPERATOR]
    assert user_has_role(User.objects.get(username="manager"), Role.MANAGER)
    assert User.objects.get(username="c0001").check_password(PASSWORD)
    assert Customer.objects.get(code="C0001").user == User.objects.get(username="c0001")
    assert Order.objects.get(number="ORD-1003").payment.captured_amount == 12800


def test_rows_made_after_a_copy_get_new_ids() -> None:
    demo_shop_seed(password=PASSWORD)
    highest = Customer.objects.order_by("-pk").values_list("pk", flat=True).first()

    added = Customer.objects.create(code="C9999", name="New", email="new@example.com")

    assert highest is not None
    assert added.pk > highest
