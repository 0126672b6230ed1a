"""The escalation policy (SPEC 4) as pure functions of what the specialists returned.

Given the specialists' envelopes (and the plan), when the policy is asked directly (no graph
run), then it names exactly who acts next and why, or that nobody needs to.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.models import EscalationKind
from agents.team.graph import escalation_policy
from agents.team.graph.escalation_policy import Escalation
from tests.agents.factories import ActionFactory, EnvelopeFactory, PlanStepFactory, envelopes

REFUND = ActionFactory.build(action_id="a-refund")
CANCEL = ActionFactory.build(action_id="a-cancel", kind="cancel_order", agent="order")

ORDER_FOUND = EnvelopeFactory.build(agent="order", data={"get_order_details": {"order": {"n": 1}}})
ORDER_FAILED = EnvelopeFactory.build(agent="order", status="error", error_code="tool_timeout")
SHIPPING_FAILED = EnvelopeFactory.build(agent="shipping", status="error", error_code="tool_error")
PAYMENT_FAILED = EnvelopeFactory.build(agent="payment", status="error", error_code="tool_error")
PAYMENT_ASKS = EnvelopeFactory.build(
    agent="payment", status="escalate", data={"process_refund": {}, "pending_action": REFUND}
)
ORDER_ASKS = EnvelopeFactory.build(
    agent="order", status="escalate", data={"pending_action": CANCEL}
)
PAYMENT_LOOKED = EnvelopeFactory.build(agent="payment", data={"check_payment_status": {"ok": 1}})
PAYMENT_REFUSED = EnvelopeFactory.build(
    agent="payment", data={"process_refund": {"refused": "not_captured"}}
)
FAQ_EMPTY = EnvelopeFactory.build(
    agent="faq", data={"search_faq": {"entries": []}, "answer_general_question": {"answer": ""}}
)
FAQ_ANSWERED = EnvelopeFactory.build(
    agent="faq", data={"answer_general_question": {"answer": "14日以内です。"}}
)

REFUND_STEP = PlanStepFactory.build(step=2, agent="payment", intent="process_refund")
CANCEL_STEP = PlanStepFactory.build(step=1, agent="order", intent="cancel_order")
LOOKUP_STEP = PlanStepFactory.build(step=1, agent="order", intent="get_order_details")


# --- the building blocks --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answers", "failed", "useful"),
    [
        ((), [], []),
        ((ORDER_FOUND,), [], ["order"]),
        ((SHIPPING_FAILED, ORDER_FAILED, FAQ_ANSWERED), ["order", "shipping"], ["faq"]),
        # an answer without data is not a useful result, though not a failure either
        ((EnvelopeFactory.build(agent="faq"), PAYMENT_ASKS), [], ["payment"]),
    ],
)
def test_failed_and_useful_agents_are_listed_by_name(
    answers: tuple[dict[str, Any], ...], failed: list[str], useful: list[str]
) -> None:
    given = envelopes(*answers)

    assert escalation_policy.failed_agents(given) == failed
    assert escalation_policy.useful_results(given) == useful


def test_pending_actions_are_those_of_escalating_envelopes_only() -> None:
    not_escalating = EnvelopeFactory.build(agent="shipping", data={"pending_action": {"kind": "x"}})

    given = envelopes(ORDER_ASKS, PAYMENT_ASKS, not_escalating, ORDER_FAILED | {"agent": "faq"})

    assert escalation_policy.pending_actions(given) == [CANCEL, REFUND]


@pytest.mark.parametrize(
    ("answers", "plan", "unprepared"),
    [
        ((PAYMENT_LOOKED,), [REFUND_STEP], ["process_refund"]),
        ((PAYMENT_FAILED,), [REFUND_STEP], ["process_refund"]),
        ((PAYMENT_REFUSED,), [REFUND_STEP], []),  # refused by the rules: that is an answer
        ((PAYMENT_ASKS,), [REFUND_STEP], []),  # prepared: waiting for a person
        ((), [REFUND_STEP], []),  # the step has not answered yet
        ((ORDER_FOUND,), [LOOKUP_STEP], []),  # only refunds and cancellations are gated
        (
            (ORDER_FOUND, PAYMENT_LOOKED),
            [CANCEL_STEP, REFUND_STEP],
            ["cancel_order", "process_refund"],
        ),
    ],
)
def test_a_gated_request_neither_prepared_nor_refused_is_unprepared(
    answers: tuple[dict[str, Any], ...], plan: list[dict[str, Any]], unprepared: list[str]
) -> None:
    assert escalation_policy.unprepared_requests(envelopes(*answers), plan) == unprepared


# --- assess: the first rule that applies ----------------------------------------------------

ASSESS_CASES = [
    pytest.param(
        (ORDER_FOUND, PAYMENT_ASKS),
        "process_refund",
        False,
        [REFUND_STEP],
        Escalation(EscalationKind.APPROVAL, "approval_required", "approval needed: process_refund"),
        id="a prepared refund waits for approval",
    ),
    pytest.param(
        (ORDER_FOUND, PAYMENT_ASKS),
        "process_refund",
        True,
        [REFUND_STEP],
        Escalation(
            EscalationKind.APPROVAL,
            "approval_required",
            "approval needed: process_refund (the inquiry tried to instruct the system)",
        ),
        id="an injection attempt is named in the approval",
    ),
    pytest.param(
        (),
        "process_refund",
        True,
        [],
        Escalation(
            EscalationKind.FOLLOW_UP,
            "instructions_to_system",
            "the inquiry tried to instruct the system: nothing prepared, a person reads it",
        ),
        id="an injection attempt nobody worked on goes to a person with the flag",
    ),
    pytest.param(
        (ORDER_ASKS, PAYMENT_LOOKED, SHIPPING_FAILED),
        "cancel_order",
        False,
        [CANCEL_STEP, REFUND_STEP],
        Escalation(
            EscalationKind.APPROVAL,
            "approval_required",
            "approval needed: cancel_order; also could not prepare: process_refund",
            ["shipping"],
        ),
        id="an approval also names what could not be prepared",
    ),
    pytest.param(
        (ORDER_FOUND, PAYMENT_FAILED),
        "process_refund",
        False,
        [LOOKUP_STEP, REFUND_STEP],
        Escalation(
            EscalationKind.FAILURE,
            "action_failed",
            "could not prepare: process_refund; a person must handle it",
            ["payment"],
        ),
        id="an unprepared refund goes to a person",
    ),
    pytest.param(
        (ORDER_FAILED, SHIPPING_FAILED),
        "track_shipment",
        False,
        [],
        Escalation(
            EscalationKind.FAILURE,
            "tool_failure",
            "no specialist could answer: order, shipping",
            ["order", "shipping"],
        ),
        id="nothing useful came back",
    ),
    pytest.param(
        (ORDER_FOUND, SHIPPING_FAILED, PAYMENT_FAILED),
        "track_shipment",
        False,
        [],
        Escalation(
            EscalationKind.FOLLOW_UP,
            "tool_failure",
            "partial answer sent; not checked: payment, shipping",
            ["payment", "shipping"],
        ),
        id="two failures give a partial answer and a follow-up",
    ),
    pytest.param(
        (ORDER_FOUND, SHIPPING_FAILED),
        "track_shipment",
        False,
        [],
        None,
        id="one failure beside a useful answer needs nobody",
    ),
    pytest.param(
        (FAQ_ANSWERED,),
        "contact_human",
        False,
        [],
        Escalation(
            EscalationKind.CUSTOMER_REQUEST, "customer_request", "the customer asked for a person"
        ),
        id="the customer asked for a person",
    ),
    pytest.param(
        (FAQ_EMPTY,),
        "search_faq",
        False,
        [],
        Escalation(
            EscalationKind.FOLLOW_UP, "missing_knowledge", "the FAQ has no answer to this question"
        ),
        id="the FAQ alone found nothing",
    ),
    pytest.param(
        (FAQ_EMPTY, ORDER_FOUND),
        "search_faq",
        False,
        [],
        None,
        id="the FAQ found nothing but another agent answered",
    ),
    pytest.param((FAQ_ANSWERED,), "answer_general_question", False, [], None, id="answered"),
    pytest.param(
        (PAYMENT_REFUSED, ORDER_FOUND),
        "process_refund",
        False,
        [REFUND_STEP],
        None,
        id="a refund the rules refused is answered, not escalated",
    ),
]


@pytest.mark.parametrize(("answers", "intent", "injection", "plan", "expected"), ASSESS_CASES)
def test_assess_names_who_acts_next_by_the_first_rule_that_applies(
    answers: tuple[dict[str, Any], ...],
    intent: str,
    injection: bool,
    plan: list[dict[str, Any]],
    expected: Escalation | None,
) -> None:
    escalation = escalation_policy.assess(
        envelopes=envelopes(*answers), intent=intent, injection_suspected=injection, plan=plan
    )

    assert escalation == expected


def test_assess_without_a_plan_checks_no_gated_request() -> None:
    assert (
        escalation_policy.assess(
            envelopes=envelopes(PAYMENT_LOOKED), intent="x", injection_suspected=False
        )
        is None
    )


def test_a_supervisor_failure_goes_to_a_person_as_a_dict_the_state_can_hold() -> None:
    escalation = escalation_policy.supervisor_failure("TimeoutError")

    assert escalation.as_dict() == {
        "kind": "failure",
        "reason": "supervisor_failure",
        "summary": "the supervisor failed: TimeoutError",
        "failed_agents": [],
    }
