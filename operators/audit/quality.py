"""Measured AI quality: reviewed accuracy with its 95% Wilson interval, and what it says about
the AI's autonomy for an intent (issue 25, part 5).

Pure functions, so the rule is table-tested: the dashboard counts the reviews in SQL
(``support.review_accuracy``) and reads the figures and the recommendation from here. The
Wilson interval rather than the normal one: it stays inside [0, 1] and is honest for the few
reviews a rare intent gets, where "10 of 10 correct" must not read as a certain 100%.
"""

from __future__ import annotations

import dataclasses
import math
from enum import StrEnum
from typing import Final

Z_95: Final = 1.959963984540054  # the standard normal quantile of 97.5%
# An intent's measured accuracy supports more autonomy when the interval's lower bound is at
# least 95% over at least 50 reviews; it needs less when the accuracy is below 85%.
MORE_AUTONOMY_LOWER_BOUND: Final = 0.95
MORE_AUTONOMY_MIN_REVIEWS: Final = 50
LESS_AUTONOMY_BELOW: Final = 0.85


def wilson_interval(correct: int, reviewed: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval of ``correct`` out of ``reviewed`` (``None`` with no review)."""
    if reviewed <= 0:
        return None
    if not 0 <= correct <= reviewed:
        raise ValueError(f"correct ({correct}) must be between 0 and reviewed ({reviewed})")
    p = correct / reviewed
    z2 = z * z
    centre = (p + z2 / (2 * reviewed)) / (1 + z2 / reviewed)
    half = (z / (1 + z2 / reviewed)) * math.sqrt(
        p * (1 - p) / reviewed + z2 / (4 * reviewed * reviewed)
    )
    return max(0.0, centre - half), min(1.0, centre + half)


class Autonomy(StrEnum):
    """What the measured accuracy says: a manager decides (the autonomy settings are theirs)."""

    MORE = "more"
    LESS = "less"
    KEEP = ""


def autonomy_recommendation(correct: int, reviewed: int) -> Autonomy:
    """More autonomy once the interval's lower bound is >= 95% over >= 50 reviews; less when
    the accuracy is below 85%; otherwise nothing to say yet."""
    interval = wilson_interval(correct, reviewed)
    if interval is None:
        return Autonomy.KEEP
    if reviewed >= MORE_AUTONOMY_MIN_REVIEWS and interval[0] >= MORE_AUTONOMY_LOWER_BOUND:
        return Autonomy.MORE
    if correct / reviewed < LESS_AUTONOMY_BELOW:
        return Autonomy.LESS
    return Autonomy.KEEP


@dataclasses.dataclass(frozen=True)
class Accuracy:
    """Reviewed answers of one intent (``""``: overall) and how many were correct."""

    intent: str
    reviewed: int
    correct: int

    @property
    def wrong(self) -> int:
        return self.reviewed - self.correct

    @property
    def share(self) -> float | None:
        return self.correct / self.reviewed if self.reviewed else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.correct, self.reviewed)

    @property
    def recommendation(self) -> Autonomy:
        return autonomy_recommendation(self.correct, self.reviewed)


def overall(per_intent: list[Accuracy]) -> Accuracy:
    """Every intent's reviews together."""
    return Accuracy(
        intent="",
        reviewed=sum(a.reviewed for a in per_intent),
        correct=sum(a.correct for a in per_intent),
    )


@dataclasses.dataclass(frozen=True)
class CustomerWord:
    """The AI answers of one intent (``""``: overall) whose customer said whether it solved
    their problem (issue 25, part 3): how many did, and how many said it did."""

    intent: str
    answered: int
    solved: int

    @property
    def not_solved(self) -> int:
        return self.answered - self.solved

    @property
    def solved_share(self) -> float | None:
        return self.solved / self.answered if self.answered else None

    @property
    def not_solved_share(self) -> float | None:
        return self.not_solved / self.answered if self.answered else None


def customers_overall(per_intent: list[CustomerWord]) -> CustomerWord:
    """Every intent's answers together."""
    return CustomerWord(
        intent="",
        answered=sum(w.answered for w in per_intent),
        solved=sum(w.solved for w in per_intent),
    )
