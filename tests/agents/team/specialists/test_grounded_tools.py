"""The tools ground what a model says the customer said in the shop's records.

A real model fills the arguments from the conversation (the item, the state, a bare number);
``search_orders`` answers with the order the shop's records match, or the candidates to ask
about; an item refund is the item's price from the order. Run as a tool turn runs them.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import pytest
from django.utils import timezone
from langchain_core.messages import ToolCall

from agents.team.run_context import run_config
from agents.team.specialists import order as order_agent
from agents.team.specialists import payment
from agents.team.specialists.tool_turns import ToolTurn
from netshop.models import Order
from tests.factories import (
    CustomerFactory,
    OrderLineFactory,
    delivered_order,
    in_transit_order,
    pending_order,
)

pytestmark = pytest.mark.django_db


def search(customer: str, **args: Any) -> dict[str, Any]:
    """``search_orders``' result as the model reads it, or the turn's errors when the
    arguments were refused before it ran."""
    config = run_config(inquiry_id=str(uuid.uuid4()), customer_id=customer)
    call = ToolCall(name="search_orders", args=args, id="call_1")
    turn = ToolTurn(order_agent.SPECIALIST, config).run([call])
    return turn["results"].get("search_orders") or {"errors": turn["errors"]}


def test_without_a_request_it_only_lists() -> None:
    customer = CustomerFactory.create()
    pending_order(customer=customer)

    result = search(customer.code)

    assert len(result["orders"]) == 1
    assert "grounding" not in result


def test_a_state_and_request_match_the_one_order_that_fits() -> None:
    customer = CustomerFactory.create()
    parcel = in_transit_order(customer=customer)
    delivered_order(customer=customer)

    result = search(customer.code, request="track_shipment", states=["on_its_way"])

    assert result["grounding"] == {"match": parcel.number, "candidates": [], "unmatched": False}


def test_two_cancellable_orders_come_back_as_candidates() -> None:
    customer = CustomerFactory.create()
    first, second = pending_order(customer=customer), pending_order(customer=customer)

    result = search(customer.code, request="cancel_order")

    assert result["grounding"]["match"] is None
    assert set(result["grounding"]["candidates"]) == {first.number, second.number}


def test_a_number_of_another_customers_is_unmatched_and_reveals_nothing() -> None:
    customer, other = CustomerFactory.create(), CustomerFactory.create()
    pending_order(customer=customer, number="ORD-7001")
    theirs = pending_order(customer=other, number="ORD-7002")

    result = search(customer.code, request="cancel_order", numbers=[7002])

    assert result["grounding"]["match"] is None
    assert theirs.number not in str(result)


def refund(customer: str, number: str, **args: Any) -> dict[str, Any]:
    """The refund the Payment agent's tool prepares for approval."""
    config = run_config(inquiry_id=str(uuid.uuid4()), customer_id=customer)
    call = ToolCall(
        name="process_refund",
        args={"order_number": number, "reason": "damaged item", **args},
        id="call_1",
    )
    action = ToolTurn(payment.SPECIALIST, config).run([call])["pending_action"]
    assert action is not None
    return dict(action)


def test_an_items_refund_is_never_more_than_their_price_whatever_the_model_writes() -> None:
    """The model names the broken item and a figure of its own: the order's line decides."""
    customer = CustomerFactory.create()
    order = delivered_order(customer=customer, captured=12800, lines=False)
    mug = OrderLineFactory.create(order=order, product__price=2800)
    OrderLineFactory.create(order=order, product__price=10000)

    action = refund(
        customer.code, order.number, amount=99999, items=[{"sku": mug.product.sku, "quantity": 1}]
    )

    assert action["params"]["amount"] == 2800
    assert action["requested_amount"] == 99999  # what the model asked, kept for the operator


def test_a_tracking_number_the_customer_wrote_picks_its_parcel_however_typed() -> None:
    customer = CustomerFactory.create()
    on_its_way = in_transit_order(customer=customer)
    delivered = delivered_order(customer=customer)
    written = delivered.shipment.tracking_number.replace("-", " ")

    result = search(customer.code, request="track_shipment", tracking_numbers=[written])

    assert result["grounding"]["match"] == delivered.number != on_its_way.number


def test_an_older_order_than_the_listing_shows_is_still_grounded() -> None:
    customer = CustomerFactory.create()
    oldest = pending_order(customer=customer, number="ORD-7100")
    for n in range(25):
        delivered_order(customer=customer, number=f"ORD-72{n:02d}")
    Order.objects.filter(pk=oldest.pk).update(placed_at=timezone.now() - dt.timedelta(days=90))

    result = search(customer.code, request="cancel_order", numbers=[7100])

    assert result["grounding"]["match"] == "ORD-7100"
    assert "ORD-7100" in [order["number"] for order in result["orders"]]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({"request": "refund"}, "unknown_request"),
        ({"request": "cancel_order", "states": ["damaged"]}, "invalid_arguments"),
    ],
)
def test_what_the_tool_cannot_ground_on_is_refused_never_guessed(
    args: dict[str, Any], error: str
) -> None:
    customer = CustomerFactory.create()
    pending_order(customer=customer)

    result = search(customer.code, **args)

    assert "grounding" not in result
    assert error in str(result)


def test_a_partial_refund_of_an_item_stays_partial_and_a_line_named_twice_counts_once() -> None:
    customer = CustomerFactory.create()
    order = delivered_order(customer=customer, captured=12800, lines=False)
    mug = OrderLineFactory.create(order=order, product__price=2800)
    OrderLineFactory.create(order=order, product__price=10000)
    twice = [{"sku": mug.product.sku}, {"name": mug.product.name}]

    partial = refund(customer.code, order.number, amount=500, items=[{"sku": mug.product.sku}])
    doubled = refund(customer.code, order.number, items=twice)

    assert partial["params"]["amount"] == 500
    assert doubled["params"]["amount"] == 2800


def test_a_request_with_no_tiers_of_its_own_is_grounded_by_the_facts_alone() -> None:
    """A question the reading took for an FAQ one still names the customer's item."""
    customer = CustomerFactory.create()
    pending_order(customer=customer)
    parcel = in_transit_order(customer=customer, number="ORD-7301")

    result = search(customer.code, request="search_faq", numbers=[7301])

    assert result["grounding"]["match"] == parcel.number
