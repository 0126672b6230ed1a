"""The agent cards (seed 000) as data: the routing table and the dependency order come from here.

``cards.json`` holds the five cards as the design documents define them; this module reads
them once and answers the questions the graph asks: which specialist owns a skill, which
specialists must finish before another may start, and in which waves they can run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from agents.contract.schemas import AGENT_NAMES, AgentName

CARDS_PATH = Path(__file__).with_name("cards.json")


@dataclass(frozen=True)
class AgentCard:
    id: str
    agent: AgentName | None  # None for the supervisor
    name: str
    description: str
    skill_ids: tuple[str, ...]
    depends_on: tuple[AgentName, ...]
    raw: dict[str, Any]


def _agent_of(card_id: str) -> AgentName | None:
    short = card_id.removesuffix("-agent")
    return short if short in AGENT_NAMES else None  # type: ignore[return-value]


@cache
def cards_document() -> dict[str, Any]:
    """The cards as served at ``/api/v1/agents``."""
    document: dict[str, Any] = json.loads(CARDS_PATH.read_text(encoding="utf-8"))
    return document


@cache
def specialist_cards() -> dict[AgentName, AgentCard]:
    cards: dict[AgentName, AgentCard] = {}
    for raw in cards_document()["cards"]:
        agent = _agent_of(raw["id"])
        if agent is None:
            continue
        deps = tuple(a for a in (_agent_of(d) for d in raw.get("dependencies", [])) if a)
        cards[agent] = AgentCard(
            id=raw["id"],
            agent=agent,
            name=raw["name"],
            description=raw["description"],
            skill_ids=tuple(skill["id"] for skill in raw["skills"]),
            depends_on=deps,
            raw=raw,
        )
    return cards


def route_contract_version() -> str:
    return str(cards_document()["route_contract_version"])


def agent_for_skill(skill_id: str) -> AgentName | None:
    """The specialist that declares ``skill_id``, or None when no card does."""
    for agent, card in specialist_cards().items():
        if skill_id in card.skill_ids:
            return agent
    return None


def dependencies(agent: AgentName) -> tuple[AgentName, ...]:
    return specialist_cards()[agent].depends_on


def execution_waves(agents: list[AgentName]) -> list[list[AgentName]]:
    """Group the needed specialists into waves: each wave only depends on earlier ones.

    A dependency that the inquiry does not need is simply not waited for, so an inquiry
    needing only shipping still runs shipping (it looks its order up itself).
    """
    remaining = [a for a in AGENT_NAMES if a in agents]
    done: set[AgentName] = set()
    waves: list[list[AgentName]] = []
    while remaining:
        wave = [a for a in remaining if all(d in done or d not in agents for d in dependencies(a))]
        if not wave:  # a cycle in the cards: run the rest one by one rather than never
            wave = remaining[:1]
        waves.append(wave)
        done.update(wave)
        remaining = [a for a in remaining if a not in wave]
    return waves


# What a specialist does when none of the inquiry's intents is its own: look, never act.
DEFAULT_INTENT: dict[AgentName, str] = {
    "order": "get_order_details",
    "shipping": "track_shipment",
    "payment": "check_payment_status",
    "faq": "search_faq",
}
