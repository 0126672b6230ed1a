"""Which of an order's items a message names, and what it says about them.

"The mug", 「マグカップが割れて」, a SKU; the size wanted ("L", "a bigger size"), the quantity
("only 2", 「1個に」), "all of them", "remove", "one of the two towels". Read against the
order's lines (``get_order_items``) on NFKC case-folded text (``folded``). Pure.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Final

_JA_RUN: Final = re.compile(r"[\u30a0-\u30ff]+|[\u4e00-\u9fff]+")


_JA_GENERIC: Final = frozenset(
    {"サイズ", "セット", "ギフト", "注文", "商品", "返品", "交換", "返金"}
)


_EN_WORD: Final = re.compile(r"[a-z]{3,}")


_EN_GENERIC: Final = frozenset({"set", "size", "the", "and", "with", "pair", "original"})


_ALL: Final = re.compile(r"全部|すべて|全て|まとめて|\ball\b|\beverything\b|\bwhole order\b")


_REMOVE: Final = re.compile(
    r"削除|取り消|取消|外し|外して|いらな|不要|やめ|キャンセル|remove|take off|delete|drop|"
    r"don.t (?:need|want)|cancel"
)


_QUANTITY: Final = re.compile(
    r"(\d+)\s*(?:個|つ|点|枚|本|組|セット)(?:に|だけ)|\b(?:to|only|just)\s+(\d+)\b"
)


_SIZES: Final = ("XXL", "XL", "L", "M", "S")


_SIZE_WORDS: Final = {"large": "L", "medium": "M", "small": "S"}


_BIGGER: Final = re.compile(
    r"bigger|larger|size up|too (?:small|tight)"
    r"|大きい|大きめ|ワンサイズ上|サイズアップ|小さかった|きつ"
)


_SMALLER: Final = re.compile(
    r"smaller|size down|too (?:big|large|loose)"
    r"|小さい|小さめ|ワンサイズ下|サイズダウン|大きかった|ゆる"
)


# How many of a line's units a complaint is about: "one of the two towels", 「2枚のうち1枚」.
_PART: Final = re.compile(
    r"\b(one|two|three|\d+) of (?:the|my|those|these|them)\b"
    r"|のうち\s*(\d+)\s*(?:個|つ|点|枚|本|組)|(\d+)\s*(?:個|つ|点|枚|本|組)(?:だけ|のみ|が)"
)


_NUMBER_WORDS: Final = {"one": 1, "two": 2, "three": 3}


def part_of_line(text: str) -> int | None:
    match = _PART.search(text)
    if match is None:
        return None
    said = next(group for group in match.groups() if group)
    return _NUMBER_WORDS.get(said) or int(said)


def named_lines(text: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines whose SKU or a distinctive part of whose name the (folded) text contains."""
    return [line for line in lines if _names(text, line)]


def _names(text: str, line: dict[str, Any]) -> bool:
    if folded(str(line.get("sku") or "")) in text:
        return True
    name = folded(str(line.get("name") or ""))
    name_words = set(name.split())  # a one-character run counts only as a whole word: 箸
    runs = [run for run in _JA_RUN.findall(text) if run not in _JA_GENERIC]
    if any(run in name if len(run) > 1 else run in name_words for run in runs):
        return True
    words = set(_EN_WORD.findall(folded(str(line.get("name_en") or ""))))
    said = {w.removesuffix("s") for w in _EN_WORD.findall(text)} | set(_EN_WORD.findall(text))
    return bool((words - _EN_GENERIC) & said)


def sizes(text: str) -> list[str]:
    upper = text.upper()
    found = [
        (match.start(), size)
        for size in _SIZES
        for match in re.finditer(rf"(?<![A-Z']){size}(?![A-Z'])", upper)
    ]
    found += [
        (m.start(), size)
        for word, size in _SIZE_WORDS.items()
        for m in re.finditer(rf"(?<!too )\b{word}\b", text)
    ]
    ordered = [size for _, size in sorted(found)]
    return list(dict.fromkeys(ordered))


def relative_size(text: str, current: str) -> list[str]:
    """ "A bigger size", 「ワンサイズ大きい」: the size next to the one owned, if there is one."""
    ladder = list(reversed(_SIZES))  # S, M, L, XL, XXL
    if current not in ladder:
        return []
    step = 1 if _BIGGER.search(text) else -1 if _SMALLER.search(text) else 0
    index = ladder.index(current) + step
    return [ladder[index]] if step and 0 <= index < len(ladder) else []


def quantity_said(text: str) -> int | None:
    match = _QUANTITY.search(text)
    if match is None:
        return None
    return int(match.group(1) or match.group(2))


def folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def says_all(text: str) -> bool:
    """ "All of them", 「全部」: every item of the order."""
    return _ALL.search(text) is not None


def says_remove(text: str) -> bool:
    """ "Remove the mug", 「取り消して」: an item taken off the order."""
    return _REMOVE.search(text) is not None
