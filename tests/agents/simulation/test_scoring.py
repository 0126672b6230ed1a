"""pass^k as tau-bench reports it: the chance that k attempts at a case all pass."""

from __future__ import annotations

import pytest

from agents.simulation.scoring import CaseTally, agreement, by_category, pass_at, pass_hat


def test_pass_hat_is_the_share_of_k_subsets_of_attempts_that_all_passed() -> None:
    assert pass_hat(2, 4, 1) == 0.5
    assert pass_hat(2, 4, 2) == pytest.approx(1 / 6)
    assert pass_hat(4, 4, 4) == 1.0
    assert pass_hat(3, 4, 4) == 0.0


def test_pass_at_averages_over_cases_and_falls_as_k_grows() -> None:
    tallies = [CaseTally("refund", 3, 3), CaseTally("refund", 3, 2), CaseTally("faq", 3, 0)]

    assert pass_at(tallies, 3) == {"1": 0.5556, "2": 0.4444, "3": 0.3333}
    assert by_category(tallies, 3) == {
        "faq": {"cases": 1, "passed": 0, "pass_at": {"1": 0.0, "2": 0.0, "3": 0.0}},
        "refund": {"cases": 2, "passed": 1, "pass_at": {"1": 0.8333, "2": 0.6667, "3": 0.5}},
    }


def test_k_above_the_attempts_is_refused() -> None:
    with pytest.raises(ValueError, match="pass\\^3 needs at least 3 attempts"):
        pass_hat(1, 2, 3)


def test_agreement_counts_only_conversations_with_a_decision() -> None:
    assert agreement([True, False, None, True]) == 0.6667
    assert agreement([None]) is None
