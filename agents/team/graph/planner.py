"""The plan (seed 001): numbered steps, one specialist each, in the cards' dependency order.

Pure functions over the state's plan. The executor marks steps running, settles them from
the envelopes that come back, and re-plans a blocked step at most ``MAX_REPLANS`` times
before moving on without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.contract.cards import (
    DEFAULT_INTENT,
    dependencies,
    execution_waves,
    specialist_cards,
)
from agents.contract.schemas import AgentName, Classification
from agents.support.shapes import EnvelopeDict
from agents.support.vocabulary import GATED_SKILLS, Skill
from agents.team.graph.questions import waiting_on_answer
from agents.team.graph.state import PlanStep

MAX_REPLANS = 3

# Failures a second try cannot mend: gated actions are never retried (SPEC 4.4), refusals stand.
NOT_RETRYABLE = frozenset({"approval_required", "action_preparation_failed", "missing_context"})

# The intents a specialist works on: the skills its card declares (SPEC 3.1).
INTENT_OF_AGENT: dict[AgentName, tuple[str, ...]] = {
    agent: card.skill_ids for agent, card in specialist_cards().items()
}


# Money back for items is one action: a return refunds its items, so a refund beside it would
# pay them twice. The one the inquiry names first (its main intent first) is prepared.
MONEY_BACK: frozenset[str] = frozenset({Skill.PROCESS_REFUND, Skill.RETURN_ITEMS})


def step_intent(agent: AgentName, classification: Classification) -> str:
    """The intent a specialist works on: the first of the inquiry's intents it owns (never
    a second way of paying the same money back)."""
    intents = (classification.intent, *classification.secondary_intents)
    first_money_back = next((intent for intent in intents if intent in MONEY_BACK), None)
    for intent in intents:
        if intent in MONEY_BACK and intent != first_money_back:
            continue
        if intent in INTENT_OF_AGENT[agent]:
            return intent
    return DEFAULT_INTENT[agent]


def step_orders(intent: str, classification: Classification) -> list[str]:
    """The orders the request for ``intent`` names, when they are fewer than the inquiry's
    ("cancel A, and when does B arrive?": A for the cancellation, B for the parcel); [] when
    the step works on every order named (one request, or one naming no order of its own).
    Only orders among the inquiry's entities count: a request never brings an order in."""
    named = classification.entities.order_numbers
    own = [
        number
        for request in classification.requests
        if request.intent == intent
        for number in request.order_numbers
        if number in named
    ]
    own = list(dict.fromkeys(own))
    return own if own and len(own) < len(named) else []


def make_plan(classification: Classification) -> list[PlanStep]:
    steps: list[PlanStep] = []
    number_of: dict[str, int] = {}
    for wave in execution_waves(list(classification.agents)):
        for agent in wave:
            number = len(steps) + 1
            number_of[agent] = number
            intent = step_intent(agent, classification)
            step = PlanStep(
                step=number,
                agent=agent,
                intent=intent,
                depends_on=[number_of[d] for d in dependencies(agent) if d in number_of],
                status="pending",
                attempts=0,
                replans=0,
            )
            if orders := step_orders(intent, classification):
                step["order_numbers"] = orders
            steps.append(step)
    return steps


def settle(
    plan: list[PlanStep], envelopes: Mapping[str, EnvelopeDict]
) -> tuple[list[PlanStep], list[dict[str, Any]]]:
    """Settle running steps from their envelopes; returns the new plan and its revisions."""
    new_plan: list[PlanStep] = []
    revisions: list[dict[str, Any]] = []
    for step in plan:
        envelope = envelopes.get(step["agent"])
        if (
            step["status"] != "running"
            or not envelope
            or envelope.get("attempt") != step["attempts"]
        ):
            new_plan.append(step)
            continue
        if envelope["status"] != "error":
            new_plan.append({**step, "status": "done"})
        elif _retryable(step, envelope) and step["replans"] < MAX_REPLANS:
            new_plan.append({**step, "status": "pending", "replans": step["replans"] + 1})
            revisions.append(_revision(step, envelope, "retry"))
        else:
            new_plan.append({**step, "status": "skipped"})
            revisions.append(_revision(step, envelope, "move_on"))
    return _skip_waiting_on_answer(new_plan, envelopes, revisions)


def _skip_waiting_on_answer(
    plan: list[PlanStep], envelopes: Mapping[str, EnvelopeDict], revisions: list[dict[str, Any]]
) -> tuple[list[PlanStep], list[dict[str, Any]]]:
    """Steps depending on one that stopped to ask are skipped: they would act on a guess."""
    blocked = waiting_on_answer(plan, envelopes)
    for step in plan:
        if step["step"] in blocked:
            revisions.append(
                {
                    "kind": "revision",
                    "step": step["step"],
                    "agent": step["agent"],
                    "decision": "wait_for_answer",
                    "because": "a step it depends on asked the customer or a person",
                    "replans": step["replans"],
                }
            )
    return [{**s, "status": "skipped"} if s["step"] in blocked else s for s in plan], revisions


def _retryable(step: PlanStep, envelope: EnvelopeDict) -> bool:
    """Reads may be tried again; a refund or cancellation step never is (SPEC 4.4)."""
    return envelope.get("error_code") not in NOT_RETRYABLE and step["intent"] not in GATED_SKILLS


def _revision(step: PlanStep, envelope: EnvelopeDict, decision: str) -> dict[str, Any]:
    return {
        "kind": "revision",
        "step": step["step"],
        "agent": step["agent"],
        "decision": decision,
        "because": envelope.get("error_code"),
        "replans": step["replans"] + (1 if decision == "retry" else 0),
    }


def start_ready(plan: list[PlanStep]) -> list[PlanStep]:
    """Mark every pending step whose dependencies are settled as running."""
    settled = {s["step"] for s in plan if s["status"] in ("done", "skipped")}
    return [
        {**s, "status": "running", "attempts": s["attempts"] + 1}
        if s["status"] == "pending" and all(d in settled for d in s["depends_on"])
        else s
        for s in plan
    ]


def in_flight(plan: list[PlanStep]) -> list[PlanStep]:
    return [s for s in plan if s["status"] == "running"]


def lane_followers(plan: list[PlanStep], head: PlanStep) -> list[PlanStep]:
    """The pending steps that wait on ``head`` and nothing else still open: they run in its
    lane as soon as it is done, not after the slowest step running beside it (the shipping
    agent needs the order, not the FAQ agent's answer)."""
    settled = {s["step"] for s in plan if s["status"] in ("done", "skipped")}
    return [
        s
        for s in plan
        if s["status"] == "pending"
        and head["step"] in s["depends_on"]
        and all(d in settled or d == head["step"] for d in s["depends_on"])
    ]


def adopt_lane_runs(plan: list[PlanStep], envelopes: Mapping[str, EnvelopeDict]) -> list[PlanStep]:
    """Count as started the pending steps a lane already ran (their envelope answers their
    next attempt), so that ``settle`` takes their results like any other step's."""
    return [
        {**s, "status": "running", "attempts": s["attempts"] + 1}
        if s["status"] == "pending" and _answers_next_attempt(s, envelopes.get(s["agent"]))
        else s
        for s in plan
    ]


def _answers_next_attempt(step: PlanStep, envelope: EnvelopeDict | None) -> bool:
    return (
        envelope is not None
        and envelope.get("step") == step["step"]
        and envelope.get("attempt") == step["attempts"] + 1
    )
