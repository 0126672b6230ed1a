"""The routing measure: F1 per agent over the agent sets, their mean, the exact share."""

from __future__ import annotations

import pytest

from agents.providers.offline.understanding.scoring import routing_score


def test_each_label_of_a_multi_label_answer_counts_for_its_agent() -> None:
    score = routing_score(
        gold=[["order", "shipping"], ["faq"]],
        predicted=[["order"], ["faq", "payment"]],
    )

    assert score.per_agent == {"order": 1.0, "shipping": 0.0, "payment": 0.0, "faq": 1.0}
    assert score.macro_f1 == 0.5
    assert score.exact == 0.0


def test_a_perfect_routing_scores_one() -> None:
    score = routing_score(gold=[["order", "payment"]], predicted=[["payment", "order"]])

    assert (score.macro_f1, score.exact) == (1.0, 1.0)


def test_gold_and_predicted_must_pair_up() -> None:
    with pytest.raises(ValueError, match="one entry per message"):
        routing_score(gold=[["faq"]], predicted=[])
