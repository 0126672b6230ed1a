"""Reading an inquiry: the agents it needs, its intents, entities, language and confidence.

The learned router (``router``) decides the agents and weighs the intents; rules decide only
what rules are right for: the entities (order and tracking numbers, dates, amounts), a bare
identifier with no words around it, the dependency an order-related request has on the Order
agent, and the injection flag. Each agent works on the likeliest intent its card declares.
"""

from __future__ import annotations

import datetime as dt
from typing import Final

from agents.contract.cards import DEFAULT_INTENT, agent_for_skill
from agents.contract.schemas import AGENT_NAMES, AgentName, Classification, Entities, Intent
from agents.providers.offline.understanding.complaint import complaint_suspected
from agents.providers.offline.understanding.described import describe
from agents.providers.offline.understanding.entities import extract_entities
from agents.providers.offline.understanding.faq import problems_in
from agents.providers.offline.understanding.injection import injection_suspected, without_injection
from agents.providers.offline.understanding.requests import missed_requests, split_requests
from agents.providers.offline.understanding.router import Reading, read
from agents.providers.offline.understanding.typos import prepare
from agents.support.text import detect_language, language_evident
from agents.support.vocabulary import ACTION_SKILLS

FALLBACK: Final[Intent] = "answer_general_question"
# Another routed agent's likeliest intent is taken from this probability; a second intent of
# an agent already working only when the model is this sure of it on its own.
ALSO_AT: Final = 0.2
SECONDARY_AT: Final = 0.5
# Below this, nothing the model read is a request (the reading is a guess).
OWN_INTENT_AT: Final = 0.45


def classify_text(text: str, *, today: dt.date | None = None) -> Classification:
    """Read an inquiry: the intents, the agents they need, entities, language, confidence."""
    entities = extract_entities(text, today=today)
    flagged = injection_suspected(prepare(text))
    # An instruction to the system says nothing of what the customer wants: read the rest.
    asked = without_injection(prepare(text)) if flagged else text
    reading = read(asked) if language_evident(text) else None
    agents = routed_agents(reading, entities)
    intents = chosen_intents(reading, agents, entities)
    missed = missed_requests(prepare(asked), intents) if reading else []
    return Classification(
        agents=with_agents_for(missed, agents),
        intent=intents[0],
        secondary_intents=[*intents[1:], *missed],
        entities=entities,
        requests=split_requests(prepare(asked), [*intents, *missed]),
        language=detect_language(text),
        confidence=confidence(reading, agents, intents[0], concrete=describes_a_problem(text)),
        injection_suspected=flagged,
        complaint=complaint_suspected(prepare(text)),
    )


def with_agents_for(intents: list[Intent], agents: list[AgentName]) -> list[AgentName]:
    """``agents`` and those the ``intents`` need; a request about an order named in the
    message needs the Order agent too (to find it)."""
    if not intents:
        return agents
    chosen = {*agents, "order"} | {agent for i in intents if (agent := agent_for_skill(i))}
    return [a for a in AGENT_NAMES if a in chosen]


def routed_agents(reading: Reading | None, entities: Entities) -> list[AgentName]:
    """The agents the router chose, or what a bare identifier asks for, or the FAQ."""
    chosen = set(reading.agents) if reading else set()
    if not chosen:
        chosen = set(implied_agents(entities)) or {"faq"}
    if "shipping" in chosen or ("payment" in chosen and entities.order_numbers):
        chosen.add("order")  # a parcel, or a payment on a named order: found by the Order agent
    return [a for a in AGENT_NAMES if a in chosen]


def implied_agents(entities: Entities) -> tuple[AgentName, ...]:
    """With no words at all, a pasted number still says what is wanted: a parcel is tracked,
    an order looked up (a customer pasting "4821-7730-1195" is not asking the FAQ)."""
    if entities.tracking_numbers:
        return ("order", "shipping")
    if entities.order_numbers:
        return ("order",)
    return ()


def chosen_intents(
    reading: Reading | None, agents: list[AgentName], entities: Entities
) -> list[Intent]:
    """The routed agents' intents that are real readings (at least ``ALSO_AT``), the main one
    first: each agent's likeliest, then any other the model is sure of on its own ("cancel
    ORD-1001 and what's in ORD-1002?"). An agent with no real reading works on its card's
    default, a look-up: an agent brought in to find an order never acts on a stray guess, and
    a second request to act is only taken when the model is sure of it (the main one, when
    unsure, is put back to the customer: ``agents.team.graph.confidence``)."""
    if reading is None:
        return [_implied_intent(entities)]
    probability = reading.intent_probabilities
    owned = sorted(
        (i for i in probability if agent_for_skill(i) in agents and probability[i] >= ALSO_AT),
        key=lambda intent: _rank(intent, reading),
        reverse=True,
    )
    if not owned:  # no real reading: each agent looks, nobody acts on a guess
        return [DEFAULT_INTENT[agents[0]]]
    chosen = owned[:1]
    for agent in agents:
        best = next((i for i in owned if agent_for_skill(i) == agent), None)
        if best and best not in chosen and _sure_enough(best, reading):
            chosen.append(best)
    chosen += [i for i in owned if probability[i] >= SECONDARY_AT and i not in chosen]
    return chosen


def _sure_enough(intent: Intent, reading: Reading) -> bool:
    """A second request to act is taken only when one clause of the message says it clearly."""
    return (
        intent not in ACTION_SKILLS or reading.clause_intent_probabilities[intent] >= SECONDARY_AT
    )


def _rank(intent: Intent, reading: Reading) -> tuple[bool, float]:
    """A request about the customer's own orders leads over a general question or a request
    for a person asked beside it: in "where is ORD-1002? also, do you gift-wrap?" the parcel
    is what they wait for."""
    return agent_for_skill(intent) != "faq", reading.intent_probabilities[intent]


def _implied_intent(entities: Entities) -> Intent:
    if entities.tracking_numbers:
        return "track_shipment"
    if entities.order_numbers:
        return "get_order_details"
    return FALLBACK


# How sure a look-up is that the router did not read, for a message that states a concrete
# problem ("the fan arrived broken", "it still hasn't come"): finding the order is the answer.
LOOK_UP_FOR_A_PROBLEM: Final = 0.5


def confidence(
    reading: Reading | None, agents: list[AgentName], main: Intent, *, concrete: bool = False
) -> float:
    """How sure the reading is: the main intent's probability, held down by the least
    certain routing decision (an agent near the threshold either way).

    The main intent counts as clearly as the one sentence that says it most clearly: in "the
    driver gave up, my box is at the depot again. Not happy. Can you make up for it?" the story
    and the sigh blur the whole, not the question (``_sure_enough`` reads a second one alike).
    A fallback look-up for a message stating a concrete problem is a sound step, not a
    guess."""
    if reading is None:
        return 0.9 if main != FALLBACK else 0.2
    decisions = [
        p if agent in agents else 1.0 - p for agent, p in reading.agent_probabilities.items()
    ]
    said = max(reading.intent_probabilities[main], reading.clause_intent_probabilities[main])
    sure = round(min(said, *decisions), 2)
    if concrete and main == DEFAULT_INTENT["order"]:
        return max(sure, LOOK_UP_FOR_A_PROBLEM)
    return sure


def describes_a_problem(text: str) -> bool:
    """Whether the text states something concrete about an order: the state it is in or an
    item in trouble (``described``), or a problem the shop knows (damaged, not received, ...)."""
    return describe(text).says_anything or bool(problems_in(text))


def has_own_intent(text: str) -> bool:
    """Whether the text asks for something itself, rather than only naming an order, a
    number, a yes or a thank-you (an answer to the shop's question, or none)."""
    if not language_evident(text):
        return False
    probabilities = read(text).intent_probabilities
    requests = [p for intent, p in probabilities.items() if intent != FALLBACK]
    return max(requests) >= OWN_INTENT_AT
