"""The tools ground what a model says the customer said in the shop's records.

A real model fills the arguments from the conversation (the item, the state, a bare number);
``search_orders`` answers with the order the shop's records match, or the candidates to ask
about; an item refund is the item's price from the order. Run as a tool turn runs them.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from langchain_core.messages import ToolCall

from agents.team.run_context import run_config
from agents.team.specialists import order as order_agent
from agents.team.specialists import payment
from agents.team.specialists.tool_turns import ToolTurn
from tests.factories import (
    CustomerFactory,
    OrderLineFactory,
    delivered_order,
    in_transit_order,
    pending_order,
)

pytestmark = pytest.mark.django_db


def search(customer: str, **args: Any) -> dict[str, Any]:
    config = run_config(inquiry_id=str(uuid.uuid4()), customer_id=customer)
    call = ToolCall(name="search_orders", args=args, id="call_1")
    return ToolTurn(order_agent.SPECIALIST, config).run([call])["results"]["search_orders"]


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


def test_an_items_refund_is_their_price_whatever_amount_the_model_writes() -> None:
    """The model names the broken item and a figure of its own: the order's line decides."""
    customer = CustomerFactory.create()
    order = delivered_order(customer=customer, captured=12800, lines=False)
    mug = OrderLineFactory.create(order=order, product__price=2800)
    OrderLineFactory.create(order=order, product__price=10000)
    config = run_config(inquiry_id=str(uuid.uuid4()), customer_id=customer.code)
    args = {
        "order_number": order.number,
        "reason": "damaged item",
        "amount": 99999,
        "items": [{"sku": mug.product.sku, "quantity": 1}],
    }
    call = ToolCall(name="process_refund", args=args, id="call_1")

    action = ToolTurn(payment.SPECIALIST, config).run([call])["pending_action"]

    assert action is not None
    assert action["params"]["amount"] == 2800
