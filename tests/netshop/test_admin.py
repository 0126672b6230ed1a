"""The admin shows the shop's records, but not what would let someone act as the customer.

A coupon code is redeemable: only its customer gets it (in their own reply). Given a coupon,
when a superuser lists, searches and opens coupons in the admin, then the code appears
nowhere and the code is no search key.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from netshop.models import Coupon
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
