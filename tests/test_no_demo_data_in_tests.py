"""Tests build the shop they need; only the demo's own tests and end-to-end walks use the demo.

The demo shop (``netshop/demo``, written by ``seed_demo``) is product data for people to try
the console on: a test that names its orders (ORD-1003, ORD-2001, ...) or seeds it breaks
whenever the demo changes for a reason of its own. Tests build their state with the factories
(``tests/factories.py``) or a named scenario (``tests/support/scenarios.py``) instead.

Given every file under ``tests/``, when it names a demo order or seeds the demo shop, then it
is one of the files allowed to (the demo's own tests, the browser walks, the end-to-end runs).
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# The demo's fixed orders (ORD-10xx, ORD-20xx), its generated ones (ORD-3xxx) and its retail
# ones (ORD-51xx, ORD-52xx).
DEMO_ORDER = re.compile(r"ORD-(?:[12]0\d\d|3\d{3}|5[12]0\d)(?!\d)")
DEMO_SEEDING = re.compile(r"\b(?:seed_demo|demo_shop_seed|demo_shop)\b|\bnetshop\.demo\b")
SCANNED_SUFFIXES = frozenset({".py", ".json", ".jsonl", ".txt", ".html", ".md"})

ALLOWED = frozenset(
    {
        # Tests of the demo itself: what it seeds, its help articles, its snapshot, its
        # scripted inquiries.
        "agents/test_demo.py",
        "netshop/test_demo_articles.py",
        "netshop/test_demo_snapshot.py",
        "netshop/test_seed_demo.py",
        "operators/test_demo.py",
        "support/demo_snapshot.py",
        # Browser walks and end-to-end runs: the product as a person meets it, demo and all.
        "browser/",
        "faults/",
        "support/embedded_flow.py",  # the embedded shape's whole approval loop, in a script
        # The understanding bench's cases are written against the demo shop; its end-to-end run.
        "bench/test_understanding_on_the_demo.py",
        # Replay re-runs the demo's own decided escalations in the sandbox's demo scenario.
        "agents/simulation/test_replay.py",
        # This guard names what it looks for.
        "test_no_demo_data_in_tests.py",
    }
)

# not yet converted: files that still name demo orders or run on the demo shop (none left).
NOT_YET_CONVERTED: frozenset[str] = frozenset()


def _allowed(relative: str) -> bool:
    return any(
        relative == entry or (entry.endswith("/") and relative.startswith(entry))
        for entry in ALLOWED | NOT_YET_CONVERTED
    )


def _offences(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return sorted(set(DEMO_ORDER.findall(text)) | set(DEMO_SEEDING.findall(text)))


def test_no_test_names_a_demo_order_or_seeds_the_demo_shop_outside_the_allow_list() -> None:
    offenders = {
        relative: found
        for path in sorted(TESTS.rglob("*"))
        if path.is_file() and path.suffix in SCANNED_SUFFIXES
        for relative in [path.relative_to(TESTS).as_posix()]
        if not _allowed(relative)
        for found in [_offences(path)]
        if found
    }

    listed = "\n".join(f"  {relative}: {', '.join(found)}" for relative, found in offenders.items())
    assert offenders == {}, (
        "these files name demo orders or seed the demo shop; build the shop with "
        f"tests/factories.py or tests/support/scenarios.py instead:\n{listed}"
    )


def test_every_file_the_allow_list_names_still_exists() -> None:
    missing = sorted(
        entry for entry in ALLOWED | NOT_YET_CONVERTED if not (TESTS / entry.rstrip("/")).exists()
    )

    assert missing == []


def test_the_guard_finds_demo_orders_and_demo_seeding() -> None:
    found = DEMO_ORDER.findall(
        "ORD-1003の返金 / ORD-2001 / ORD-3017 / ORD-5101 / ORD-6003 / ORD-4003"
    )

    assert found == ["ORD-1003", "ORD-2001", "ORD-3017", "ORD-5101"]
    assert DEMO_SEEDING.findall("demo_shop_seed(password='x'); seed_demo()") == [
        "demo_shop_seed",
        "seed_demo",
    ]
