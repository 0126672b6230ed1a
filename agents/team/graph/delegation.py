"""Uniform dispatch and callback (seed 004): one hand-off in, one envelope out.

``build_handoff`` turns a plan step into the one dispatch schema (customer id from the
intake, a standalone instruction, the context keys the route requires). ``run_handoff`` runs
the specialist's own sub-graph on it and folds the result into its envelope.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import cache
from typing import Any, cast

from django.utils import timezone
from langchain_core.messages import HumanMessage, SystemMessage, messages_to_dict
from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from agents.contract.blocks import customer_words, specialist_task
from agents.contract.schemas import AgentName, Envelope, Handoff
from agents.support.shapes import EnvelopeDict
from agents.team.db_connections import releases_db_connection
from agents.team.graph.state import InquiryState, PlanStep
from agents.team.handoffs import receipts
from agents.team.handoffs.receipts import handoff_receipt
from agents.team.run_context import run_config, run_context, run_customer
from agents.team.specialists import SPECIALISTS
from agents.team.specialists.envelopes import envelope_from
from agents.team.specialists.loop import build_specialist_graph
from agents.team.specialists.retries import backoff
from agents.team.specialists.state import SpecialistState

logger = logging.getLogger(__name__)

# The context keys each route requires; shipping and payment need the order agent's result.
REQUIRED_CONTEXT: dict[AgentName, tuple[str, ...]] = {
    "order": ("customer_id", "language", "entities"),
    "shipping": ("customer_id", "language", "entities", "order"),
    "payment": ("customer_id", "language", "entities", "order"),
    "faq": ("language",),
}


@cache
def specialist_graph(agent: AgentName) -> CompiledStateGraph:
    """The specialist's compiled loop, built on first use and kept for the process (a worker
    builds them all up front: ``agents.team.runs.warm_up``); importing this module compiles none."""
    return build_specialist_graph(SPECIALISTS[agent])


def found_order(envelopes: Mapping[str, EnvelopeDict]) -> dict[str, Any] | None:
    """The order the Order agent settled on, if it found exactly one."""
    order_env = envelopes.get("order")
    if not order_env or order_env["status"] == "error":
        return None
    details = order_env.get("data", {}).get("get_order_details") or {}
    order = details.get("order")
    return order if isinstance(order, dict) else None


def step_entities(entities: dict[str, Any], step: PlanStep) -> dict[str, Any]:
    """The inquiry's entities as the step sees them: only its own request's orders, when
    the inquiry asks different things of different orders."""
    own = step.get("order_numbers")
    return {**entities, "order_numbers": list(own)} if own else entities


def step_order(order: dict[str, Any] | None, step: PlanStep) -> dict[str, Any] | None:
    """The order the Order agent found, for a step whose request is about it; a step about
    another order the customer named works on that one (its tools check it is theirs)."""
    own = step.get("order_numbers")
    if order is None or (own and order.get("number") not in own):
        return None
    return order


def required_context(step: PlanStep, context: Mapping[str, Any]) -> tuple[str, ...]:
    """The route's required keys; the Order agent's find is not required of a step whose own
    request names another order (the order it works on is in its entities)."""
    required = REQUIRED_CONTEXT[step["agent"]]  # type: ignore[index]
    if step.get("order_numbers") and "order" not in context:
        return tuple(key for key in required if key != "order")
    return required


def build_handoff(state: InquiryState, step: PlanStep) -> dict[str, Any]:
    agent: AgentName = step["agent"]  # type: ignore[assignment]
    classification = state["classification"]
    context: dict[str, Any] = {
        "customer_id": state["customer_id"],
        "language": state.get("language", "ja"),
        "entities": step_entities(classification.get("entities", {}), step),
        "injection_suspected": classification.get("injection_suspected", False),
    }
    order = step_order(found_order(state.get("envelopes", {})), step)
    if order is not None:
        context["order"] = order
    required = required_context(step, context)
    handoff = Handoff(
        agent=agent,
        customer_id=state["customer_id"],
        instruction=_instruction(step, state.get("request") or state["text"]),
        intent=step["intent"],
        context={key: context[key] for key in required if key in context}
        | {
            "injection_suspected": context["injection_suspected"],
            "inquiry_intent": classification["intent"],
            "today": timezone.localdate().isoformat(),
        },
    )
    receipt = handoff_receipt(
        inquiry_id=state["inquiry_id"],
        receiver=agent,
        step=step["step"],
        attempt=step["attempts"],
        required=required,
        context=context,
    )
    return {
        "handoff": handoff.model_dump(),
        "step": step["step"],
        "attempt": step["attempts"],
        "receipt": receipt,
    }


def _instruction(step: PlanStep, text: str) -> str:
    retry = f" Attempt {step['attempts']}; the previous one failed." if step["replans"] else ""
    own = step.get("order_numbers")
    about = f" (for {', '.join(own)} only; the other orders are another step's)" if own else ""
    return (
        f"Step {step['step']}: handle the customer's request as the {step['agent']} agent; "
        f"task: {step['intent']}{about}.{retry}\nThe customer wrote:\n{customer_words(text)}"
    )


def specialist_messages(handoff: Handoff) -> list[Any]:
    spec = SPECIALISTS[handoff.agent]
    context = {"intent": handoff.intent, **handoff.context}
    return [SystemMessage(spec.prompt), HumanMessage(specialist_task(handoff.instruction, context))]


@releases_db_connection
def run_handoff(payload: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
    handoff = Handoff.model_validate(payload["handoff"])
    attempt = int(payload["attempt"])
    receipt = receipts.started(payload["receipt"], node=f"{handoff.agent}_agent")
    if attempt > 1:
        backoff(attempt - 2)
    graph = specialist_graph(handoff.agent)
    try:
        # The specialist's loop is not checkpointed: it runs under the run's identity only.
        context = run_context(config)
        inner = run_config(
            inquiry_id=context.inquiry_id,
            customer_id=context.customer_id,
            injection_suspected=handoff.context.get("injection_suspected") is True,
            customer=run_customer(config),
        )
        final = graph.invoke({"messages": specialist_messages(handoff), "turns": 0}, inner)
        envelope = envelope_from(handoff.agent, cast(SpecialistState, final))
        transcript = messages_to_dict(final.get("messages", [])[1:])
        errors = final.get("errors", [])
    except Exception as exc:  # a crashing specialist still answers with an envelope
        logger.exception("%s agent crashed", handoff.agent)
        crash = {"agent": handoff.agent, "code": "agent_crashed", "message": type(exc).__name__}
        envelope = Envelope(
            agent=handoff.agent,
            status="error",
            error_code="agent_crashed",
            message=crash["message"],
        )
        transcript, errors = [], [crash]
    stored = {**envelope.model_dump(), "attempt": attempt, "step": payload["step"]}
    return {
        "receipts": [receipts.closed(receipt, envelope_status=envelope.status)],
        "envelopes": {handoff.agent: stored},
        "transcripts": {handoff.agent: transcript},
        "errors": errors,
    }
