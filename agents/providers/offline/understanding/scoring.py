"""How a router is scored: F1 per agent over the sets it routes to, and their mean.

The measure the issue sets (macro-F1 over the four agents, and the share of messages whose
agent set is exactly right), shared by cross-validation and the external check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agents.contract.schemas import AGENT_NAMES


@dataclass(frozen=True)
class RoutingScore:
    per_agent: dict[str, float]
    macro_f1: float
    exact: float
    count: int

    def as_dict(self) -> dict[str, object]:
        return {
            "count": self.count,
            "macro_f1": round(self.macro_f1, 3),
            "exact": round(self.exact, 3),
            "per_agent": {agent: round(f1, 3) for agent, f1 in self.per_agent.items()},
        }


def f1(true_positive: int, false_positive: int, false_negative: int) -> float:
    denominator = 2 * true_positive + false_positive + false_negative
    return 2 * true_positive / denominator if denominator else 1.0


def routing_score(
    gold: Sequence[Sequence[str]], predicted: Sequence[Sequence[str]]
) -> RoutingScore:
    """Score predicted agent sets against the gold ones, message by message."""
    if len(gold) != len(predicted):
        raise ValueError("gold and predicted must have one entry per message")
    per_agent: dict[str, float] = {}
    for agent in AGENT_NAMES:
        tp = sum(agent in g and agent in p for g, p in zip(gold, predicted, strict=True))
        fp = sum(agent not in g and agent in p for g, p in zip(gold, predicted, strict=True))
        fn = sum(agent in g and agent not in p for g, p in zip(gold, predicted, strict=True))
        per_agent[agent] = f1(tp, fp, fn)
    exact = sum(set(g) == set(p) for g, p in zip(gold, predicted, strict=True))
    count = len(gold)
    return RoutingScore(
        per_agent=per_agent,
        macro_f1=sum(per_agent.values()) / len(per_agent),
        exact=exact / count if count else 1.0,
        count=count,
    )
