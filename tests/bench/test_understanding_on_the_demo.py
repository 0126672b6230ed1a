"""The understanding bench (``bench.understanding``) kept runnable end to end: three of its
cases through the real graph on the demo shop.

The bench's cases are written against the demo shop (``bench/understanding_cases.jsonl``
names the demo's customers and orders), so this run, like the bench itself, seeds the demo.

Given the demo shop, when a case runs, then the check sees what the run did (a proposed
cancellation, a booked redelivery, a hand-off) and judges it against the case.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench import understanding
from tests.support.demo_snapshot import demo_shop_seed

CASE_IDS = ("ja-08", "ja-16", "en-37")  # redeliver ORD-1004, cancel ORD-1001, ask for a person


@pytest.fixture
def demo_shop(transactional_db: None, settings: Any) -> None:
    """The demo shop committed, so that the graph's worker threads see it."""
    settings.NETSHOP_RETRY_BACKOFF_S = 0
    demo_shop_seed(password="test-password")


def test_three_cases_run_through_the_graph_and_pass(demo_shop: None) -> None:
    cases = understanding.select(understanding.load_cases(), only=",".join(CASE_IDS))

    rows = understanding.evaluate(cases, quiet=True)

    assert [row["id"] for row in rows] == list(CASE_IDS)
    assert [(row["failures"], row["passed"]) for row in rows] == [([], True)] * 3
    assert rows[0]["db_changes"].get("Redelivery") == 1
    assert rows[1]["actions"] == ["cancel_order(proposed {'order_number': 'ORD-1001'})"]
    assert rows[2]["status"] == "escalated"
