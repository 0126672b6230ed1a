"""The shipped router model: trained on the examples in the repository, read without
scikit-learn exactly as scikit-learn would score it."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from agents.providers.offline.understanding.examples import digest, load_examples
from agents.providers.offline.understanding.features import features
from agents.providers.offline.understanding.router import (
    RouterModel,
    read,
    shipped_model,
    write_model,
)
from agents.providers.offline.understanding.training import LABELS, fit


def test_the_shipped_model_was_trained_on_the_examples_in_the_repository() -> None:
    """Edit an example file, retrain (manage.py train_router): this keeps the two together."""
    assert shipped_model().meta["digest"] == digest(load_examples())


def test_the_shipped_model_records_its_cross_validated_scores() -> None:
    scores = shipped_model().meta["cross_validation"]["macro_f1"]

    assert set(scores) == {"ja", "en"}
    assert min(scores.values()) >= 0.88


def tiny_model(
    labels: tuple[str, ...] = ("agent:order", "intent:cancel_order"),
    weights: tuple[float, ...] = (3.0, 4.0),
    bias: tuple[float, ...] = (-1.0, -2.0),
) -> RouterModel:
    return RouterModel(
        labels=labels,
        idf={"wcancel": 2.0, "cc": 1.0},
        weights={"wcancel": list(weights)},
        bias=list(bias),
        agent_threshold=0.5,
        meta={},
    )


def test_probabilities_are_the_logistic_of_the_weighted_normalised_tf_idf() -> None:
    model = tiny_model()
    values = {f: model.idf[f] * (1 + math.log(n)) for f, n in (("wcancel", 1), ("cc", 2))}
    norm = math.sqrt(sum(v * v for v in values.values()))
    share = values["wcancel"] / norm
    assert features("cancel").count("cc") == 2

    probabilities = model.probabilities("cancel")

    assert probabilities["agent:order"] == pytest.approx(1 / (1 + math.exp(-(3 * share - 1))))
    assert probabilities["intent:cancel_order"] == pytest.approx(
        1 / (1 + math.exp(-(4 * share - 2)))
    )


def test_reading_without_scikit_learn_matches_scikit_learn() -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    examples = load_examples()[::6]
    model = fit(examples)
    vectorizer = TfidfVectorizer(analyzer=features, sublinear_tf=True, min_df=3)
    matrix = vectorizer.fit_transform([e.text for e in examples])
    label = "agent:payment"
    target = [int("payment" in e.agents) for e in examples]
    reference = LogisticRegression(C=64.0, solver="liblinear", max_iter=1000).fit(matrix, target)
    texts = ["ORD-4003の返金はまだですか", "my card was declined", "where is my parcel"]

    expected = reference.predict_proba(vectorizer.transform(texts))[:, 1]

    assert label in LABELS
    for text, probability in zip(texts, expected, strict=True):
        assert model.probabilities(text)[label] == pytest.approx(probability, abs=0.02)


def test_the_agents_read_are_those_at_or_over_the_threshold() -> None:
    model = tiny_model(
        labels=(
            "agent:order",
            "agent:shipping",
            "agent:payment",
            "agent:faq",
            "intent:cancel_order",
        ),
        weights=(3.0, -3.0, -3.0, -3.0, 4.0),
        bias=(0.0, 0.0, 0.0, 0.0, 0.0),
    )

    reading = read("cancel", model)

    assert reading.agents == ["order"]
    assert reading.intent_probabilities["cancel_order"] > 0.5


def test_a_written_model_reads_back_the_same_and_its_bytes_are_reproducible(
    tmp_path: Path,
) -> None:
    path = tmp_path / "model.json.gz"
    write_model(tiny_model(), path)
    first = path.read_bytes()
    write_model(tiny_model(), path)

    assert path.read_bytes() == first
    assert RouterModel.from_json(json.loads(gzip.decompress(first))) == tiny_model()


def test_a_model_of_another_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        RouterModel.from_json({"format": 99})
