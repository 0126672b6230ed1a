"""The terms retrieval compares: Japanese character bigrams and stemmed English words.

Japanese has no spaces between words and no analyser is installed, so a Japanese run is read
as its overlapping two-character pieces (返品期限 -> 返品, 品期, 期限), and a kanji alone also
as itself (傷, 箱: one-character words are common). English words are lowercased, stop words
dropped and suffixes folded by a small stemmer (returns, returned, returning -> return).
Pure.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

_RUN_RE: Final = re.compile(r"[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff々〆ー]+|[a-z0-9]+")
_CJK_RE: Final = re.compile(r"[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff々〆]")
_KANJI_RE: Final = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff々]")
_HIRAGANA_RE: Final = re.compile(r"[\u3041-\u309fー]+")
_EN_STOPWORDS_TEXT: Final = """
    a an the is are was were be been am i me my we our you your it its this that to of in on
    at for from with by and or not no do does did can could would should will how what when
    where why which who there please about any have has had get got if so just still yet
    want wanted need let know tell some one us them they he she his her than then also
    really very much many
"""
EN_STOPWORDS: Final = frozenset(_EN_STOPWORDS_TEXT.split())
# Longest first: the first one that fits is cut.
_SUFFIXES: Final = (
    "ations",
    "ation",
    "ments",
    "ment",
    "ings",
    "ing",
    "ies",
    "ied",
    "ed",
    "es",
    "s",
)


def normalized(text: str) -> str:
    """Full-width letters and digits folded (ＯＫ -> ok), lowercase."""
    return unicodedata.normalize("NFKC", text).lower()


def terms(text: str, *, keep_grammar: bool = True) -> list[str]:
    """The terms of ``text`` in order, repeated as often as they occur.

    ``keep_grammar=False`` (for a customer's question) drops all-hiragana bigrams (です, ます,
    ください): grammar rather than topic; they are kept when nothing else is left.
    """
    found: list[str] = []
    grammar: list[str] = []
    for run in _RUN_RE.findall(normalized(text)):
        if _CJK_RE.match(run):
            for gram in _bigrams(run):
                (grammar if _HIRAGANA_RE.fullmatch(gram) else found).append(gram)
            found += [c for c in run if _KANJI_RE.match(c)] if len(run) > 1 else []
        elif run not in EN_STOPWORDS:
            found.append(stem(run))
    return found + grammar if keep_grammar or not found else found


def _bigrams(run: str) -> list[str]:
    return [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]


def stem(word: str) -> str:
    """A light English stemmer: plural and verb endings and a final -e or -y folded
    (deliveries, delivered, delivery -> deliver; charges, charged -> charg); the same word
    always gives the same stem, which is all retrieval needs."""
    if len(word) <= 2 or word.isdigit():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and _cuttable(word, suffix):
            base = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                base += "y"
            elif _doubled(base):
                base = base[:-1]
            return _folded_end(base)
    return _folded_end(word)


def _cuttable(word: str, suffix: str) -> bool:
    base = word[: -len(suffix)]
    if len(base) < 2 or (suffix == "ed" and base.endswith("e")):  # need, speed
        return False
    if suffix == "es":
        return base.endswith(("s", "x", "z", "ch", "sh"))  # boxes, addresses; not charges
    if suffix == "s":
        return not word.endswith(("ss", "us", "is"))
    return True


def _doubled(base: str) -> bool:
    """stopped -> stop and cancelled -> cancel, but not called -> cal or missed -> mis."""
    if len(base) <= 3 or base[-1] != base[-2] or base[-1] in "sz":
        return False
    return base[-1] != "l" or len(base) > 5


def _folded_end(word: str) -> str:
    """charge and charg, delivery and deliver, are one stem: a final e, or a y after a
    consonant, is dropped."""
    if len(word) >= 3 and word.endswith("e"):
        return word[:-1]
    if len(word) > 3 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1]
    return word
