"""refund_status_read: what was refunded and when, and never a new refund."""

from __future__ import annotations

import pytest

from netshop.models import Refund
from netshop.services.refund_status import refund_status_read
from tests.factories import delivered_order, pending_order

pytestmark = pytest.mark.django_db


def test_the_refunds_made_are_listed_with_amount_and_time() -> None:
    order = delivered_order(captured=12800)
    refund = Refund.objects.create(
        payment=order.payment, amount=2800, reason="x", operation_id="r1", gateway_refund_id="g"
    )

    status = refund_status_read(order=order)

    assert status == {
        "order_number": order.number,
        "payment_status": "captured",
        "captured": 12800,
        "refunded": 2800,
        "refunds": [
            {"amount": 2800, "status": "completed", "refunded_at": refund.created_at.isoformat()}
        ],
    }


def test_no_refund_is_an_empty_list_and_nothing_is_created() -> None:
    order = delivered_order()

    status = refund_status_read(order=order)

    assert (status["refunds"], status["refunded"]) == ([], 0)
    assert Refund.objects.count() == 0


def test_an_unpaid_order_has_nothing_captured() -> None:
    status = refund_status_read(order=pending_order())

    assert (status["captured"], status["refunds"]) == (0, [])
