"""The admin shows the shop's records, but not what would let someone act as the customer,
and to each role only what its work needs.

A coupon code is redeemable: only its customer gets it (in their own reply). Given a coupon,
when a superuser lists, searches and opens coupons in the admin, then the code appears
nowhere and the code is no search key. Given the integrations' ledgers (gateway
transactions, carrier bookings, webhook deliveries, API tokens), when an operator looks for
them, then there is no link and the pages are refused (403), while a manager reads them.
"""

from __future__ import annotations

import datetime as dt
import uuid
from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group, Permission, User
from django.test import Client
from django.utils import timezone

from netshop.models import (
    ApiToken,
    CarrierBooking,
    Coupon,
    GatewayTransaction,
    WebhookDelivery,
)
from netshop.roles import Role, role_assign
from tests.factories import CustomerFactory

pytestmark = pytest.mark.django_db

CODE = "SORRY-ABCD2345EF"


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="x"))
    return client


@pytest.fixture
def coupon() -> Coupon:
    return Coupon.objects.create(
        code=CODE,
        customer=CustomerFactory.create(),
        value=1000,
        operation_id="op-admin-1",
        expires_at=timezone.now() + dt.timedelta(days=90),
    )


def test_the_coupon_list_and_page_withhold_the_code(admin_client: Client, coupon: Coupon) -> None:
    pages = [
        admin_client.get("/admin/netshop/coupon/"),
        admin_client.get(f"/admin/netshop/coupon/{coupon.pk}/change/"),
    ]

    assert [page.status_code for page in pages] == [200, 200]
    assert all(CODE not in page.content.decode() for page in pages)
    assert all("SORRY-••••" in page.content.decode() for page in pages)


def test_a_coupon_cannot_be_found_by_its_code(admin_client: Client, coupon: Coupon) -> None:
    by_code = admin_client.get("/admin/netshop/coupon/", {"q": CODE})
    by_customer = admin_client.get("/admin/netshop/coupon/", {"q": coupon.customer.code})

    assert "0 coupons" in by_code.content.decode()
    assert "1 coupon" in by_customer.content.decode()


# --- Who browses what: least privilege by role -------------------------------------------------

# The integrations' books: managers audit them; operators, who answer customers, need none.
LEDGERS = ("gatewaytransaction", "carrierbooking", "webhookdelivery", "apitoken")
# What operators work with when they decide an escalation.
OPERATORS_WORK = ("customer", "order", "payment", "refund", "shipment", "coupon")


def staff_client(username: str, role: Role) -> Client:
    user = User.objects.create_user(username, password="x")
    role_assign(user=user, role=role)
    client = Client()
    client.force_login(user)
    return client


def ledger_rows() -> dict[str, object]:
    """One row in each ledger, so that its change page is there to be refused."""
    token = ApiToken.objects.create(name="shop", key_digest="d" * 64, prefix="abcdefgh")
    return {
        "gatewaytransaction": GatewayTransaction.objects.create(
            idempotency_key="k", kind="refund", payment_reference="pay-x", transaction_id="tx"
        ).pk,
        "carrierbooking": CarrierBooking.objects.create(
            idempotency_key="k",
            kind="redelivery",
            tracking_number="0000-0000-0000",
            delivery_date=timezone.localdate(),
            booking_id="bk",
        ).pk,
        "webhookdelivery": WebhookDelivery.objects.create(
            token=token, event="conversation.replied", payload={}, subject_id=uuid.uuid4()
        ).pk,
        "apitoken": token.pk,
    }


def test_an_operator_gets_no_link_to_the_ledgers_and_a_manager_does() -> None:
    pages = {
        role: staff_client(role.value, role).get("/admin/netshop/").content.decode()
        for role in (Role.OPERATOR, Role.MANAGER)
    }

    linked = {
        role: [name for name in LEDGERS if f"/admin/netshop/{name}/" in page]
        for role, page in pages.items()
    }
    assert linked == {Role.OPERATOR: [], Role.MANAGER: list(LEDGERS)}
    assert all(f"/admin/netshop/{name}/" in pages[Role.OPERATOR] for name in OPERATORS_WORK)


def test_an_operator_is_refused_the_ledgers_lists_and_records_and_a_manager_reads_them() -> None:
    rows = ledger_rows()
    operator = staff_client("op", Role.OPERATOR)
    manager = staff_client("lead", Role.MANAGER)

    def statuses(client: Client) -> list[int]:
        return [
            client.get(path).status_code
            for name, pk in rows.items()
            for path in (f"/admin/netshop/{name}/", f"/admin/netshop/{name}/{pk}/change/")
        ]

    assert statuses(operator) == [403] * 8
    assert statuses(manager) == [200] * 8


def test_an_operator_group_made_before_loses_the_ledgers_and_keeps_its_work() -> None:
    # Given an operator group as the roles made it before: every view permission of the shop
    operator_group = Group.objects.create(name=Role.OPERATOR.value)
    operator_group.permissions.add(
        *Permission.objects.filter(content_type__app_label="netshop", codename__startswith="view_")
    )

    # When the migration that narrows the role runs
    import_module("netshop.migrations.0013_operators_without_ledgers").take_away(django_apps, None)

    # Then the ledgers' permissions are gone and the rest stays
    held = set(operator_group.permissions.values_list("codename", flat=True))
    assert {f"view_{name}" for name in LEDGERS[:3]} & held == set()
    assert {f"view_{name}" for name in OPERATORS_WORK} <= held


def test_assigning_a_role_again_takes_away_what_the_role_no_longer_has() -> None:
    group = Group.objects.create(name=Role.OPERATOR.value)
    group.permissions.add(Permission.objects.get(codename="view_webhookdelivery"))
    user = User.objects.create_user("op", password="x")

    role_assign(user=user, role=Role.OPERATOR)

    assert not group.permissions.filter(codename="view_webhookdelivery").exists()
    assert group.permissions.filter(codename="view_order").exists()
