"""Reading customer text, for every layer: its language, its normal form, its sentences.

Shared below both model providers: the support domain and the graph read a message's language
with the same rule the offline model does.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

_KANA = re.compile(r"[\u3041-\u309f\u30a0-\u30ff]")
_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# Order and tracking numbers are written in Latin letters in both languages.
_IDENTIFIER = re.compile(r"ORD[\s\-_]*\d+|\d[\d\-]*", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[。！？!?\n;；]+|(?<=[.])\s+")
# Curly quotes survive NFKC; the English cues are written with the ASCII apostrophe.
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def normalize(text: str) -> str:
    """NFKC (full-width letters and digits become ASCII, half-width kana full-width)."""
    return unicodedata.normalize("NFKC", text).translate(_QUOTES).strip()


def detect_language(text: str) -> Literal["ja", "en"]:
    """Japanese when kana or kanji carry the text rather than decorate an English one."""
    plain = _IDENTIFIER.sub(" ", normalize(text))
    kana = len(_KANA.findall(plain))
    kanji = len(_KANJI.findall(plain))
    latin_words = len(_LATIN_WORD.findall(plain))
    if kana:
        return "ja" if kana + kanji >= latin_words else "en"
    return "ja" if kanji and kanji >= 2 * latin_words else "en"


def language_evident(text: str) -> bool:
    """Whether any words carry the text, rather than only order numbers, digits and signs."""
    plain = _IDENTIFIER.sub(" ", normalize(text))
    return bool(_KANA.search(plain) or _KANJI.search(plain) or _LATIN_WORD.search(plain))


def split_sentences(text: str) -> list[str]:
    """Sentences (or question marks' worth of text): the unit a cue's context is judged in."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]
