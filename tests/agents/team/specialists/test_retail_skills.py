"""The Order agent's retail skills and the Payment agent's item-level refund, run as the
specialists' own loops with the offline model (no router involved).

Given Miho's orders for returns, exchanges and item changes (``retail_shop``), when the
specialist gets a hand-off with the intent the router would give, then it prepares exactly the
action a person approves (nothing has happened yet), or refuses with the shop's rule.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from agents.contract.schemas import AgentName, Handoff
from agents.team.graph.delegation import specialist_messages
from agents.team.graph.gated_actions import carry_out
from agents.team.run_context import run_config
from agents.team.specialists import SPECIALISTS
from agents.team.specialists.loop import build_specialist_graph
from netshop.models import CarrierBooking, Order, Refund, Return
from tests.support.scenarios import RetailShop, retail_shop

pytestmark = pytest.mark.django_db


@pytest.fixture
def retail(db: None) -> RetailShop:
    return retail_shop()


def run(agent: AgentName, intent: str, text: str, customer: str, **context: Any) -> dict[str, Any]:
    """The specialist's loop on one hand-off; its final state."""
    entities = context.pop("entities", {})
    handoff = Handoff(
        agent=agent,
        customer_id=customer,
        instruction=f"task: {intent}\n<inquiry>\n{text}\n</inquiry>",
        intent=intent,
        context={"customer_id": customer, "language": "ja", "entities": entities, **context},
    )
    graph = build_specialist_graph(SPECIALISTS[agent])
    config = run_config(inquiry_id=str(uuid.uuid4()), customer_id=customer)
    state: dict[str, Any] = graph.invoke(
        {"messages": specialist_messages(handoff), "turns": 0}, config
    )
    return state


def orders(*numbers: str) -> dict[str, Any]:
    return {"order_numbers": list(numbers)}


def approve(action: dict[str, Any], customer: str) -> dict[str, Any]:
    return carry_out(
        action=action,  # type: ignore[arg-type,unused-ignore]
        decision={"decision": "approve", "operator": "op1"},
        customer_id=customer,
    )


def test_a_return_of_one_item_proposes_that_items_refund_and_runs_once_approved(
    retail: RetailShop,
) -> None:
    state = run(
        "order",
        "return_items",
        f"{retail.miho.several_items.number}のマグカップを返品したいです。",
        retail.miho.customer.code,
        entities=orders(retail.miho.several_items.number),
    )

    action = state["pending_action"]
    assert (action["kind"], action["params"]["amount"], action["params"]["items"]) == (
        "return_items",
        2200,
        [{"sku": retail.products["mug"].sku, "quantity": 1}],
    )
    assert not Refund.objects.filter(
        payment__order__number=retail.miho.several_items.number
    ).exists()
    first, again = (
        approve(action, retail.miho.customer.code),
        approve(action, retail.miho.customer.code),
    )
    assert (first["outcome"], first["refund_amount"]) == ("executed", 2200)
    assert again["return_id"] == first["return_id"]
    assert Return.objects.filter(order__number=retail.miho.several_items.number).count() == 1


def test_a_return_after_the_window_is_refused_in_the_tool(retail: RetailShop) -> None:
    state = run(
        "order",
        "return_items",
        f"I'd like to return the chopsticks from {retail.miho.window_passed.number}.",
        retail.miho.customer.code,
        entities=orders(retail.miho.window_passed.number),
    )

    assert state.get("pending_action") is None
    assert state["results"]["return_items"]["refused"] == "return_window_passed"


def test_an_exchange_for_the_size_the_customer_names_is_prepared_then_shipped(
    retail: RetailShop,
) -> None:
    state = run(
        "order",
        "exchange_items",
        f"{retail.miho.shirt.number}のTシャツ、MサイズをLサイズに交換してください。",
        retail.miho.customer.code,
        entities=orders(retail.miho.shirt.number),
    )

    action = state["pending_action"]
    assert (action["kind"], action["params"]["item"], action["params"]["new_sku"]) == (
        "exchange_items",
        retail.products["shirt_m"].sku,
        retail.products["shirt_l"].sku,
    )
    assert not CarrierBooking.objects.filter(kind="shipment").exists()
    outcome = approve(action, retail.miho.customer.code)
    booking = CarrierBooking.objects.get(kind="shipment")
    assert outcome["replacement_tracking_number"] == booking.tracking_number


def test_an_item_removed_from_a_pending_order_lowers_its_total_once_approved(
    retail: RetailShop,
) -> None:
    state = run(
        "order",
        "modify_order_items",
        f"Please remove the chopsticks from {retail.miho.pending.number}.",
        retail.miho.customer.code,
        entities=orders(retail.miho.pending.number),
    )

    action = state["pending_action"]
    assert (action["params"]["items"], action["params"]["new_total"]) == (
        [{"sku": retail.products["chopsticks"].sku, "quantity": 0}],
        4950,
    )
    outcome = approve(action, retail.miho.customer.code)
    order = Order.objects.get(number=retail.miho.pending.number)
    assert (outcome["new_total"], order.total, order.payment.authorized_amount) == (
        4950,
        4950,
        4950,
    )


def test_a_broken_item_of_several_proposes_that_items_amount(retail: RetailShop) -> None:
    order = run(
        "order",
        "get_order_details",
        retail.miho.several_items.number,
        retail.miho.customer.code,
        entities=orders(retail.miho.several_items.number),
    )["results"]["get_order_details"]["order"]

    state = run(
        "payment",
        "process_refund",
        f"{retail.miho.several_items.number}で届いたマグカップが割れていました。返金をお願いします。",
        retail.miho.customer.code,
        entities=orders(retail.miho.several_items.number),
        order=order,
    )

    action = state["pending_action"]
    assert (action["kind"], action["params"]["amount"], action["params"]["order_number"]) == (
        "process_refund",
        2200,
        retail.miho.several_items.number,
    )
