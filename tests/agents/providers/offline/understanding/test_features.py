"""What the router sees: identifiers in every format masked to one token, n-grams and words."""

from __future__ import annotations

import pytest

from agents.providers.offline.understanding.features import features, masked


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("Where is ORD-4002?", "⟨ord⟩"),
        ("where is ord4002", "⟨ord⟩"),
        ("ＯＲＤ－３０７６はどこ", "⟨ord⟩"),
        ("order #4002 please", "⟨ord⟩"),
        ("my order #W2378156", "⟨ord⟩"),
        ("cancel {{Order Number}}", "⟨ord⟩"),
        ("tracking 4821-7730-1195", "⟨trk⟩"),
        ("tracking 482177301195", "⟨trk⟩"),
        ("order 20240512", "⟨num⟩"),
        ("refund ¥2,200 please", "⟨yen⟩"),
        ("2200円返して", "⟨yen⟩"),
        ("〒104-0061 東京都中央区銀座", "⟨zip⟩"),
        ("on 2026-12-05 please", "⟨date⟩"),
        ("12/5の14時〜16時", "⟨date⟩"),
        ("between 14-16", "⟨time⟩"),
    ],
)
def test_identifiers_amounts_and_dates_become_one_token_whatever_their_format(
    text: str, token: str
) -> None:
    assert token in masked(text)


def test_digits_left_over_never_reach_the_model_as_such() -> None:
    assert masked("3日うしろにずらして") == "0日うしろにずらして"


def test_two_orders_in_different_formats_read_alike() -> None:
    assert masked("cancel ORD-4001") == masked("cancel ＯＲＤ－９９８７")


def test_features_are_character_grams_words_and_word_pairs() -> None:
    found = features("Refund pls")

    assert {"cr", "cre", "cund", "wrefund", "wplease", "brefund please"} <= set(found)


def test_japanese_is_read_in_character_grams_without_a_tokenizer() -> None:
    found = set(features("返金して"))

    assert {"c返", "c返金", "c金して"} <= found
    assert not any(f.startswith("w") for f in found)


def test_markup_pasted_into_a_message_is_read_as_nothing() -> None:
    hostile = '<script>window.x=1</script><img src=x onerror="alert(1)">注文ORD-4003を返金して'

    assert masked(hostile) == masked("注文ORD-4003を返金して")
    assert "⟨url⟩" in masked("From: NetShop <no-reply@netshop.example>")
