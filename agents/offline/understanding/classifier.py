"""Reading an inquiry: the agents it needs, its intents, entities, language and confidence.

The learned router (``router``) decides the agents and weighs the intents; rules decide only
what rules are right for: the entities (order and tracking numbers, dates, amounts), a bare
identifier with no words around it, the dependency an order-related request has on the Order
agent, and the injection flag. Each agent works on the likeliest intent its card declares.
"""

from __future__ import annotations

import datetime as dt
from typing import Final

from agents.cards import agent_for_skill
from agents.graph.schemas import AGENT_NAMES, AgentName, Classification, Entities, Intent
from agents.offline.understanding.entities import extract_entities
from agents.offline.understanding.injection import injection_suspected
from agents.offline.understanding.router import Reading, read
from agents.offline.understanding.text import detect_language, language_evident, prepare

FALLBACK: Final[Intent] = "answer_general_question"
# A second request is only taken when the model is this sure of it on its own.
SECONDARY_AT: Final = 0.5
# Below this, nothing the model read is a request (the reading is a guess).
OWN_INTENT_AT: Final = 0.45


def classify_text(text: str, *, today: dt.date | None = None) -> Classification:
    """Read an inquiry: the intents, the agents they need, entities, language, confidence."""
    entities = extract_entities(text, today=today)
    reading = read(text) if language_evident(text) else None
    agents = routed_agents(reading, entities)
    intents = chosen_intents(reading, agents, entities)
    return Classification(
        agents=agents,
        intent=intents[0],
        secondary_intents=intents[1:],
        entities=entities,
        language=detect_language(text),
        confidence=confidence(reading, agents, intents[0]),
        injection_suspected=injection_suspected(prepare(text)),
    )


def routed_agents(reading: Reading | None, entities: Entities) -> list[AgentName]:
    """The agents the router chose, or what a bare identifier asks for, or the FAQ."""
    chosen = set(reading.agents) if reading else set()
    if not chosen:
        chosen = set(implied_agents(entities)) or {"faq"}
    if chosen & {"shipping", "payment"} and (entities.order_numbers or entities.tracking_numbers):
        chosen.add("order")  # a named order is found by the Order agent first
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
    """Each routed agent's likeliest intent, likeliest first, then any other intent of theirs
    the model is sure of on its own ("cancel ORD-1001 and tell me what's in ORD-1002")."""
    if reading is None:
        return [_implied_intent(entities)]
    ranked = sorted(
        reading.intent_probabilities.items(), key=lambda item: item[1], reverse=True
    )
    owned = [(intent, p) for intent, p in ranked if agent_for_skill(intent) in agents]
    best_per_agent: dict[str, Intent] = {}
    for intent, _ in owned:
        best_per_agent.setdefault(str(agent_for_skill(intent)), intent)
    chosen = [intent for intent, _ in owned if intent in best_per_agent.values()]
    chosen += [intent for intent, p in owned if p >= SECONDARY_AT and intent not in chosen]
    chosen.sort(key=lambda intent: reading.intent_probabilities[intent], reverse=True)
    return chosen or [FALLBACK]


def _implied_intent(entities: Entities) -> Intent:
    if entities.tracking_numbers:
        return "track_shipment"
    if entities.order_numbers:
        return "get_order_details"
    return FALLBACK


def confidence(reading: Reading | None, agents: list[AgentName], main: Intent) -> float:
    """How sure the reading is: the main intent's probability, held down by the least
    certain routing decision (an agent near the threshold either way)."""
    if reading is None:
        return 0.9 if main != FALLBACK else 0.2
    decisions = [
        p if agent in agents else 1.0 - p for agent, p in reading.agent_probabilities.items()
    ]
    return round(min(reading.intent_probabilities[main], *decisions), 2)


def has_own_intent(text: str) -> bool:
    """Whether the text asks for something itself, rather than only naming an order, a
    number or a yes (an answer to the shop's question)."""
    if not language_evident(text):
        return False
    probabilities = read(text).intent_probabilities
    return max(probabilities.values()) >= OWN_INTENT_AT
