"""The Order agent's retail skills and the Payment agent's item-level refund, run as the
specialists' own loops with the offline model on the demo shop (no router involved).

Given the demo orders for returns, exchanges and item changes, when the specialist gets a
hand-off with the intent the router would give, then it prepares exactly the action a person
approves (nothing has happened yet), or refuses with the shop's rule.
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
from tests.support.demo_snapshot import demo_shop_seed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def demo(db: None) -> None:
    demo_shop_seed(password="test-password")


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


def test_a_return_of_one_item_proposes_that_items_refund_and_runs_once_approved() -> None:
    state = run(
        "order",
        "return_items",
        "ORD-5101のマグカップを返品したいです。",
        "C0101",
        entities=orders("ORD-5101"),
    )

    action = state["pending_action"]
    assert (action["kind"], action["params"]["amount"], action["params"]["items"]) == (
        "return_items",
        2200,
        [{"sku": "MUG-ARITA-AI", "quantity": 1}],
    )
    assert not Refund.objects.filter(payment__order__number="ORD-5101").exists()
    first, again = approve(action, "C0101"), approve(action, "C0101")
    assert (first["outcome"], first["refund_amount"]) == ("executed", 2200)
    assert again["return_id"] == first["return_id"]
    assert Return.objects.filter(order__number="ORD-5101").count() == 1


def test_a_return_after_the_window_is_refused_in_the_tool() -> None:
    state = run(
        "order",
        "return_items",
        "I'd like to return the chopsticks from ORD-5102.",
        "C0101",
        entities=orders("ORD-5102"),
    )

    assert state.get("pending_action") is None
    assert state["results"]["return_items"]["refused"] == "return_window_passed"


def test_an_exchange_for_the_size_the_customer_names_is_prepared_then_shipped() -> None:
    state = run(
        "order",
        "exchange_items",
        "ORD-5103のTシャツ、MサイズをLサイズに交換してください。",
        "C0101",
        entities=orders("ORD-5103"),
    )

    action = state["pending_action"]
    assert (action["kind"], action["params"]["item"], action["params"]["new_sku"]) == (
        "exchange_items",
        "TSH-LOGO-M",
        "TSH-LOGO-L",
    )
    assert not CarrierBooking.objects.filter(kind="shipment").exists()
    outcome = approve(action, "C0101")
    booking = CarrierBooking.objects.get(kind="shipment")
    assert outcome["replacement_tracking_number"] == booking.tracking_number


def test_an_item_removed_from_a_pending_order_lowers_its_total_once_approved() -> None:
    state = run(
        "order",
        "modify_order_items",
        "Please remove the chopsticks from ORD-5104.",
        "C0101",
        entities=orders("ORD-5104"),
    )

    action = state["pending_action"]
    assert (action["params"]["items"], action["params"]["new_total"]) == (
        [{"sku": "CHP-WAKASA", "quantity": 0}],
        4950,
    )
    outcome = approve(action, "C0101")
    order = Order.objects.get(number="ORD-5104")
    assert (outcome["new_total"], order.total, order.payment.authorized_amount) == (
        4950,
        4950,
        4950,
    )


def test_a_broken_item_of_several_proposes_that_items_amount() -> None:
    order = run("order", "get_order_details", "ORD-5101", "C0101", entities=orders("ORD-5101"))[
        "results"
    ]["get_order_details"]["order"]

    state = run(
        "payment",
        "process_refund",
        "ORD-5101で届いたマグカップが割れていました。返金をお願いします。",
        "C0101",
        entities=orders("ORD-5101"),
        order=order,
    )

    action = state["pending_action"]
    assert (action["kind"], action["params"]["amount"], action["params"]["order_number"]) == (
        "process_refund",
        2200,
        "ORD-5101",
    )
