"""The named shop states hold what their docstrings promise."""

from __future__ import annotations

import re

import pytest

from netshop.models import Order
from tests.support.scenarios import support_shop

pytestmark = pytest.mark.django_db


def test_the_support_shop_has_each_customers_orders_in_the_states_it_names() -> None:
    shop = support_shop()

    hanako, emily = shop.hanako, shop.emily
    assert [
        (order.status, order.payment.status, order.total)
        for order in (
            hanako.pending,
            hanako.in_transit,
            hanako.delivered,
            hanako.absent_returned,
            hanako.cancelled,
        )
    ] == [
        ("pending", "authorized", 3980),
        ("shipped", "captured", 10960),
        ("delivered", "captured", 12800),
        ("shipped", "captured", 6600),
        ("cancelled", "voided", 7480),
    ]
    assert (hanako.in_transit.shipment.status, hanako.absent_returned.shipment.status) == (
        "in_transit",
        "absent_returned",
    )
    assert [(o.status, o.payment.status, o.total) for o in (emily.pending, emily.delivered)] == [
        ("pending", "authorized", 16500),
        ("delivered", "captured", 8600),
    ]
    assert (emily.preparing.shipment.status, emily.bank_transfer.payment.method) == (
        "preparing",
        "bank_transfer",
    )
    assert emily.refunded_cancellation.payment.refunds.get().amount == 7480
    assert Order.objects.filter(customer=emily.customer).count() == 5
    assert Order.objects.filter(customer=hanako.customer).count() == 8
    assert all(order.number.removeprefix("ORD-").isdigit() for order in Order.objects.all())
    tracking = hanako.in_transit.shipment.tracking_number
    assert re.fullmatch(r"\d{4}-\d{4}-\d{4}", tracking), tracking
