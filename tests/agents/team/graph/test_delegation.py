"""The hand-off a plan step is dispatched with, when the inquiry asks different things of
different orders.

Given a step whose request names its own orders and the order the Order agent found, when
its hand-off is built, then the step sees only its own orders, and the found order only
when its request is about it.
"""

from __future__ import annotations

from typing import Any, cast

from agents.team.graph.delegation import REQUIRED_CONTEXT, build_handoff
from agents.team.graph.state import InquiryState, PlanStep
from tests.agents.factories import EnvelopeFactory, PlanStepFactory

A, B = "ORD-4101", "ORD-4102"


def state_after_the_order_agent(found: str) -> InquiryState:
    order = {"number": found, "status": "pending"}
    envelope = EnvelopeFactory.build(data={"get_order_details": {"order": order}})
    return cast(
        InquiryState,
        {
            "inquiry_id": "inq-two-requests",
            "customer_id": "C9001",
            "text": f"cancel {A}, and when does {B} arrive?",
            "language": "en",
            "classification": {
                "intent": "cancel_order",
                "entities": {"order_numbers": [A, B]},
                "injection_suspected": False,
            },
            "envelopes": {"order": envelope},
        },
    )


def shipping_step(**fields: Any) -> PlanStep:
    built: PlanStep = PlanStepFactory.build(
        step=2, agent="shipping", intent="track_shipment", depends_on=[1], attempts=1, **fields
    )
    return built


def test_a_step_about_another_order_gets_that_order_and_not_the_one_found() -> None:
    payload = build_handoff(state_after_the_order_agent(found=A), shipping_step(order_numbers=[B]))

    context = payload["handoff"]["context"]
    assert context["entities"]["order_numbers"] == [B]
    assert "order" not in context
    assert payload["receipt"]["required_context"] == ["customer_id", "language", "entities"]
    assert payload["receipt"]["context_present"] == ["customer_id", "language", "entities"]
    assert f"for {B} only" in payload["handoff"]["instruction"]


def test_a_step_about_the_order_found_gets_its_facts() -> None:
    payload = build_handoff(state_after_the_order_agent(found=B), shipping_step(order_numbers=[B]))

    context = payload["handoff"]["context"]
    assert (context["entities"]["order_numbers"], context["order"]["number"]) == ([B], B)
    assert payload["receipt"]["required_context"] == list(REQUIRED_CONTEXT["shipping"])


def test_a_step_of_the_only_request_sees_every_order_and_the_one_found() -> None:
    payload = build_handoff(state_after_the_order_agent(found=A), shipping_step())

    context = payload["handoff"]["context"]
    assert (context["entities"]["order_numbers"], context["order"]["number"]) == ([A, B], A)
    assert payload["receipt"]["required_context"] == list(REQUIRED_CONTEXT["shipping"])
    assert "only" not in payload["handoff"]["instruction"].split("\n")[0]
