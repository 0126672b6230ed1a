"""The planner (seed 001) as pure functions: intents per step, the plan, settling, starting.

Given a classification or a plan and the envelopes that came back, when the planner's
function is called directly (no graph run), then it returns exactly the expected steps.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from agents.contract.schemas import Entities, Request
from agents.support.shapes import EnvelopeDict
from agents.team.graph import planner
from agents.team.graph.state import PlanStep
from tests.agents.factories import ClassificationFactory, EnvelopeFactory, PlanStepFactory


def step(number: int, agent: str, intent: str, *depends_on: int, **fields: Any) -> PlanStep:
    built: PlanStep = PlanStepFactory.build(
        step=number, agent=agent, intent=intent, depends_on=list(depends_on), **fields
    )
    return built


# --- step_intent ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "intent", "secondary", "expected"),
    [
        ("order", "cancel_order", [], "cancel_order"),
        ("payment", "track_shipment", ["process_refund"], "process_refund"),
        ("payment", "apply_coupon", ["process_refund"], "apply_coupon"),  # the main intent first
        ("order", "track_shipment", ["search_orders", "cancel_order"], "search_orders"),
        ("faq", "contact_human", [], "contact_human"),
        # none of the inquiry's intents is the agent's own: it looks, it never acts
        ("order", "track_shipment", [], "get_order_details"),
        ("shipping", "process_refund", [], "track_shipment"),
        ("payment", "cancel_order", [], "check_payment_status"),
        ("faq", "process_refund", ["cancel_order"], "search_faq"),
        # a return refunds its items: only the first named of a refund and a return is prepared
        ("order", "process_refund", ["return_items"], "get_order_details"),
        ("payment", "process_refund", ["return_items"], "process_refund"),
        ("payment", "return_items", ["process_refund"], "check_payment_status"),
        ("payment", "return_items", ["apply_coupon", "process_refund"], "apply_coupon"),
        ("order", "return_items", ["process_refund"], "return_items"),
    ],
)
def test_a_step_works_on_the_first_of_the_inquirys_intents_its_agent_owns(
    agent: str, intent: str, secondary: list[str], expected: str
) -> None:
    classification = ClassificationFactory.build(intent=intent, secondary_intents=secondary)

    assert planner.step_intent(agent, classification) == expected  # type: ignore[arg-type]


# --- make_plan ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agents", "intent", "expected"),
    [
        (["faq"], "search_faq", [step(1, "faq", "search_faq")]),
        (
            ["order", "shipping"],
            "track_shipment",
            [step(1, "order", "get_order_details"), step(2, "shipping", "track_shipment", 1)],
        ),
        # a dependency the inquiry does not need is not waited for
        (["shipping"], "arrange_redelivery", [step(1, "shipping", "arrange_redelivery")]),
        # waves in the cards' order whatever order the classification lists them in
        (
            ["payment", "faq", "order"],
            "process_refund",
            [
                step(1, "order", "get_order_details"),
                step(2, "faq", "search_faq"),
                step(3, "payment", "process_refund", 1),
            ],
        ),
        (
            ["order", "shipping", "payment", "faq"],
            "cancel_order",
            [
                step(1, "order", "cancel_order"),
                step(2, "faq", "search_faq"),
                step(3, "shipping", "track_shipment", 1),
                step(4, "payment", "check_payment_status", 1),
            ],
        ),
    ],
)
def test_the_plan_numbers_one_step_per_agent_in_dependency_waves(
    agents: list[str], intent: str, expected: list[PlanStep]
) -> None:
    classification = ClassificationFactory.build(agents=agents, intent=intent)

    assert planner.make_plan(classification) == expected


# --- each request's own orders --------------------------------------------------------------

A, B = "ORD-4101", "ORD-4102"


def two_orders(*requests: tuple[str, list[str]], secondary: str = "track_shipment") -> Any:
    return ClassificationFactory.build(
        agents=["order", "shipping"],
        intent="cancel_order",
        secondary_intents=[secondary],
        entities=Entities(order_numbers=[A, B]),
        requests=[Request(intent=intent, order_numbers=orders) for intent, orders in requests],
    )


def test_each_step_works_on_the_orders_of_its_own_request() -> None:
    classification = two_orders(("cancel_order", [A]), ("track_shipment", [B]))

    assert planner.make_plan(classification) == [
        step(1, "order", "cancel_order", order_numbers=[A]),
        step(2, "shipping", "track_shipment", 1, order_numbers=[B]),
    ]


@pytest.mark.parametrize(
    "requests",
    [
        [],  # a classification from before requests were read
        [("cancel_order", [A, B])],  # one request naming both orders
        [("cancel_order", [A, B]), ("track_shipment", [])],  # the parcel names none
        [("cancel_order", ["ORD-4999"]), ("track_shipment", ["ORD-4998"])],  # not in entities
    ],
)
def test_a_step_whose_request_names_no_order_of_its_own_works_on_every_order(
    requests: list[tuple[str, list[str]]],
) -> None:
    classification = two_orders(*requests)

    assert planner.make_plan(classification) == [
        step(1, "order", "cancel_order"),
        step(2, "shipping", "track_shipment", 1),
    ]


def test_a_step_with_no_request_of_its_own_works_on_every_order() -> None:
    classification = two_orders(("cancel_order", [A]), ("change_delivery_date", [B]))

    plan = planner.make_plan(classification)

    assert plan[1] == step(2, "shipping", "track_shipment", 1)  # no date change was read


# --- start_ready ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plan", "expected"),
    [
        (
            [step(1, "order", "get_order_details"), step(2, "shipping", "track_shipment", 1)],
            [
                step(1, "order", "get_order_details", status="running", attempts=1),
                step(2, "shipping", "track_shipment", 1),
            ],
        ),
        (
            [step(1, "order", "get_order_details"), step(2, "faq", "search_faq")],
            [
                step(1, "order", "get_order_details", status="running", attempts=1),
                step(2, "faq", "search_faq", status="running", attempts=1),
            ],
        ),
        # a skipped dependency is settled too: its dependents go ahead without it
        (
            [
                step(1, "order", "get_order_details", status="skipped", attempts=4),
                step(2, "payment", "process_refund", 1),
            ],
            [
                step(1, "order", "get_order_details", status="skipped", attempts=4),
                step(2, "payment", "process_refund", 1, status="running", attempts=1),
            ],
        ),
        # a re-planned step starts again, counting its attempts
        (
            [step(1, "faq", "search_faq", attempts=1, replans=1)],
            [step(1, "faq", "search_faq", status="running", attempts=2, replans=1)],
        ),
        # running and done steps are left as they are
        (
            [
                step(1, "order", "get_order_details", status="running", attempts=1),
                step(2, "shipping", "track_shipment", 1),
            ],
            [
                step(1, "order", "get_order_details", status="running", attempts=1),
                step(2, "shipping", "track_shipment", 1),
            ],
        ),
    ],
)
def test_pending_steps_start_once_their_dependencies_are_settled(
    plan: list[PlanStep], expected: list[PlanStep]
) -> None:
    assert planner.start_ready(plan) == expected


# --- settle ---------------------------------------------------------------------------------

RUNNING_FAQ = step(1, "faq", "search_faq", status="running", attempts=1)
RUNNING_REFUND = step(1, "payment", "process_refund", status="running", attempts=1)


def revision(decision: str, because: str | None, replans: int, agent: str = "faq") -> dict:
    return {
        "kind": "revision",
        "step": 1,
        "agent": agent,
        "decision": decision,
        "because": because,
        "replans": replans,
    }


@pytest.mark.parametrize(
    ("plan_step", "envelope", "settled", "revisions"),
    [
        (RUNNING_FAQ, EnvelopeFactory.build(agent="faq"), {**RUNNING_FAQ, "status": "done"}, []),
        (
            RUNNING_FAQ,
            EnvelopeFactory.build(agent="faq", status="escalate"),
            {**RUNNING_FAQ, "status": "done"},
            [],
        ),
        (
            RUNNING_FAQ,
            EnvelopeFactory.build(agent="faq", status="error", error_code="tool_timeout"),
            {**RUNNING_FAQ, "status": "pending", "replans": 1},
            [revision("retry", "tool_timeout", 1)],
        ),
        (
            {**RUNNING_FAQ, "replans": 2, "attempts": 3},
            EnvelopeFactory.build(
                agent="faq", status="error", error_code="tool_timeout", attempt=3
            ),
            {**RUNNING_FAQ, "status": "pending", "replans": 3, "attempts": 3},
            [revision("retry", "tool_timeout", 3)],
        ),
        # the fourth failure: three re-plans were the most, so the plan moves on without it
        (
            {**RUNNING_FAQ, "replans": 3, "attempts": 4},
            EnvelopeFactory.build(
                agent="faq", status="error", error_code="tool_timeout", attempt=4
            ),
            {**RUNNING_FAQ, "status": "skipped", "replans": 3, "attempts": 4},
            [revision("move_on", "tool_timeout", 3)],
        ),
        (
            RUNNING_FAQ,
            EnvelopeFactory.build(agent="faq", status="error", error_code="missing_context"),
            {**RUNNING_FAQ, "status": "skipped"},
            [revision("move_on", "missing_context", 0)],
        ),
        # a refund step is never tried again, whatever the error (SPEC 4.4)
        (
            RUNNING_REFUND,
            EnvelopeFactory.build(agent="payment", status="error", error_code="tool_timeout"),
            {**RUNNING_REFUND, "status": "skipped"},
            [revision("move_on", "tool_timeout", 0, agent="payment")],
        ),
        # an envelope from an earlier attempt says nothing about this one
        (RUNNING_FAQ, EnvelopeFactory.build(agent="faq", attempt=0), RUNNING_FAQ, []),
        # a step that is not running is not settled, even with an envelope
        (step(1, "faq", "search_faq"), EnvelopeFactory.build(agent="faq", attempt=0), None, []),
    ],
)
def test_running_steps_settle_from_their_envelopes(
    plan_step: PlanStep,
    envelope: dict[str, Any],
    settled: PlanStep | None,
    revisions: list[dict[str, Any]],
) -> None:
    new_plan, made = planner.settle([plan_step], {envelope["agent"]: cast(EnvelopeDict, envelope)})

    assert new_plan == [settled or plan_step]
    assert made == revisions


def test_a_running_step_without_an_envelope_stays_running() -> None:
    assert planner.settle([RUNNING_FAQ], {}) == ([RUNNING_FAQ], [])


# --- in_flight ------------------------------------------------------------------------------


def test_in_flight_lists_the_running_steps_only() -> None:
    plan = [
        step(1, "order", "get_order_details", status="done", attempts=1),
        step(2, "faq", "search_faq", status="running", attempts=1),
        step(3, "shipping", "track_shipment", 1, status="running", attempts=1),
        step(4, "payment", "process_refund", 1, status="skipped", attempts=1),
    ]

    assert planner.in_flight(plan) == [plan[1], plan[2]]


# --- lanes ----------------------------------------------------------------------------------

ORDER_RUNNING = step(1, "order", "get_order_details", status="running", attempts=1)


def test_a_lane_takes_the_pending_steps_that_wait_on_its_head_alone() -> None:
    plan = [
        ORDER_RUNNING,
        step(2, "faq", "search_faq", status="running", attempts=1),
        step(3, "shipping", "track_shipment", 1),
        step(4, "payment", "check_payment_status", 1, 2),  # also waits on the FAQ step
    ]

    assert planner.lane_followers(plan, ORDER_RUNNING) == [plan[2]]
    assert planner.lane_followers(plan, plan[1]) == []


def test_a_step_waiting_on_a_settled_step_and_the_head_follows_the_head() -> None:
    plan = [
        ORDER_RUNNING,
        step(2, "faq", "search_faq", status="skipped", attempts=4),
        step(3, "payment", "check_payment_status", 1, 2),
    ]

    assert planner.lane_followers(plan, ORDER_RUNNING) == [plan[2]]


def test_steps_a_lane_ran_are_adopted_as_started_and_then_settled() -> None:
    plan = [ORDER_RUNNING, step(2, "shipping", "track_shipment", 1)]
    envelopes = {
        "order": cast(EnvelopeDict, {**EnvelopeFactory.build(agent="order"), "attempt": 1}),
        "shipping": cast(
            EnvelopeDict, {**EnvelopeFactory.build(agent="shipping"), "attempt": 1, "step": 2}
        ),
    }

    adopted = planner.adopt_lane_runs(plan, envelopes)

    assert adopted == [ORDER_RUNNING, {**plan[1], "status": "running", "attempts": 1}]
    settled, _ = planner.settle(adopted, envelopes)
    assert [s["status"] for s in settled] == ["done", "done"]


def test_an_envelope_of_an_earlier_attempt_is_not_adopted() -> None:
    # the step failed on its first attempt and waits to be tried again
    plan = [step(2, "shipping", "track_shipment", 1, attempts=1, replans=1)]
    envelope = {**EnvelopeFactory.build(agent="shipping", status="error"), "attempt": 1, "step": 2}

    assert planner.adopt_lane_runs(plan, {"shipping": cast(EnvelopeDict, envelope)}) == plan
