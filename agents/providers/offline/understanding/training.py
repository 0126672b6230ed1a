"""Training and cross-validating the router (``manage.py train_router`` / ``evaluate_router``).

scikit-learn fits the TF-IDF statistics and one L2-regularised logistic regression per label;
the result is exported as plain weights (``router.RouterModel``) so that answering needs no
scikit-learn. Features seen in fewer than ``MIN_DF`` examples are dropped, and so are
weights too small to move a probability, which keeps the shipped file small.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents.contract.schemas import AGENT_NAMES
from agents.providers.offline.understanding.examples import INTENTS, Example, digest
from agents.providers.offline.understanding.features import features
from agents.providers.offline.understanding.router import (
    RouterModel,
    agent_label,
    intent_label,
    read,
)
from agents.providers.offline.understanding.scoring import RoutingScore, routing_score

LABELS: tuple[str, ...] = tuple(agent_label(a) for a in AGENT_NAMES) + tuple(
    intent_label(i) for i in INTENTS
)
MIN_DF = 3
REGULARISATION = 64.0  # scikit-learn's C: the inverse of the L2 penalty, chosen by cross-validation
WEIGHT_FLOOR = 0.01
THRESHOLDS = tuple(round(0.25 + 0.05 * step, 2) for step in range(8))  # 0.25 .. 0.60
DEFAULT_THRESHOLD = 0.5


def _targets(example: Example) -> set[str]:
    return {agent_label(a) for a in example.agents} | {intent_label(i) for i in example.intents}


def fit(
    examples: Sequence[Example],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    regularisation: float = REGULARISATION,
    meta: dict[str, Any] | None = None,
) -> RouterModel:
    """A model trained on ``examples``."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = TfidfVectorizer(analyzer=features, sublinear_tf=True, min_df=MIN_DF)
    matrix = vectorizer.fit_transform([e.text for e in examples])
    vocabulary: list[str] = list(vectorizer.get_feature_names_out())
    columns: list[list[float]] = []
    bias: list[float] = []
    for label in LABELS:
        target = [int(label in _targets(e)) for e in examples]
        if not any(target) or all(target):  # nothing to learn: a constant answer
            columns.append([0.0] * len(vocabulary))
            bias.append(6.0 if all(target) else -6.0)
            continue
        classifier = LogisticRegression(C=regularisation, solver="liblinear", max_iter=1000)
        classifier.fit(matrix, target)
        columns.append([float(w) for w in classifier.coef_[0]])
        bias.append(round(float(classifier.intercept_[0]), 4))
    weights: dict[str, list[float]] = {}
    for index, feature in enumerate(vocabulary):
        row = [round(column[index], 3) for column in columns]
        if max(abs(w) for w in row) >= WEIGHT_FLOOR:
            weights[feature] = row
    idf = {f: round(float(v), 4) for f, v in zip(vocabulary, vectorizer.idf_, strict=True)}
    return RouterModel(
        labels=LABELS,
        idf=idf,
        weights=weights,
        bias=bias,
        agent_threshold=threshold,
        meta={"examples": len(examples), "digest": digest(examples), **(meta or {})},
    )


@dataclass(frozen=True)
class CrossValidation:
    folds: int
    threshold: float
    by_language: dict[str, RoutingScore]
    overall: RoutingScore
    intent_accuracy: float


def folds_of(count: int, folds: int, seed: int) -> list[int]:
    """Each example's fold, shuffled reproducibly."""
    order = list(range(count))
    random.Random(seed).shuffle(order)  # noqa: S311  (reproducible folds, not secrets)
    assignment = [0] * count
    for position, index in enumerate(order):
        assignment[index] = position % folds
    return assignment


def cross_validate(
    examples: Sequence[Example], *, folds: int = 5, seed: int = 13
) -> CrossValidation:
    """Train on k-1 folds, read the held-out one; the agent threshold is chosen on the
    held-out readings (the threshold ``train_router`` then ships)."""
    assignment = folds_of(len(examples), folds, seed)
    readings: list[Any] = [None] * len(examples)
    for fold in range(folds):
        train = [e for e, f in zip(examples, assignment, strict=True) if f != fold]
        model = fit(train)
        for index, example in enumerate(examples):
            if assignment[index] == fold:
                readings[index] = read(example.text, model)
    threshold = max(
        THRESHOLDS,
        key=lambda t: _score(examples, readings, t).macro_f1,
    )
    by_language = {
        language: _score(
            [e for e in examples if e.language == language],
            [r for e, r in zip(examples, readings, strict=True) if e.language == language],
            threshold,
        )
        for language in sorted({e.language for e in examples})
    }
    asking = [(e, r) for e, r in zip(examples, readings, strict=True) if e.intents]
    main_right = sum(
        max(r.intent_probabilities, key=r.intent_probabilities.__getitem__) == e.intents[0]
        for e, r in asking
    )
    return CrossValidation(
        folds=folds,
        threshold=threshold,
        by_language=by_language,
        overall=_score(examples, readings, threshold),
        intent_accuracy=main_right / max(len(asking), 1),
    )


def _score(examples: Sequence[Example], readings: Sequence[Any], threshold: float) -> RoutingScore:
    predicted = [
        [a for a in AGENT_NAMES if r.agent_probabilities[a] >= threshold] or ["faq"]
        for r in readings
    ]
    return routing_score([e.agents for e in examples], predicted)
