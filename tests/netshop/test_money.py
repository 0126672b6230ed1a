"""One money formatter for every page (issue 11.2): each caller keeps the output it had."""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path

import pytest

from agents.providers.offline import formatting
from netshop.money import yen
from operators.templatetags import console_tags

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("amount", "language", "shown"),
    [
        (12800, "en", "¥12,800"),
        (12800, "ja", "12,800円"),
        (0, "en", "¥0"),
        (1_000_000, "ja", "1,000,000円"),
        ("12800", "en", "¥12,800"),
        (12800.9, "en", "¥12,800"),
        (Decimal("500"), "ja", "500円"),
        (None, "en", ""),
        (True, "ja", ""),
        ("12.5", "en", ""),
        ("abc", "ja", ""),
        (float("inf"), "en", ""),
        ([12800], "en", ""),
    ],
)
def test_yen_formats_each_language_and_blanks_malformed_amounts(
    amount: object, language: str, shown: str
) -> None:
    assert yen(amount, language=language) == shown


def test_english_is_the_default_as_the_staff_pages_print_it() -> None:
    assert yen(12800) == "¥12,800"


def test_the_callers_keep_their_output() -> None:
    # Given the customer replies (ja/en) and the console filter
    # Then each prints what it printed before the formatters were merged
    assert formatting.yen("ja", 12800) == "12,800円"
    assert formatting.yen("en", 12800) == "¥12,800"
    assert console_tags.yen(12800) == "¥12,800"
    assert console_tags.yen(None) == ""


def test_only_netshop_money_defines_a_yen_function() -> None:
    # Given every product module, then exactly one function named yen is defined
    definitions = [
        str(path.relative_to(ROOT))
        for package in ("agents", "netshop", "operators")
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name == "yen"
    ]
    assert sorted(definitions) == [
        # a thin (lang, amount) adapter over netshop.money
        "agents/providers/offline/formatting.py",
        "netshop/money.py",
        "operators/templatetags/console_tags.py",  # the template filter, over netshop.money
    ]
