"""Figures of a run: pass^k as tau-bench reports it, per category and overall. Pure functions.

pass^k is the chance that k attempts at a case all pass: for a case tried n times with c
passes, C(c, k) / C(n, k), averaged over the cases (tau-bench's estimator). With n = k
attempts, pass^k is the share of cases whose every attempt passed; pass^1 is the plain
pass rate. A model that passes a case half the time scores 0.5 at pass^1 and 0.25 at pass^2.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb


@dataclass(frozen=True)
class CaseTally:
    """One case's attempts: how many, how many passed, and its category."""

    category: str
    attempts: int
    passed: int


def pass_hat(passed: int, attempts: int, k: int) -> float:
    """The chance that ``k`` of the ``attempts`` drawn at random all passed."""
    if k > attempts:
        raise ValueError(f"pass^{k} needs at least {k} attempts, not {attempts}")
    return comb(passed, k) / comb(attempts, k)


def pass_at(tallies: Sequence[CaseTally], k: int) -> dict[str, float]:
    """pass^1 .. pass^k over ``tallies`` (keys are strings, as stored in JSON)."""
    if not tallies:
        return {}
    return {
        str(j): round(sum(pass_hat(t.passed, t.attempts, j) for t in tallies) / len(tallies), 4)
        for j in range(1, k + 1)
    }


def by_category(tallies: Iterable[CaseTally], k: int) -> dict[str, dict[str, object]]:
    """Per category: cases, cases passed (every attempt), and pass^1..pass^k."""
    groups: dict[str, list[CaseTally]] = {}
    for tally in tallies:
        groups.setdefault(tally.category, []).append(tally)
    return {
        category: {
            "cases": len(rows),
            "passed": sum(t.passed == t.attempts for t in rows),
            "pass_at": pass_at(rows, k),
        }
        for category, rows in sorted(groups.items())
    }


def agreement(verdicts: Iterable[bool | None]) -> float | None:
    """The share of counted verdicts (not None) that agree; None when none counted."""
    counted = [v for v in verdicts if v is not None]
    return round(sum(counted) / len(counted), 4) if counted else None
