"""The offline model's turns for returns, exchanges, item changes and item-level refunds.

Once the Order agent has the order's lines (``get_order_details``), the item the customer
names is found among them ("the mug", 「マグカップが割れて」, a SKU); the size wanted for an
exchange and the quantity for an item change are read from the text. Nothing is guessed:
when the text names no item of a multi-item order, or no size, no action is prepared and the
request goes to a person (the escalation policy finds the gated request unprepared).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Final

from agents.support.vocabulary import Skill

Call = tuple[str, dict[str, Any]]
DAMAGED: Final = "damaged item"  # the brain's reason for a broken or faulty item

RETAIL_INTENTS: Final = frozenset(
    {Skill.RETURN_ITEMS, Skill.EXCHANGE_ITEMS, Skill.MODIFY_ORDER_ITEMS}
)
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


def retail_turn(
    intent: str, inquiry: str, number: str, results: dict[str, Any], reason: str
) -> list[Call]:
    """The Order agent's next calls for a retail ``intent`` on order ``number``: look its
    items up, then prepare the action from them (or nothing: a person takes it)."""
    if intent in results:
        return []
    listed = results.get("get_order_items")
    if listed is None:
        return [
            ("get_order_details", {"order_number": number}),
            ("get_order_items", {"order_number": number}),
        ]
    lines = [line for line in listed.get("items") or [] if isinstance(line, dict)]
    call = retail_call(intent, inquiry, number, lines, reason)
    return [call] if call else []


def retail_call(
    intent: str, inquiry: str, number: str, lines: list[dict[str, Any]], reason: str
) -> Call | None:
    """The retail tool to call on the order's ``lines`` for ``intent``, or None (a person)."""
    text = _folded(inquiry)
    if not lines:
        return None
    if intent == Skill.RETURN_ITEMS:
        named = named_lines(text, lines) or (lines if _ALL.search(text) or len(lines) == 1 else [])
        items = [{"sku": line["sku"]} for line in named]
        args = {"order_number": number, "items": items, "reason": reason}
        return (intent, args | {"defective": reason == DAMAGED}) if items else None
    if intent == Skill.EXCHANGE_ITEMS:
        return _exchange(text, lines, number, reason)
    if intent == Skill.MODIFY_ORDER_ITEMS:
        return _change(text, lines, number)
    return None


def refund_items(inquiry: str, order: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The one item of a multi-item order a refund request is about, if the text names one,
    and how many of it when the text says ("one of the two towels" is one towel's price)."""
    lines = [line for line in order.get("lines") or [] if isinstance(line, dict)]
    part = _part_of_line(_folded(inquiry))
    named = named_lines(_folded(inquiry), lines) or (lines if len(lines) == 1 and part else [])
    if len(named) != 1 or (len(lines) < 2 and not part):
        return None
    return [{"sku": named[0]["sku"]} | ({"quantity": part} if part else {})]


# How many of a line's units a complaint is about: "one of the two towels", 「2枚のうち1枚」.
_PART: Final = re.compile(
    r"\b(one|two|three|\d+) of (?:the|my|those|these|them)\b"
    r"|のうち\s*(\d+)\s*(?:個|つ|点|枚|本|組)|(\d+)\s*(?:個|つ|点|枚|本|組)(?:だけ|のみ|が)"
)
_NUMBER_WORDS: Final = {"one": 1, "two": 2, "three": 3}


def _part_of_line(text: str) -> int | None:
    match = _PART.search(text)
    if match is None:
        return None
    said = next(group for group in match.groups() if group)
    return _NUMBER_WORDS.get(said) or int(said)


def named_lines(text: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines whose SKU or a distinctive part of whose name the (folded) text contains."""
    return [line for line in lines if _names(text, line)]


def _names(text: str, line: dict[str, Any]) -> bool:
    if _folded(str(line.get("sku") or "")) in text:
        return True
    name = _folded(str(line.get("name") or ""))
    name_words = set(name.split())  # a one-character run counts only as a whole word: 箸
    runs = [run for run in _JA_RUN.findall(text) if run not in _JA_GENERIC]
    if any(run in name if len(run) > 1 else run in name_words for run in runs):
        return True
    words = set(_EN_WORD.findall(_folded(str(line.get("name_en") or ""))))
    said = {w.removesuffix("s") for w in _EN_WORD.findall(text)} | set(_EN_WORD.findall(text))
    return bool((words - _EN_GENERIC) & said)


def _exchange(text: str, lines: list[dict[str, Any]], number: str, reason: str) -> Call | None:
    named = named_lines(text, lines) or (lines if len(lines) == 1 else [])
    if len(named) != 1:
        return None
    sku = str(named[0]["sku"])
    current = str(named[0].get("variant") or sku.rsplit("-", 1)[-1]).upper()
    wanted = [size for size in _sizes(text) if size != current] or _relative_size(text, current)
    sold_in_sizes = bool(named[0].get("other_variants", True))
    if not wanted and sold_in_sizes:
        return None  # which size is a person's question, not a guess
    # An item sold in one size only is still asked for: the shop's refusal says so.
    variant = wanted[0] if wanted else "another size"
    args = {"order_number": number, "item": sku, "new_variant": variant, "reason": reason}
    return (Skill.EXCHANGE_ITEMS, args)


def _sizes(text: str) -> list[str]:
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


def _relative_size(text: str, current: str) -> list[str]:
    """ "A bigger size", 「ワンサイズ大きい」: the size next to the one owned, if there is one."""
    ladder = list(reversed(_SIZES))  # S, M, L, XL, XXL
    if current not in ladder:
        return []
    step = 1 if _BIGGER.search(text) else -1 if _SMALLER.search(text) else 0
    index = ladder.index(current) + step
    return [ladder[index]] if step and 0 <= index < len(ladder) else []


def _change(text: str, lines: list[dict[str, Any]], number: str) -> Call | None:
    named = named_lines(text, lines)
    if not named:
        return None
    quantity = _quantity(text)
    if quantity is None and not _REMOVE.search(text):
        return None
    items = [{"sku": line["sku"], "quantity": quantity or 0} for line in named]
    return (Skill.MODIFY_ORDER_ITEMS, {"order_number": number, "items": items})


def _quantity(text: str) -> int | None:
    match = _QUANTITY.search(text)
    if match is None:
        return None
    return int(match.group(1) or match.group(2))


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()
