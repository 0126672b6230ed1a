"""The reply being written: its language, what the brief already told us, and what it promised.

Every sentence comes from the catalogue (``Reply.say``: ``reply.{key}``); a paragraph
writer per intent (``order``, ``shipping``, ...) adds its sentences.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.understanding.entities import order_numbers
from agents.support import catalogue
from agents.support.catalogue import Language


def language_of(value: object) -> Language:
    """The reply's language: English when the brief says so, else the shop's Japanese."""
    return "en" if value == "en" else "ja"


def sentence(lang: Language, text: str) -> str:
    """``text`` as a sentence: in English, with a capital first letter whatever came first."""
    return text[:1].upper() + text[1:] if lang == "en" else text


def as_dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


@dataclass
class Reply:
    """What the writer knows while writing, and what it has already promised."""

    lang: Language
    today: dt.date | None
    asked: frozenset[str]
    agents: frozenset[str]
    order_statuses: dict[str, str] = field(default_factory=dict)
    known_order: str = ""
    named_orders: frozenset[str] = frozenset()
    missing_order: bool = False
    follow_up_promised: bool = False

    @classmethod
    def from_brief(cls, brief: dict[str, Any]) -> Reply:
        statuses, numbers = _orders_seen(brief)
        return cls(
            lang=language_of(brief.get("language")),
            today=fmt.day_of(brief.get("today")),
            asked=frozenset(
                str(intent)
                for intent in [brief.get("intent"), *as_list(brief.get("secondary_intents"))]
            ),
            agents=frozenset(as_dict(brief.get("results"))),
            order_statuses=statuses,
            known_order=numbers[0] if len(set(numbers)) == 1 else "",
            named_orders=frozenset(order_numbers(str(brief.get("inquiry") or ""))),
        )

    @property
    def needs_order_number(self) -> bool:
        """An agent could not tell which order, and nothing else in the brief names one (nor
        did the customer: what they gave is never asked for again)."""
        return self.missing_order and not self.known_order and not self.named_orders

    def say(self, key: str, **fields: object) -> str:
        """The catalogue's ``reply.{key}``, an English sentence starting with a capital."""
        return sentence(self.lang, catalogue.say(self.lang, f"reply.{key}", **fields))

    def say_from(self, key: str, fields: dict[str, object]) -> str:
        """``say`` for one of a family of sentences filled alike: each takes what it uses."""
        return sentence(self.lang, catalogue.say_from(self.lang, f"reply.{key}", fields))

    def has(self, key: str) -> bool:
        return catalogue.has(self.lang, f"reply.{key}")

    def join(self, sentences: list[str]) -> str:
        return ("" if self.lang == "ja" else " ").join(s for s in sentences if s)

    def has_agent(self, agent: str) -> bool:
        return agent in self.agents

    def note_missing_order(self, tools: dict[str, Any]) -> None:
        if not tools:
            self.missing_order = True


def _orders_seen(brief: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Order statuses the brief shows, and the order numbers it names (for vague refusals)."""
    statuses: dict[str, str] = {}
    numbers: list[str] = []
    for envelope in as_dict(brief.get("results")).values():
        data = as_dict(as_dict(envelope).get("data"))
        facts = as_dict(as_dict(data.get("get_order_details")).get("order"))
        if facts.get("number"):
            statuses[str(facts["number"])] = str(facts.get("status") or "")
            numbers.append(str(facts["number"]))
        for tool in ("track_shipment", "check_payment_status"):
            if as_dict(data.get(tool)).get("order_number"):
                numbers.append(str(as_dict(data.get(tool))["order_number"]))
    for item in [*as_list(brief.get("pending_actions")), *as_list(brief.get("action_results"))]:
        number = as_dict(as_dict(item).get("params")).get("order_number")
        if number:
            numbers.append(str(number))
    return statuses, numbers


# Splits after a sentence's end or a line's, keeping every character ("".join gives it back).
_SENTENCE_END = re.compile(r"(?<=[。!?！？\n])|(?<=\.)(?= )")


def said_once(paragraphs: list[str]) -> list[str]:
    """Each sentence once: agents that met the same refusal ("ORD-9999 was not found") or
    the same hand-over give the customer one sentence, not one per agent."""
    seen: set[str] = set()
    kept: list[str] = []
    for paragraph in paragraphs:
        pieces = []
        for piece in _SENTENCE_END.split(paragraph):
            key = piece.strip()
            if key in seen:
                continue
            if key:
                seen.add(key)
            pieces.append(piece)
        text = "".join(pieces).strip()
        if text:
            kept.append(text)
    return kept
