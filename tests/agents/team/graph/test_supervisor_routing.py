"""The supervisor's routing and bookkeeping nodes, called directly on a state (no graph run).

Given a run's state, when a router or a node without a model is called, then it returns the
exact next node (or ``Send`` fan-out) and the exact state update. Classification and
writing call a model: the graph tests drive those with a scripted model.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from agents.team.graph import supervisor
from tests.agents.factories import (
    ActionFactory,
    ClassificationFactory,
    EnvelopeFactory,
    PlanStepFactory,
    envelopes,
)

TODAY = dt.date(2026, 5, 13)


@pytest.fixture(autouse=True)
def _fixed_today(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shop's date is in every hand-off and brief; the clock is outside the product."""
    monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: TODAY)


def state_with(**fields: Any) -> Any:
    classification = fields.pop("classification", ClassificationFactory.build())
    return {
        "inquiry_id": "inq-1",
        "customer_id": "C0001",
        "text": "ORD-4003の明細を教えて",
        "classification": classification.model_dump(),
        **fields,
    }


# --- routers --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "route"),
    [
        ({"status": "escalated"}, "finalize"),  # the supervisor failed: straight to a person
        ({"question": {"slot": "confirm"}}, "ask"),  # too unsure to act: confirm first
        ({"status": "running", "plan": []}, "review"),  # nothing for the team to look up
    ],
)
def test_after_classify_a_failed_supervisor_finalizes_an_unsure_reading_asks_and_others_fan_out(
    state: Any, route: str
) -> None:
    assert supervisor.route_after_classify(state) == route


def test_after_classify_the_planned_first_wave_fans_out() -> None:
    plan = [
        PlanStepFactory.build(step=1, agent="order", status="running", attempts=1),
        PlanStepFactory.build(step=2, agent="shipping", intent="track_shipment", depends_on=[1]),
    ]

    sends = supervisor.route_after_classify(state_with(plan=plan))

    assert isinstance(sends, list)
    assert [(s.node, s.arg["handoff"]["agent"], s.arg["lane"]["followers"]) for s in sends] == [
        ("specialist", "order", [2])
    ]


@pytest.mark.parametrize(
    ("pending", "route"),
    [([ActionFactory.build()], "acknowledge"), ([], "merge"), (None, "merge")],
)
def test_after_review_prepared_actions_are_acknowledged_and_the_rest_merged(
    pending: list[dict[str, Any]] | None, route: str
) -> None:
    state: Any = {} if pending is None else {"pending_actions": pending}

    assert supervisor.route_after_review(state) == route


def test_route_steps_reviews_when_no_step_is_running() -> None:
    plan = [
        PlanStepFactory.build(status="done", attempts=1),
        PlanStepFactory.build(step=2, status="skipped"),
    ]

    assert supervisor.route_steps(state_with(plan=plan)) == "review"


def test_route_steps_fans_out_one_send_per_running_step() -> None:
    plan = [
        PlanStepFactory.build(step=1, agent="order", status="running", attempts=1),
        PlanStepFactory.build(
            step=2, agent="faq", intent="search_faq", status="running", attempts=2
        ),
        PlanStepFactory.build(step=3, agent="shipping", intent="track_shipment", depends_on=[1]),
    ]

    sends = supervisor.route_steps(state_with(plan=plan))

    assert isinstance(sends, list)
    assert [
        (
            s.node,
            s.arg["handoff"]["agent"],
            s.arg["handoff"]["intent"],
            s.arg["step"],
            s.arg["attempt"],
        )
        for s in sends
    ] == [
        ("specialist", "order", "get_order_details", 1, 1),
        ("specialist", "faq", "search_faq", 2, 2),
    ]
    assert {s.arg["handoff"]["customer_id"] for s in sends} == {"C0001"}  # from the intake


# --- plan and execute -----------------------------------------------------------------------


def test_the_plan_starts_the_first_wave_and_records_the_plan_as_made() -> None:
    classification = ClassificationFactory.build(
        agents=["order", "payment"], intent="process_refund"
    )

    update = supervisor.planned(classification)

    made = [
        PlanStepFactory.build(step=1, agent="order", intent="get_order_details"),
        PlanStepFactory.build(step=2, agent="payment", intent="process_refund", depends_on=[1]),
    ]
    assert update == {
        "plan": [{**made[0], "status": "running", "attempts": 1}, made[1]],
        "plan_history": [{"kind": "plan", "steps": made}],
    }


def test_execute_settles_what_came_back_and_starts_what_is_ready() -> None:
    plan = [
        PlanStepFactory.build(step=1, agent="order", status="running", attempts=1),
        PlanStepFactory.build(step=2, agent="payment", intent="process_refund", depends_on=[1]),
        PlanStepFactory.build(
            step=3, agent="faq", intent="search_faq", status="running", attempts=1
        ),
    ]
    came_back = envelopes(
        EnvelopeFactory.build(agent="order"),
        EnvelopeFactory.build(agent="faq", status="error", error_code="tool_timeout"),
    )

    update = supervisor.execute(state_with(plan=plan, envelopes=came_back))

    assert update == {
        "plan": [
            {**plan[0], "status": "done"},
            {**plan[1], "status": "running", "attempts": 1},
            {**plan[2], "status": "running", "attempts": 2, "replans": 1},
        ],
        "plan_history": [
            {
                "kind": "revision",
                "step": 3,
                "agent": "faq",
                "decision": "retry",
                "because": "tool_timeout",
                "replans": 1,
            }
        ],
    }


# --- review and finalize --------------------------------------------------------------------


def test_review_collects_the_prepared_actions_and_the_policys_escalation() -> None:
    refund = ActionFactory.build()
    came_back = envelopes(
        EnvelopeFactory.build(agent="order", data={"get_order_details": {"order": {}}}),
        EnvelopeFactory.build(agent="payment", status="escalate", data={"pending_action": refund}),
    )
    state = state_with(
        classification=ClassificationFactory.build(
            agents=["order", "payment"], intent="process_refund", injection_suspected=True
        ),
        envelopes=came_back,
    )

    update = supervisor.review(state)

    assert update == {
        "pending_actions": [refund],
        "escalation": {
            "kind": "approval",
            "reason": "approval_required",
            "summary": "approval needed: process_refund (the inquiry tried to instruct the system)",
            "failed_agents": [],
        },
    }


def test_review_of_answers_that_need_nobody_has_no_escalation() -> None:
    state = state_with(envelopes=envelopes(EnvelopeFactory.build(data={"get_order_details": {}})))

    assert supervisor.review(state) == {"pending_actions": [], "escalation": None}


@pytest.mark.parametrize(
    ("state", "update"),
    [
        ({"status": "handled_by_human", "escalation": {"kind": "failure"}}, {}),
        ({"escalation": {"kind": "failure"}}, {"status": "escalated"}),
        ({"escalation": {"kind": "follow_up"}}, {"status": "escalated"}),
        ({"escalation": {"kind": "customer_request"}}, {"status": "escalated"}),
        ({"escalation": {"kind": "approval"}}, {"status": "resolved"}),  # approved and done
        ({"escalation": None}, {"status": "resolved"}),
        ({}, {"status": "resolved"}),
    ],
)
def test_finalize_settles_the_status_from_the_escalation(
    state: Any, update: dict[str, Any]
) -> None:
    assert supervisor.finalize(state) == update


# --- the writer's brief ---------------------------------------------------------------------


def test_the_brief_holds_what_the_writer_may_say_and_no_internal_reference() -> None:
    refund = ActionFactory.build(
        action_id="a1", params={"order_number": "ORD-4003", "amount": 6400}
    )
    decided = ActionFactory.build(action_id="a0")
    came_back = envelopes(
        EnvelopeFactory.build(
            agent="payment",
            status="escalate",
            data={
                "pending_action": refund,
                "check_payment_status": {
                    "payment_reference": "pay_1",
                    "status": "captured",
                    "refunds": [{"gateway_refund_id": "rf_1", "amount": 100}],
                },
            },
        ),
        EnvelopeFactory.build(agent="shipping", status="error", error_code="carrier_timeout"),
    )
    state = state_with(
        classification=ClassificationFactory.build(
            agents=["order", "payment", "shipping"],
            intent="process_refund",
            secondary_intents=["track_shipment"],
        ),
        language="en",
        envelopes=came_back,
        pending_actions=[refund, decided],
        decisions={"a0": {"decision": "approve"}},
        action_results=[{"action_id": "a0", "outcome": "executed", "operator": "op1"}],
        escalation=None,
    )

    brief = supervisor.reply_brief(state)

    assert brief == {
        "language": "en",
        "today": "2026-05-13",
        "inquiry": "ORD-4003の明細を教えて",
        "intent": "process_refund",
        "secondary_intents": ["track_shipment"],
        "results": {
            "payment": {
                "status": "escalate",
                "data": {
                    "check_payment_status": {"status": "captured", "refunds": [{"amount": 100}]}
                },
                "message": "",
                "error_code": None,
            },
            "shipping": {
                "status": "error",
                "data": {},
                "message": "",
                "error_code": "carrier_timeout",
            },
        },
        "not_checked": ["shipping"],
        "pending_actions": [
            {
                "kind": "process_refund",
                "params": {"order_number": "ORD-4003", "amount": 6400},
                "capped": False,
            }
        ],
        "action_results": [{"outcome": "executed"}],
        "escalation": None,
    }


def test_the_brief_defaults_to_japanese_when_no_language_was_settled() -> None:
    assert supervisor.reply_brief(state_with())["language"] == "ja"
