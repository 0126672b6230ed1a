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
    r"\btake\b[^.?!]{0,40}?\boff\b|"
    r"don.t (?:need|want)|cancel"
)


# Where a message's sentences part, for telling the item asked about from one kept.
_CLAUSE: Final = re.compile(r"[.!?。！？\n]+|、?(?:but|though|however)\b|けど|けれど|が、")


# A sentence saying the customer keeps an item as it is.
_KEEP: Final = re.compile(
    r"\bkeep(?:ing)?\b|\b(?:is|are|was|were)\s+(?:fine|ok|okay|good|perfect|alright)\b"
    r"|\bno problem with\b|そのまま|気に入|問題(?:ない|ありません|なかった)|大丈夫|使います|使う"
)


_COUNTER: Final = r"(?:個|つ|点|枚|本|組|セット|袋|箱|缶|足|脚)"


_NUMBER: Final = r"(\d+|one|two|three|four|five)"


_ANOTHER_NUMBER: Final = r"(?:\d+|one|two|three|four|five|six)"


# The quantity an item is to be left at: 「1つに」「1個だけ」「1つで足ります」, "to 1", "only need
# one", "just 2", "1 instead of 2", "one, not two".
_QUANTITY: Final = re.compile(
    rf"(\d+)\s*{_COUNTER}\s*(?:に|だけ|のみ|で(?:足り|十分|いい|大丈夫|結構|構わ))"
    rf"|\b(?:to|only|just|need|keep)\s+(?:need\s+|want\s+|keep\s+)?{_NUMBER}\b"
    rf"|\b{_NUMBER}\s+(?:\w+\s+)?(?:instead of|rather than|not)\s+{_ANOTHER_NUMBER}\b"
)


# How many fewer: 「1つ減らして」, "one less", "two fewer".
_FEWER: Final = re.compile(rf"(\d+)\s*{_COUNTER}\s*減ら|\b{_NUMBER}\s+(?:less|fewer)\b")


# An item added to an order: 「追加」「増やし」「もう1つ」, "add", "one more", "an extra".
_ADD: Final = re.compile(
    r"追加(?!料金|費用|の?送料)|増やし|増やせ|足して|足せ"
    r"|もう\s*(?:\d+|一|ひと|ふた)\s*(?:個|つ|点|枚|本|組)"
    r"|\badd\s+(?:a|an|another|one|two|three|\d+|more|some)\b"
    r"|\badd\b[^.?!]*\bto (?:my|the|this|that|order)\b"
    r"|\b(?:one|two|\d+) more\b|\ban extra\b|\bincrease\b"
)


# How many are added: 「2つ追加」「もう1つ」, "two more", "add 3".
_ADDED_COUNT: Final = re.compile(
    rf"(\d+)\s*{_COUNTER}\s*(?:を|ほど)?\s*(?:追加|増や|足し)|もう\s*(\d+)\s*{_COUNTER}"
    rf"|\b{_NUMBER}\s+more\b|\badd\s+{_NUMBER}\b"
)


# What a customer calls the item they add: 「宇治抹茶を1つ追加」, "add two tote bags to".
_ADDED_NAME: Final = re.compile(
    rf"([^\s、。,.!?をにのはがも]{{2,}})を\s*(?:\d+\s*{_COUNTER})?\s*(?:追加|増や|足し)"
    rf"|\badd\s+(?:(?:a|an|another|one|two|three|\d+)\s+)?(?:more\s+)?([a-z][a-z -]*?)"
    rf"\s+(?:to|in|on|onto)\b"
)


# The units still to be refunded after part of a line was: "the remaining two", 「残りの2つ」.
_REMAINING: Final = re.compile(
    rf"\b(?:remaining|rest of the)\s+{_NUMBER}\b"
    rf"|残りの?[^\d。、]{{0,12}}?(\d+)\s*{_COUNTER}|(\d+)\s*{_COUNTER}の?残り"
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


_NUMBER_WORDS: Final = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def part_of_line(text: str) -> int | None:
    return _first_number(_PART.search(text))


def named_lines(text: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines whose SKU or a distinctive part of whose name the (folded) text contains."""
    return [line for line in lines if _names(text, line)]


def kept_lines(text: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines named only in a sentence saying the customer keeps them ("the fan is fine,
    I'm keeping it", 「箸はそのままで大丈夫です」): not the ones a request is about."""
    kept = [clause for clause in _CLAUSE.split(text) if _KEEP.search(clause)]
    wanted = [clause for clause in _CLAUSE.split(text) if not _KEEP.search(clause)]
    return [
        line
        for line in lines
        if any(_names(clause, line) for clause in kept)
        and not any(_names(clause, line) for clause in wanted)
    ]


def _names(text: str, line: dict[str, Any]) -> bool:
    if folded(str(line.get("sku") or "")) in text:
        return True
    name = folded(str(line.get("name") or ""))
    name_words = set(name.split())  # a one-character run counts only as a whole word: 箸
    runs = [run for run in _JA_RUN.findall(text) if run not in _JA_GENERIC]
    if any(run in name if len(run) > 1 else run in name_words for run in runs):
        return True
    if any(word in text for word in name_words if _distinctive_ja(word)):
        return True  # a word of the name written in kana and kanji alike: 手ぬぐい
    words = set(_EN_WORD.findall(folded(str(line.get("name_en") or ""))))
    said = {w.removesuffix("s") for w in _EN_WORD.findall(text)} | set(_EN_WORD.findall(text))
    return bool((words - _EN_GENERIC) & said)


def _distinctive_ja(word: str) -> bool:
    """A word of a Japanese name that alone says the item: two or more Japanese characters
    of which some are kana, not a count (2枚組) or a word every item shares (セット)."""
    return (
        len(word) > 1
        and not any(char.isdigit() for char in word)
        and word not in _JA_GENERIC
        and re.search(r"[\u3040-\u309f]", word) is not None
    )


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
    """The quantity an item is to be left at, if the text says one."""
    return _first_number(_QUANTITY.search(text))


def fewer_said(text: str) -> int | None:
    """How many units fewer the text asks for: 「1つ減らして」, "one less"."""
    return _first_number(_FEWER.search(text))


def remaining_said(text: str) -> int | None:
    """How many units the text calls the rest of a line: "the remaining two", 「残りの2つ」."""
    return _first_number(_REMAINING.search(text))


def says_add(text: str) -> bool:
    """ "Add a mug to my order", 「1つ追加したい」: an item added, which an order never takes."""
    return _ADD.search(text) is not None


def added_count(text: str) -> int:
    """How many units the customer wants added (one when the text does not say)."""
    return _first_number(_ADDED_COUNT.search(text)) or 1


def added_name(text: str) -> str | None:
    """What the customer calls the item they want added, when the text says it plainly."""
    match = _ADDED_NAME.search(text)
    return next((group.strip() for group in match.groups() if group), None) if match else None


def _first_number(match: re.Match[str] | None) -> int | None:
    if match is None:
        return None
    said = next(group for group in match.groups() if group)
    return _NUMBER_WORDS.get(said) or int(said)


def folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def says_all(text: str) -> bool:
    """ "All of them", 「全部」: every item of the order."""
    return _ALL.search(text) is not None


def says_remove(text: str) -> bool:
    """ "Remove the mug", 「取り消して」: an item taken off the order."""
    return _REMOVE.search(text) is not None
