"""Training and cross-validation: reproducible folds, a held-out score worth shipping."""

from __future__ import annotations

from collections import Counter

from agents.providers.offline.understanding.examples import load_examples
from agents.providers.offline.understanding.training import THRESHOLDS, cross_validate, folds_of


def test_folds_are_balanced_and_reproducible() -> None:
    first = folds_of(103, 5, seed=13)

    assert first == folds_of(103, 5, seed=13)
    assert first != folds_of(103, 5, seed=14)
    assert sorted(Counter(first).values()) == [20, 20, 21, 21, 21]


def test_a_model_trained_on_part_of_the_examples_routes_the_rest_well() -> None:
    """Three folds on a quarter of the examples: far less data than the shipped model has, so
    the floor is lower than its figures (README: cross-validated macro-F1 per language).
    A quarter, not more: training time grows much faster than the examples do."""
    validation = cross_validate(load_examples()[::4], folds=3)

    assert validation.threshold in THRESHOLDS
    assert set(validation.by_language) == {"ja", "en"}
    assert min(score.macro_f1 for score in validation.by_language.values()) >= 0.8
    assert validation.intent_accuracy >= 0.7
