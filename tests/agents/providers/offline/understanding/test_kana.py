"""Japanese typed in katakana alone is read as the router learned it: in hiragana."""

from __future__ import annotations

import pytest

from agents.providers.offline.understanding.classifier import classify_text
from agents.providers.offline.understanding.kana import kana_only_as_hiragana


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("ﾆﾓﾂ ｲﾂ ﾄﾄﾞｸ?", "にもつ いつ とどく?"),
        ("ヘンキンシテクダサイ", "へんきんしてください"),
        ("ORD-4821 ﾉ ﾘｮｳｼｭｳｼｮ", "ORD-4821 の りょうしゅうしょ"),
        ("ｸｰﾎﾟﾝ", "くーぽん"),
    ],
)
def test_a_message_in_katakana_alone_is_read_in_hiragana(text: str, read: str) -> None:
    assert kana_only_as_hiragana(text) == read


@pytest.mark.parametrize(
    "text", ["タオルが届きません", "クーポンを使いたい", "Where is my parcel?", "返金してください"]
)
def test_katakana_beside_hiragana_or_kanji_is_left_as_written(text: str) -> None:
    assert kana_only_as_hiragana(text) == text


@pytest.mark.parametrize(
    ("text", "agent"),
    [
        ("ﾆﾓﾂ ｶﾞ ﾏﾀﾞ ﾄﾄﾞｶﾅｲ. ｲﾂ ﾂｸﾉ?", "shipping"),
        ("ﾘｮｳｼｭｳｼｮ ｦ ﾊｯｺｳ ｼﾃ ﾎｼｲ", "payment"),
    ],
)
def test_a_request_typed_in_half_width_katakana_reaches_its_agent(text: str, agent: str) -> None:
    assert agent in classify_text(text).agents
