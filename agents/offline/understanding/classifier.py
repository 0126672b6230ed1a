"""Scoring an inquiry against the cues, choosing its intents and the agents they need.

Every cue that matches a sentence adds its weight to its intent (each cue counts once per
inquiry). The intents at or above ``SELECT_MIN`` are selected; the main one is the most
decisive (an explicit request beats a question, which beats a mere hint), then a shop
transaction over a general FAQ topic (in "how do I use a coupon? and when will ORD-1002
arrive?" the order is what the customer is waiting for), then the higher score.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import get_args

from agents.graph.schemas import AGENT_NAMES, AgentName, Classification, Entities, Intent
from agents.offline.understanding.cues_en import CUES_EN
from agents.offline.understanding.cues_ja import CUES_JA
from agents.offline.understanding.entities import extract_entities
from agents.offline.understanding.lexicon import (
    AGENTS_BY_INTENT,
    ANCHORS,
    FAQ_TOPIC_INTENTS,
    INJECTION,
    SHARED_CUES,
    Cue,
    Level,
)
from agents.offline.understanding.text import detect_language, prepare, split_sentences
from agents.offline.understanding.unsupported import FACTS_FOR, MISREAD_AS, unsupported_request

CUES: tuple[Cue, ...] = CUES_JA + CUES_EN + SHARED_CUES
INTENTS: tuple[Intent, ...] = get_args(Intent)
NEVER_DAMPED: frozenset[Intent] = FAQ_TOPIC_INTENTS | {"contact_human"}
# What a transactional cue is worth in a sentence that asks about a topic in general.
DAMPING = 0.2
SELECT_MIN = 1.5
FALLBACK: Intent = "answer_general_question"


@dataclass
class IntentScore:
    score: float = 0.0
    level: Level = Level.VETO


@dataclass(frozen=True)
class _Match:
    cue: Cue
    weight: float
    level: Level


def classify_text(text: str, *, today: dt.date | None = None) -> Classification:
    """Read an inquiry: the intents, the agents they need, entities, language, confidence."""
    prepared = prepare(text)
    scores = score_intents(prepared)
    cued = choose_intents(scores)
    entities = extract_entities(text, today=today)
    chosen = cued or implied_by(entities) or [FALLBACK]
    unsupported = unsupported_request(prepared)
    if unsupported:  # a person handles it: no circular answer from what it resembles
        kept = [i for i in chosen if i not in MISREAD_AS[unsupported]]
        chosen = kept or list(FACTS_FOR[unsupported])
    return Classification(
        agents=agents_for(chosen),
        intent=chosen[0],
        secondary_intents=chosen[1:],
        entities=entities,
        language=detect_language(text),
        confidence=confidence(scores, cued),
        injection_suspected=injection_suspected(prepared),
        unsupported_request=unsupported,
    )


def implied_by(entities: Entities) -> list[Intent]:
    """With no cue at all, a bare number still says what is wanted: a parcel is tracked,
    an order looked up (a customer pasting "4821-7730-1195" is not asking the FAQ)."""
    if entities.tracking_numbers:
        return ["track_shipment"]
    if entities.order_numbers:
        return ["get_order_details"]
    return []


def score_intents(prepared: str) -> dict[Intent, IntentScore]:
    """Sum the strongest showing of each cue over the sentences of an already prepared text."""
    strongest: dict[Cue, _Match] = {}
    for sentence in split_sentences(prepared):
        for match in _sentence_matches(sentence):
            previous = strongest.get(match.cue)
            if previous is None or abs(match.weight) > abs(previous.weight):
                strongest[match.cue] = match
    scores: dict[Intent, IntentScore] = {}
    for match in strongest.values():
        entry = scores.setdefault(match.cue.intent, IntentScore())
        entry.score += match.weight
        if match.weight > 0:
            entry.level = max(entry.level, match.level)
    return scores


def _sentence_matches(sentence: str) -> list[_Match]:
    matched = [cue for cue in CUES if cue.pattern.search(sentence)]
    general = any(cue.faq_topic for cue in matched) and not is_anchored(sentence)
    return [_weigh(cue, damped=general) for cue in matched]


def _weigh(cue: Cue, *, damped: bool) -> _Match:
    if damped and cue.level > Level.VETO and cue.intent not in NEVER_DAMPED:
        return _Match(cue, cue.weight * DAMPING, Level.HINT)
    return _Match(cue, cue.weight, cue.level)


def is_anchored(sentence: str) -> bool:
    """Whether the sentence points at the customer's own order or asks to act."""
    return any(anchor.search(sentence) for anchor in ANCHORS)


def choose_intents(scores: dict[Intent, IntentScore]) -> list[Intent]:
    """The selected intents, main first; a lone weak cue is still better than nothing."""
    selected = [intent for intent, entry in scores.items() if entry.score >= SELECT_MIN]
    if not selected:
        positive = [intent for intent, entry in scores.items() if entry.score > 0]
        selected = sorted(positive, key=lambda intent: _rank(intent, scores[intent]))[-1:]
    ranked = sorted(selected, key=lambda intent: _rank(intent, scores[intent]), reverse=True)
    return ranked[:1] + [
        intent for intent in ranked[1:] if not _mere_echo(intent, scores[intent], ranked[0])
    ]


def _mere_echo(intent: Intent, entry: IntentScore, main: Intent) -> bool:
    """A hint that adds no agent is context, not another request: in "返金の手続きは終わって
    いますか" the word 返金 is what the status question is about, not a refund request."""
    return entry.level <= Level.HINT and set(AGENTS_BY_INTENT[intent]) <= set(
        AGENTS_BY_INTENT[main]
    )


def _rank(intent: Intent, entry: IntentScore) -> tuple[int, int, float, int]:
    transactional = int(intent not in FAQ_TOPIC_INTENTS)
    return (entry.level, transactional, entry.score, -INTENTS.index(intent))


def agents_for(intents: list[Intent]) -> list[AgentName]:
    """The agents the intents need, in the canonical order order, shipping, payment, faq."""
    needed = {agent for intent in intents for agent in AGENTS_BY_INTENT[intent]}
    return [agent for agent in AGENT_NAMES if agent in needed]


def confidence(scores: dict[Intent, IntentScore], chosen: list[Intent]) -> float:
    """High when the main intent has strong evidence and no rival of the same standing."""
    if not chosen:
        return 0.2
    main = scores[chosen[0]]
    strength = min(1.0, main.score / 3.5)
    rivals = [
        entry.score
        for intent, entry in scores.items()
        if intent != chosen[0] and entry.level >= main.level and entry.score > 0
    ]
    margin = max(0.0, (main.score - max(rivals, default=0.0)) / main.score)
    return round(0.3 + 0.65 * strength * (0.4 + 0.6 * margin), 2)


def injection_suspected(prepared: str) -> bool:
    """Whether the text tries to instruct the system or claims special authority."""
    return any(pattern.search(prepared) for pattern in INJECTION)
