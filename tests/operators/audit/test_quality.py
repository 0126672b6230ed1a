"""The Wilson interval and the autonomy recommendation (issue 25, part 5), table-tested."""

from __future__ import annotations

import pytest

from operators.audit.quality import Accuracy, Autonomy, autonomy_recommendation, overall
from operators.audit.quality import wilson_interval as wilson


@pytest.mark.parametrize(
    ("correct", "reviewed", "low", "high"),
    [
        # Published values (Newcombe 1998, table I; Wilson without continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (10, 10, 0.7225, 1.0),
        (50, 50, 0.9287, 1.0),
    ],
)
def test_the_wilson_interval_matches_published_values(
    correct: int, reviewed: int, low: float, high: float
) -> None:
    interval = wilson(correct, reviewed)

    assert interval is not None
    assert interval == pytest.approx((low, high), abs=1e-4)


def test_no_review_has_no_interval_and_a_count_beyond_the_reviews_is_an_error() -> None:
    assert wilson(0, 0) is None
    with pytest.raises(ValueError, match="between 0 and reviewed"):
        wilson(3, 2)


def test_the_interval_narrows_with_more_reviews_and_holds_the_share() -> None:
    few, many = wilson(9, 10), wilson(900, 1000)

    assert few is not None
    assert many is not None
    assert few[0] < 0.9 < few[1]
    assert many[0] < 0.9 < many[1]
    assert many[1] - many[0] < few[1] - few[0]


@pytest.mark.parametrize(
    ("correct", "reviewed", "expected"),
    [
        (0, 0, Autonomy.KEEP),
        (49, 49, Autonomy.KEEP),  # all correct, but fewer than 50 reviews
        (50, 50, Autonomy.KEEP),  # lower bound 92.9%: not yet
        (79, 79, Autonomy.MORE),  # lower bound 95.4%
        (197, 200, Autonomy.MORE),  # 98.5%, lower bound 95.7%
        (194, 200, Autonomy.KEEP),  # 97%, lower bound 93.6%
        (85, 100, Autonomy.KEEP),  # exactly 85% is not below it
        (84, 100, Autonomy.LESS),
        (1, 2, Autonomy.LESS),
        (0, 1, Autonomy.LESS),
    ],
)
def test_the_recommendation(correct: int, reviewed: int, expected: Autonomy) -> None:
    assert autonomy_recommendation(correct, reviewed) == expected


def test_overall_adds_the_intents_up() -> None:
    rows = [Accuracy("search_faq", 10, 9), Accuracy("track_shipment", 4, 1)]

    total = overall(rows)

    assert (total.intent, total.reviewed, total.correct, total.wrong) == ("", 14, 10, 4)
    assert total.share == pytest.approx(10 / 14)
    assert Accuracy("x", 0, 0).share is None
