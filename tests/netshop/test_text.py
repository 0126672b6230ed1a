"""``shows_nothing``: the one test of "blank" for what customers write; ``unstorable``: what
PostgreSQL refuses to store."""

from __future__ import annotations

import pytest

from netshop.text import shows_nothing, unstorable


@pytest.mark.parametrize(
    ("text", "blank"),
    [
        ("", True),
        ("   \n\t", True),
        ("\u200b\u200c\u200d\u2060\ufeff", True),  # zero-width space, joiners, BOM
        ("\x00\x07", True),  # controls
        ("\u3164\u115f\u2800", True),  # Hangul and Braille fillers
        ("\ufe0f\u034f", True),  # a variation selector and a grapheme joiner, alone
        ("\u3000", True),  # the ideographic space
        ("返金", False),
        ("ORD-4003", False),
        ("\u200bok\u200b", False),
        ("e\u0301", False),  # a combining accent on a letter
        ("?", False),
    ],
)
def test_a_text_shows_nothing_only_when_no_character_is_visible(text: str, blank: bool) -> None:
    assert shows_nothing(text) is blank


@pytest.mark.parametrize(
    ("text", "refused"),
    [("a\x00b", True), ("\x00", True), ("a\ud800", True), ("\x07\x1b\x7f", False), ("返金", False)],
)
def test_only_nul_and_lone_surrogates_are_unstorable(text: str, refused: bool) -> None:
    assert unstorable(text) is refused
