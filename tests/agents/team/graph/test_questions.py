"""A specialist that stops to ask: its dependants are skipped, the review asks, nobody acts.

Pure functions over the state's shapes (planner, review, routing, policy), no database.
"""

from __future__ import annotations

from typing import Any

from agents.models import EscalationKind
from agents.team.graph import planner, supervisor
from agents.team.graph.escalation_policy import Escalation, assess
from agents.team.graph.questions import first_question, first_referral, waiting_on_answer
from agents.team.graph.state import PlanStep
from tests.agents.factories import ActionFactory, EnvelopeFactory, PlanStepFactory, envelopes


def step(**fields: Any) -> PlanStep:
    built: PlanStep = PlanStepFactory.build(**fields)
    return built


QUESTION = {"slot": "order", "why": "ambiguous", "options": [{"value": "ORD-4002", "label": ""}]}
ASKED = {"ask_customer": {"question": QUESTION}, "search_orders": {"orders": []}}
REFERRED = {
    "refer_to_person": {
        "referral": {
            "reason": "claim_contradicts_records",
            "summary": "says not arrived; delivered",
            "order_number": "ORD-4003",
        }
    }
}


def plan_of_three() -> list[PlanStep]:
    return [
        step(step=1, agent="order", status="running", attempts=1),
        step(step=2, agent="shipping", intent="track_shipment", depends_on=[1]),
        step(step=3, agent="payment", intent="apply_coupon", depends_on=[1]),
        step(step=4, agent="faq", intent="search_faq"),
    ]


def test_the_steps_waiting_on_an_asking_step_are_skipped_and_the_others_run_on() -> None:
    answers = envelopes(EnvelopeFactory.build(agent="order", data=ASKED))

    plan, revisions = planner.settle(plan_of_three(), answers)

    assert [s["status"] for s in plan] == ["done", "skipped", "skipped", "pending"]
    assert [(r["step"], r["decision"]) for r in revisions] == [
        (2, "wait_for_answer"),
        (3, "wait_for_answer"),
    ]
    assert planner.start_ready(plan)[3]["status"] == "running"


def test_a_step_that_answered_lets_its_dependants_run() -> None:
    answers = envelopes(EnvelopeFactory.build(agent="order", data={"get_order_details": {}}))

    plan, revisions = planner.settle(plan_of_three(), answers)

    assert [s["status"] for s in plan] == ["done", "pending", "pending", "pending"]
    assert revisions == []


def test_dependants_of_dependants_wait_too() -> None:
    plan = [
        step(step=1, agent="order", status="done"),
        step(step=2, agent="shipping", depends_on=[1]),
        step(step=3, agent="payment", depends_on=[2]),
    ]

    blocked = waiting_on_answer(plan, envelopes(EnvelopeFactory.build(agent="order", data=ASKED)))

    assert blocked == {2, 3}


def test_the_first_step_s_question_is_the_one_asked() -> None:
    plan = [step(step=1, agent="order"), step(step=2, agent="shipping")]
    answers = envelopes(
        EnvelopeFactory.build(
            agent="shipping", data={"ask_customer": {"question": {"slot": "date"}}}
        ),
        EnvelopeFactory.build(agent="order", data=ASKED),
    )

    assert first_question(answers, plan) == {**QUESTION, "asked_by": "order"}
    assert first_referral(answers, plan) is None


def test_an_errored_envelope_asks_nothing() -> None:
    plan = [step(step=1, agent="order")]
    answers = envelopes(EnvelopeFactory.build(agent="order", status="error", data=ASKED))

    assert first_question(answers, plan) is None


def review_state(data: dict[str, Any], **extra: Any) -> Any:
    return {
        "inquiry_id": "inq-1",
        "customer_id": "C0001",
        "text": "my parcel hasn't arrived",
        "request": "my parcel hasn't arrived",
        "turn": 1,
        "classification": {"intent": "track_shipment", "agents": ["order", "shipping"]},
        "plan": [step(step=1, agent="order", status="done")],
        "envelopes": envelopes(EnvelopeFactory.build(agent="order", data=data)),
        **extra,
    }


def test_the_review_of_a_question_asks_and_drops_what_was_prepared() -> None:
    state = review_state({**ASKED, "pending_action": ActionFactory.build()})

    update = supervisor.review(state)

    assert update["pending_actions"] == []
    assert update["escalation"] is None
    assert update["question"] == {
        **QUESTION,
        "asked_by": "order",
        "request": "my parcel hasn't arrived",
        "intent": "track_shipment",
        "turn": 1,
    }
    assert supervisor.route_after_review(state | update) == "ask"


def test_a_referral_goes_to_a_person_with_the_reason_and_no_question() -> None:
    update = supervisor.review(review_state(REFERRED))

    assert "question" not in update
    assert update["escalation"] == {
        "kind": EscalationKind.FOLLOW_UP,
        "reason": "claim_contradicts_records",
        "summary": "says not arrived; delivered",
        "failed_agents": [],
        "detail": {"order_number": "ORD-4003"},
    }
    assert supervisor.route_after_review(review_state(REFERRED) | update) == "merge"


def test_a_request_a_specialist_refers_as_beyond_the_shop_goes_to_a_person() -> None:
    referral = {"reason": "unsupported_request", "summary": "wants a gift wrap added"}

    escalation = assess(
        envelopes={}, intent="contact_human", injection_suspected=False, referral=referral
    )

    assert escalation == Escalation(
        EscalationKind.FOLLOW_UP, "unsupported_request", "wants a gift wrap added", [], {}
    )


def test_the_brief_leaves_out_what_a_referring_agent_found() -> None:
    state = review_state(REFERRED)

    assert supervisor.reply_brief(state)["results"] == {}


def test_the_classifier_reads_the_conversation_and_the_open_question() -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    state: Any = {
        "inquiry_id": "inq-1",
        "text": "2",
        "message_ids": ["m3"],
        "messages": [
            HumanMessage("my parcel hasn't arrived", id="m1"),
            AIMessage("Which order? 1. ORD-4002 2. ORD-4004", id="inq-1:1:question"),
            HumanMessage("2", id="m3"),
        ],
        "question": {"slot": "order", "options": [{"value": "ORD-4002"}]},
    }

    prompt = supervisor.classify_prompt(state)

    assert (
        '<conversation>\n[{"from": "customer", "text": "my parcel hasn\'t arrived"}, '
        '{"from": "shop", "text": "Which order? 1. ORD-4002 2. ORD-4004"}]\n</conversation>'
    ) in prompt
    assert (
        '<question>\n{"slot": "order", "options": [{"value": "ORD-4002"}]}\n</question>' in prompt
    )
    assert prompt.endswith("<inquiry>\n2\n</inquiry>")
