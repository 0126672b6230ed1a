"""The terms retrieval compares: Japanese bigrams (and single kanji), English stems."""

from __future__ import annotations

import pytest

from netshop.knowledge.tokens import stem, terms


def test_japanese_is_read_as_overlapping_pairs_and_single_kanji() -> None:
    assert terms("返品期限") == ["返品", "品期", "期限", "返", "品", "期", "限"]


def test_a_questions_grammar_is_dropped_unless_nothing_else_is_left() -> None:
    assert terms("返品ですか", keep_grammar=False) == ["返品", "品で", "返", "品"]
    assert terms("ですか", keep_grammar=False) == ["です", "すか"]


def test_full_width_letters_and_digits_are_folded() -> None:
    assert terms("ＯＫです１４日") == terms("OKです14日")


def test_english_drops_stop_words_and_folds_endings() -> None:
    assert terms("I was charged twice for my orders") == ["charg", "twic", "order"]


@pytest.mark.parametrize(
    ("words", "same"),
    [
        (("return", "returns", "returned", "returning"), "return"),
        (("delivery", "deliveries", "delivered"), "deliver"),
        (("cancel", "cancelled", "canceled", "cancellation"), "cancel"),
        (("address", "addresses", "addressed"), "address"),
        (("stop", "stopped", "stopping"), "stop"),
    ],
)
def test_forms_of_one_word_share_a_stem(words: tuple[str, ...], same: str) -> None:
    assert {stem(word) for word in words} == {same}


def test_short_words_and_numbers_are_kept() -> None:
    assert [stem(w) for w in ("is", "5000", "call", "miss")] == ["is", "5000", "call", "miss"]
