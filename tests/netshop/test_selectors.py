"""Selectors: scoped to one customer, no N+1, JSON-safe facts, FAQ search in ja and en."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from netshop import selectors
from netshop.errors import DomainError
from netshop.models import OrderStatus
from netshop.services.refunds import refund_create
from netshop.shop_time import shop_today
from tests.factories import (
    CustomerFactory,
    OrderFactory,
    OrderLineFactory,
    ProductFactory,
    absent_returned_order,
    delivered_order,
    in_transit_order,
    pending_order,
)

pytestmark = pytest.mark.django_db


# --- Customers and orders ---------------------------------------------------------------------


def test_customer_get() -> None:
    customer = CustomerFactory.create(code="C4001")

    assert selectors.customer_get(code="C4001") == customer


def test_unknown_customer() -> None:
    with pytest.raises(DomainError) as refused:
        selectors.customer_get(code="C9999")

    assert refused.value.code == "unknown_customer"


def test_order_get_for_customer_accepts_the_number_as_people_type_it() -> None:
    customer = CustomerFactory.create()
    order = OrderFactory.create(customer=customer, number="ORD-4003")

    assert selectors.order_get_for_customer(customer=customer, number="ord-4003 ") == order
    assert selectors.order_get_for_customer(customer=customer, number="ＯＲＤ－４００３") == order


def test_another_customers_order_looks_exactly_like_a_missing_one() -> None:
    me, someone = CustomerFactory.create(code="C4001"), CustomerFactory.create(code="C8002")
    OrderFactory.create(customer=someone, number="ORD-8001")

    with pytest.raises(DomainError) as theirs:
        selectors.order_get_for_customer(customer=me, number="ORD-8001")
    with pytest.raises(DomainError) as missing:
        selectors.order_get_for_customer(customer=me, number="ORD-2999")

    assert (theirs.value.code, missing.value.code) == ("order_not_found", "order_not_found")
    assert theirs.value.message == "no order ORD-8001 for customer C4001"
    assert missing.value.message == "no order ORD-2999 for customer C4001"


def test_an_order_read_for_its_facts_takes_three_queries_and_knows_its_customer(
    django_assert_num_queries,
) -> None:
    order = delivered_order()
    customer = selectors.customer_get(code=order.customer.code)

    with django_assert_num_queries(3):  # the order with payment and shipment, lines, refunds
        found = selectors.order_get_for_customer(customer=customer, number=order.number)
        facts = selectors.order_facts(order=found, reload=False)

    assert found.customer is customer
    assert facts["customer"] == customer.code
    assert facts["payment"]["captured"] == order.total


def test_a_parcel_is_found_by_its_order_number_in_one_query(django_assert_num_queries) -> None:
    order = in_transit_order()

    with django_assert_num_queries(1):
        shipment = selectors.shipment_for_order(
            customer=order.customer, number=order.number.lower()
        )
        number, owner = shipment.order.number, shipment.order.customer.code

    assert shipment == order.shipment
    assert (number, owner) == (order.number, order.customer.code)


def test_a_parcel_of_another_customers_order_is_an_order_not_found() -> None:
    order = in_transit_order()

    with pytest.raises(DomainError) as refused:
        selectors.shipment_for_order(customer=CustomerFactory.create(), number=order.number)

    assert refused.value.code == "order_not_found"


def test_an_order_not_yet_handed_to_a_carrier_has_no_parcel() -> None:
    order = pending_order()

    with pytest.raises(DomainError) as refused:
        selectors.shipment_for_order(customer=order.customer, number=order.number)

    assert (refused.value.code, refused.value.params) == ("no_shipment", {"order": order.number})


def test_orders_search_filters_the_customers_orders_newest_first() -> None:
    customer = CustomerFactory.create()
    now = timezone.now()
    old = OrderFactory.create(customer=customer, placed_at=now - dt.timedelta(days=40))
    recent = OrderFactory.create(customer=customer, placed_at=now - dt.timedelta(days=2))
    newest = OrderFactory.create(
        customer=customer, placed_at=now - dt.timedelta(hours=1), status=OrderStatus.DELIVERED
    )
    OrderFactory.create()  # someone else's

    everything = selectors.orders_search(customer=customer)
    pending = selectors.orders_search(customer=customer, status="pending")
    last_month = selectors.orders_search(
        customer=customer, placed_from=(now - dt.timedelta(days=30)).date()
    )
    first_one = selectors.orders_search(customer=customer, limit=1)

    assert everything == [newest, recent, old]
    assert pending == [recent, old]
    assert last_month == [newest, recent]
    assert first_one == [newest]
    assert selectors.orders_search(
        customer=customer, placed_to=(now - dt.timedelta(days=39)).date()
    ) == [old]


def test_orders_search_reads_lines_payment_and_shipment_in_two_queries(
    django_assert_num_queries,
) -> None:
    customer = CustomerFactory.create()
    for _ in range(3):
        delivered_order(customer=customer)
        pending_order(customer=customer)

    with django_assert_num_queries(2):
        orders = selectors.orders_search(customer=customer)
        summaries = [selectors.order_summary(order=order) for order in orders]

    assert len(summaries) == 6
    assert {s["payment_status"] for s in summaries} == {"captured", "authorized"}
    assert {s["shipment_status"] for s in summaries} == {"delivered", None}


def test_orders_search_refuses_an_unknown_status() -> None:
    with pytest.raises(DomainError) as refused:
        selectors.orders_search(customer=CustomerFactory.create(), status="lost")

    assert refused.value.code == "invalid_status"


def test_shipment_for_tracking_with_or_without_hyphens() -> None:
    order = in_transit_order()
    shipment = order.shipment
    shipment.tracking_number = "4821-7730-1195"
    shipment.save()

    for typed in ("4821-7730-1195", "482177301195", "４８２１－７７３０－１１９５"):
        found = selectors.shipment_for_tracking(customer=order.customer, tracking_number=typed)
        assert found == shipment


def test_shipment_of_another_customer_is_not_found() -> None:
    shipment = in_transit_order().shipment

    with pytest.raises(DomainError) as refused:
        selectors.shipment_for_tracking(
            customer=CustomerFactory.create(), tracking_number=shipment.tracking_number
        )

    assert refused.value.code == "shipment_not_found"


def test_order_facts_for_a_delivered_order_with_a_prior_refund(
    django_assert_num_queries,
) -> None:
    order = delivered_order(captured=12800, number="ORD-4003")
    refund_create(order=order, amount=800, reason="箱の破損", operation_id="op-1", actor="sato")
    refund = order.payment.refunds.get()
    line = order.lines.get()

    with django_assert_num_queries(3):
        facts = selectors.order_facts(order=order)

    assert facts == {
        "number": "ORD-4003",
        "customer": order.customer.code,
        "status": "delivered",
        "total": 12800,
        "placed_at": order.placed_at.isoformat(),
        "lines": [
            {
                "sku": line.product.sku,
                "name": line.product.name,
                "name_en": line.product.name_en,
                "quantity": 1,
                "unit_price": 12800,
            }
        ],
        "payment": {
            "method": "card",
            "status": "partially_refunded",
            "authorized": 12800,
            "captured": 12800,
            "refunded": 800,
            "refundable": 12000,
        },
        "shipment": {
            "carrier": "Yamato",
            "tracking_number": order.shipment.tracking_number,
            "status": "delivered",
            "scheduled_date": (shop_today() - dt.timedelta(days=1)).isoformat(),
        },
        "refunds": [
            {"amount": 800, "reason": "箱の破損", "created_at": refund.created_at.isoformat()}
        ],
    }
    assert json.loads(json.dumps(facts)) == facts


def test_order_facts_for_an_order_without_payment_or_shipment() -> None:
    order = OrderFactory.create(total=2000, lines=False)
    OrderLineFactory.create(order=order, product=ProductFactory.create(price=1000), quantity=2)

    facts = selectors.order_facts(order=order)

    assert (facts["payment"], facts["shipment"], facts["refunds"]) == (None, None, [])
    assert facts["lines"][0]["quantity"] == 2


def test_shipment_facts_include_the_recorded_events() -> None:
    shipment = absent_returned_order().shipment

    facts = selectors.shipment_facts(shipment=shipment)

    assert facts["status"] == "absent_returned"
    assert [event["status"] for event in facts["events"]] == ["in_transit", "absent_returned"]
