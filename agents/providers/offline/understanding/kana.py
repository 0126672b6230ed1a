"""Japanese written in katakana alone ("ﾆﾓﾂ ｲﾂ ﾄﾄﾞｸ", "ヘンキンシテクダサイ"), read as hiragana.

Some customers type without converting to kanji (an old handset, a half-width keyboard mode):
every word comes out in katakana. The router learned Japanese from kanji and hiragana, where
"トドカナイ" and "とどかない" read the same to a person but share no character. A message with
no hiragana and no kanji is read as its hiragana spelling; a message with either keeps its
katakana (there katakana are loanwords and product names: "タオル", "クーポン").
"""

from __future__ import annotations

import re

from agents.support.text import normalize

_KATAKANA = re.compile(r"[\u30a1-\u30f6]")
_HIRAGANA_OR_KANJI = re.compile(r"[\u3041-\u3096\u4e00-\u9fff]")
# Katakana and hiragana sit 0x60 apart (ァ..ヶ -> ぁ..ゖ); the long-vowel mark stays as it is.
_TO_HIRAGANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}


def kana_only_as_hiragana(text: str) -> str:
    """``text`` (NFKC, so half-width kana are full-width) in hiragana when its Japanese is
    all katakana; otherwise ``text`` unchanged."""
    normal = normalize(text)
    if not _KATAKANA.search(normal) or _HIRAGANA_OR_KANJI.search(normal):
        return text
    return normal.translate(_TO_HIRAGANA)
