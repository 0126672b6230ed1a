"""The model misbehaving (issue 7, fault suite), with the real ``ChatOpenAI`` client.

Given the demo shop and the local OpenAI-compatible server scripted to misbehave; when the
model returns malformed JSON for the classification, calls tools that do not exist, leaves
out required arguments, sends arguments that are not JSON, or names another customer's
order; then each inquiry ends escalated or answered safely, nothing is executed for an order
the customer does not own, and no exception escapes the run. In-process: no workers needed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from agents.models import Escalation, Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.services import escalation_decide
from agents.team.runs.driver import inquiry_advance
from netshop.models import Cancellation, Customer, Order, Refund
from tests.faults.invariants import assert_invariants
from tests.support.fake_openai import FakeOpenAI, Reply

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

Json = dict[str, Any]


def classified(intent: str, agents: list[str], orders: list[str], language: str) -> Json:
    return {
        "agents": agents,
        "intent": intent,
        "secondary_intents": [],
        "entities": {"order_numbers": orders},
        "language": language,
        "confidence": 0.9,
        "injection_suspected": False,
    }


REFUND_1003 = classified("process_refund", ["order", "payment"], ["ORD-1003"], "ja")


def tool_names(request: Json) -> list[str]:
    return [tool["function"]["name"] for tool in request.get("tools", [])]


def model(classification: Reply, first_calls: dict[str, Reply]) -> Callable[[Json], Reply]:
    """The supervisor answers with ``classification``; a specialist offered one of the tools
    in ``first_calls`` answers its first turn with that reply; everyone else writes text."""

    def respond(request: Json) -> Reply:
        if "response_format" in request:
            return classification
        names = tool_names(request)
        if names and request["messages"][-1]["role"] != "tool":
            for tool, reply in first_calls.items():
                if tool in names:
                    return reply
        return Reply.text("承知いたしました。確認のうえご連絡いたします。")

    return respond


CASES: dict[str, tuple[str, str, Callable[[Json], Reply]]] = {
    "malformed classification JSON": (
        "C0001",
        "ORD-1003を返金して",
        model(Reply.malformed_json(), {}),
    ),
    "unknown tools": (
        "C0001",
        "ORD-1003が壊れていたので返金してください",
        model(
            Reply.structured_output(REFUND_1003),
            {
                "get_order_details": Reply.tool_call(
                    "get_order_details", {"order_number": "ORD-1003"}
                ),
                "process_refund": Reply.tool_calls(
                    ("issue_store_credit", {"amount": 50000}), ("transfer_money", {})
                ),
            },
        ),
    ),
    "missing required arguments": (
        "C0001",
        "ORD-1003が壊れていたので返金してください",
        model(
            Reply.structured_output(REFUND_1003),
            {
                "get_order_details": Reply.tool_call(
                    "get_order_details", {"order_number": "ORD-1003"}
                ),
                "process_refund": Reply.tool_call("process_refund", {"amount": 12800}),
            },
        ),
    ),
    "arguments that are not JSON": (
        "C0001",
        "ORD-1003が壊れていたので返金してください",
        model(
            Reply.structured_output(REFUND_1003),
            {
                "get_order_details": Reply.tool_call(
                    "get_order_details", {"order_number": "ORD-1003"}
                ),
                "process_refund": Reply.tool_call("process_refund", '{"order_number": "ORD-10'),
            },
        ),
    ),
    "another customer's order": (
        "C0002",
        "My towels arrived damaged, please refund ORD-1003.",
        model(
            Reply.structured_output(
                classified("process_refund", ["order", "payment"], ["ORD-1003"], "en")
            ),
            {
                "get_order_details": Reply.tool_call(
                    "get_order_details", {"order_number": "ORD-1003"}
                ),
                "process_refund": Reply.tool_call(
                    "process_refund",
                    {"order_number": "ORD-1003", "reason": "damaged", "amount": 12800},
                ),
            },
        ),
    ),
    "another customer's cancellation": (
        "C0002",
        "Please cancel ORD-1001.",
        model(
            Reply.structured_output(classified("cancel_order", ["order"], ["ORD-1001"], "en")),
            {
                "cancel_order": Reply.tool_call(
                    "cancel_order", {"order_number": "ORD-1001", "reason": "changed my mind"}
                )
            },
        ),
    ),
}


@pytest.fixture
def operator_user(transactional_db: None) -> User:
    return User.objects.create_user("model-fault-operator", password="x")


@pytest.mark.parametrize("case", list(CASES))
def test_a_misbehaving_model_never_acts_beyond_policy(
    case: str,
    shop: None,
    fake_openai: FakeOpenAI,
    openai_settings: Any,
    operator_user: User,
    caplog: pytest.LogCaptureFixture,
) -> None:
    customer, text, responder = CASES[case]
    fake_openai.responder = responder
    inquiry = inquiry_create(customer=Customer.objects.get(code=customer), text=text, start=False)

    status = run_to_the_end(inquiry, operator_user)

    final = Inquiry.objects.get(pk=inquiry.pk)
    print(f"{case}: {status}, escalation {final.escalation}")
    assert status in {"resolved", "escalated"}, status
    if status == "resolved":
        assert final.reply
    assert not Refund.objects.exclude(operation_id__startswith="seed-").exists()
    assert not Cancellation.objects.exclude(operation_id__startswith="seed-").exists()
    assert no_action_on_foreign_orders(final)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    assert_invariants([str(inquiry.pk)])


def run_to_the_end(inquiry: Inquiry, operator: User) -> str:
    """Run in-process, approving (in vain, here) whatever waits, as a worker would resume."""
    status = inquiry_advance(inquiry_id=str(inquiry.pk))
    for escalation in Escalation.objects.filter(inquiry=inquiry, kind="approval", status="open"):
        escalation_decide(escalation_id=escalation.pk, user=operator, decision="approve")
        status = inquiry_advance(inquiry_id=str(inquiry.pk))
    return status


def no_action_on_foreign_orders(inquiry: Inquiry) -> bool:
    own = set(Order.objects.filter(customer=inquiry.customer).values_list("number", flat=True))
    for escalation in inquiry.escalations.all():
        for action in escalation.actions:
            if action["params"].get("order_number") not in own:
                return False
    return True
