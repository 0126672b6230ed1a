"""Factories for the graph's JSON-shaped state: classifications, plan steps, envelopes, actions.

The pure functions of ``agents`` (planner, policy, approval, supervisor routing, package,
verifiers) take these shapes; tests build them here with only the fields a case is about
spelled out, e.g. ``EnvelopeFactory.build(agent="faq", status="error", error_code="tool_timeout")``.
Database rows come from ``tests/factories.py``.
"""

from __future__ import annotations

from typing import Any, cast

import factory

from agents.contract.schemas import Classification, Entities
from agents.support.shapes import EnvelopeDict


class ClassificationFactory(factory.Factory[Classification]):
    """A confident Japanese inquiry for the order agent alone, unless told otherwise."""

    class Meta:
        model = Classification

    agents = factory.LazyFunction(lambda: ["order"])
    intent = "get_order_details"
    secondary_intents = factory.LazyFunction(list)
    entities = factory.LazyFunction(Entities)
    language = "ja"
    confidence = 0.9
    injection_suspected = False


class PlanStepFactory(factory.DictFactory):
    """Step 1: the order agent looking an order up, not started."""

    step = 1
    agent = "order"
    intent = "get_order_details"
    depends_on = factory.LazyFunction(list)
    status = "pending"
    attempts = 0
    replans = 0


class EnvelopeFactory(factory.DictFactory):
    """A specialist's answer as the state holds it (an ``Envelope`` plus its attempt)."""

    agent = "order"
    status = "success"
    data = factory.LazyFunction(dict)
    message = ""
    error_code = None
    attempt = 1


class ActionFactory(factory.DictFactory):
    """A refund of ORD-4003 the payment agent prepared, waiting for a person."""

    action_id = factory.Sequence(lambda n: f"inq-1:process_refund:{n:016x}")
    kind = "process_refund"
    agent = "payment"
    tool = "process_refund"
    tool_call_id = factory.Sequence(lambda n: f"call_{n}")
    params = factory.LazyFunction(
        lambda: {"order_number": "ORD-4003", "amount": 12800, "reason": "damaged"}
    )
    amount_at_risk = 12800
    requested_amount = 12800
    capped = False
    checks = factory.LazyFunction(list)
    facts = factory.LazyFunction(dict)


def envelopes(*answers: dict[str, Any]) -> dict[str, EnvelopeDict]:
    """The state's ``envelopes`` map (by agent name) from ``EnvelopeFactory`` answers."""
    return {answer["agent"]: cast(EnvelopeDict, answer) for answer in answers}
