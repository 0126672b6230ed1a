"""The learned router: which specialists a message needs and what it asks of them.

A linear model over ``features.features`` (one logistic regression per agent and per intent,
trained by ``manage.py train_router`` on ``examples/``) shipped as ``router_model.json.gz``.
Reading it needs nothing but the standard library, so a worker answers without loading
scikit-learn. The agents are read directly, not derived from the intents: a card declined
at checkout needs the Payment agent and no order.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final

from django.conf import settings

from agents.contract.cards import agent_for_skill
from agents.contract.schemas import AGENT_NAMES, AgentName, Intent
from agents.providers.offline.understanding.features import features
from agents.providers.offline.understanding.kana import kana_only_as_hiragana

MODEL_PATH: Final = Path(__file__).with_name("router_model.json.gz")
MODEL_FORMAT: Final = 1


@dataclass(frozen=True)
class RouterModel:
    """A trained model: a weight row per feature, one column per label (agents, then intents)."""

    labels: tuple[str, ...]
    idf: dict[str, float]
    weights: dict[str, list[float]]
    bias: list[float]
    agent_threshold: float
    meta: dict[str, Any]

    def probabilities(self, text: str) -> dict[str, float]:
        """Each label's probability for ``text``: TF-IDF (sublinear, L2) times the weights."""
        counts = Counter(f for f in features(text) if f in self.idf)
        values = {f: (1.0 + math.log(n)) * self.idf[f] for f, n in counts.items()}
        norm = math.sqrt(sum(v * v for v in values.values())) or 1.0
        scores = list(self.bias)
        for feature, value in values.items():
            row = self.weights.get(feature)
            if row is not None:
                share = value / norm
                for index, weight in enumerate(row):
                    scores[index] += share * weight
        return {label: _sigmoid(score) for label, score in zip(self.labels, scores, strict=True)}

    def as_json(self) -> dict[str, Any]:
        return {
            "format": MODEL_FORMAT,
            "meta": self.meta,
            "labels": list(self.labels),
            "agent_threshold": self.agent_threshold,
            "bias": self.bias,
            "idf": self.idf,
            "weights": self.weights,
        }

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> RouterModel:
        if document.get("format") != MODEL_FORMAT:
            raise ValueError(
                f"router model format {document.get('format')!r} is not {MODEL_FORMAT}"
            )
        return cls(
            labels=tuple(document["labels"]),
            idf=document["idf"],
            weights=document["weights"],
            bias=document["bias"],
            agent_threshold=float(document["agent_threshold"]),
            meta=document.get("meta", {}),
        )


def _sigmoid(score: float) -> float:
    if score < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score))


def agent_label(agent: str) -> str:
    return f"agent:{agent}"


def intent_label(intent: str) -> str:
    return f"intent:{intent}"


def model_path() -> Path:
    """The router file this process reads: ``NETSHOP_ROUTER_MODEL`` (a candidate's retrained
    router, say), else the one in the repository."""
    return Path(settings.NETSHOP_ROUTER_MODEL) if settings.NETSHOP_ROUTER_MODEL else MODEL_PATH


@cache
def shipped_model() -> RouterModel:
    """The model this process reads (``model_path``), read once per process."""
    return RouterModel.from_json(json.loads(gzip.decompress(model_path().read_bytes())))


def write_model(model: RouterModel, path: Path = MODEL_PATH) -> None:
    """Write ``model`` where ``shipped_model`` reads it (gzip-compressed JSON, reproducible)."""
    document = json.dumps(model.as_json(), ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(gzip.compress(document.encode("utf-8"), mtime=0))


@dataclass(frozen=True)
class Reading:
    """What the router read: the agents over the threshold and every intent's probability.

    An agent's probability is the higher of its own and its likeliest intent's: the two
    readings back each other ("荷物はどこですか" is a tracking question even where the
    shipping agent's own reading hesitates)."""

    agents: list[AgentName]
    agent_probabilities: dict[AgentName, float]
    intent_probabilities: dict[Intent, float]
    # Each intent's strongest showing in any one clause: "refund ORD-1003 and redeliver
    # ORD-1004" asks both as clearly as each clause says it, though the whole blurs them.
    clause_intent_probabilities: dict[Intent, float]


# Where a message's requests part: sentences, and clauses joined by "and also" / 「あと」.
_CLAUSE_BREAK: Final = re.compile(
    r"[。！？!?\n;；]+|(?<=[.])\s+|,?\s+(?:and|also|plus|then)\s+(?=(?:also\s+)?(?:please\s+)?"
    r"(?:can|could|would|will|please|i|refund|cancel|redeliver|return|exchange|change|send|"
    r"track|where|when|what|how|tell|check|issue|give|get|let)\b)|(?:あと|それと|それから|"
    r"ついでに|また|さらに)[、,]?",
    re.IGNORECASE,
)


def clauses(text: str) -> list[str]:
    """The parts of a message that may each ask something (two words or more each)."""
    parts = [part.strip() for part in _CLAUSE_BREAK.split(text) if part and part.strip()]
    return [part for part in parts if len(part) >= 4]


@lru_cache(maxsize=512)
def _shipped_probabilities(text: str) -> dict[str, float]:
    """The shipped model's reading of ``text``, once: the classifier, the follow-up reader and
    the request splitter read the same message and its clauses. Never mutated by readers."""
    return shipped_model().probabilities(text)


def _probabilities(text: str, model: RouterModel | None) -> dict[str, float]:
    text = kana_only_as_hiragana(text)  # "ﾄﾄﾞｶﾅｲ" is read as the router learned "とどかない"
    return model.probabilities(text) if model is not None else _shipped_probabilities(text)


def read(text: str, model: RouterModel | None = None) -> Reading:
    probabilities = _probabilities(text, model)
    threshold = (model or shipped_model()).agent_threshold
    intents = _intents(probabilities)
    by_agent = {a: probabilities[agent_label(a)] for a in AGENT_NAMES}
    for intent, p in intents.items():  # a clear intent brings the agent that owns it
        owner = agent_for_skill(intent)
        if owner is not None:
            by_agent[owner] = max(by_agent[owner], p)
    chosen = [a for a in AGENT_NAMES if by_agent[a] >= threshold]
    strongest = dict(intents)
    parts = clauses(text)
    for part in parts if len(parts) > 1 else ():
        for intent, p in _intents(_probabilities(part, model)).items():
            strongest[intent] = max(strongest[intent], p)
    return Reading(
        agents=chosen,
        agent_probabilities=by_agent,
        intent_probabilities=intents,
        clause_intent_probabilities=strongest,
    )


def intent_probabilities(text: str, model: RouterModel | None = None) -> dict[Intent, float]:
    """Each intent's probability for ``text`` alone (a clause or a part of one)."""
    return _intents(_probabilities(text, model))


def _intents(probabilities: dict[str, float]) -> dict[Intent, float]:
    return {
        label.removeprefix("intent:"): p
        for label, p in probabilities.items()
        if label.startswith("intent:")
    }
