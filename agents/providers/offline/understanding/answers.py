"""Reading a customer's reply as the answer to the question the shop asked: which option.

"ORD-1004", "1004", "2", "2つ目の方です", "二番目", "the second one", "最後の", "yes" (when one
option was offered) each pick an option; anything else picks none. A reply that gives the
detail asked for ("It's ORD-1004, the towels", 「ORD-1004の包丁です」) asks nothing else,
unlike one that says a request of its own ("actually, where is ORD-1004?"). Pure, Japanese
and English, on NFKC text (full-width digits are digits).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from agents.providers.offline.understanding.classifier import has_own_intent
from agents.providers.offline.understanding.entities import order_numbers, without_orders
from agents.support.text import normalize

Option = Mapping[str, Any]

KANJI_NUMBERS: Final = {
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
EN_ORDINALS: Final = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
}
_JA_ORDINAL = re.compile(r"([1-9]|[一二三四五六七八九])\s*(?:つ目|つめ|番目|個目|件目|番)")
_EN_ORDINAL = re.compile(r"\b(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\b")
_EN_NUMBERED = re.compile(r"\b(?:number|no\.?|option|#)\s*([1-9])\b|#([1-9])\b")
# "last" picks the last option, but not in "the mug I got last week".
_LAST = re.compile(
    r"最後|一番下|\blatter\b|\blast\b(?!\s+(?:week|weekend|month|year|time|night|[a-z]+day)\b)"
)
_FIRST = re.compile(r"最初|一番上|\bformer\b")
_BARE_DIGITS = re.compile(r"(?<![\d\-])(\d{1,6})(?![\d\-])")
# Only digits and a few polite or punctuation words around them: "2", "2です", "2 please".
_ONLY_A_NUMBER = re.compile(
    r"^\s*(?:no\.?|number|#)?\s*(\d{1,2})\s*(?:です|で|でお願いします|番|please|thanks|thank you)?"
    r"\s*[.。!！]*\s*$"
)
_YES = re.compile(
    r"^\s*(?:yes|yeah|yep|yup|correct|right|that'?s (?:it|right|the one|correct)|that one"
    r"|exactly|sure)\b|^\s*(?:はい|ええ|うん|そうです|それです|その通り|そちら|お願いします)"
)
# The grammar of a question or a request, which the words of a mere answer never have:
# 「いつ届きますか」「教えてください」「変更したい」, "can you", "I'd like", "where".
_ASKS = re.compile(
    r"ください|下さい|ますか|ませんか|でしょうか|教えて|て(?:ほしい|欲しい)"
    r"|たい(?:です|のですが|んですが|[。、!！]|$)"
    r"|\b(?:can|could|would|will) (?:you|i|we)\b|\b(?:i|we)(?:['’]d| would)? (?:like|want|need)\b"
    r"|\b(?:where|when|why|how)\b"
)
_NO = re.compile(r"^\s*(?:no\b|nope|not that|いいえ|いえ|違い|ちがい|違う)")


def chosen_option(text: str, options: Sequence[Option]) -> str | None:
    """The value of the option ``text`` picks, or ``None`` when it picks none."""
    values = [str(option.get("value") or "") for option in options]
    if not values:
        return None
    plain = normalize(text).lower()
    by_number = _by_order_number(plain, values)
    if by_number is not None:
        return by_number
    index = _ordinal(plain, len(values))
    if index is not None:
        return values[index]
    if len(values) == 1 and _YES.search(plain) and not _NO.search(plain):
        return values[0]
    return None


def _by_order_number(plain: str, values: list[str]) -> str | None:
    """An order number, in full or by its digits ("1004"), that one option carries."""
    named = [n for n in order_numbers(plain) if n in values]
    if len(set(named)) == 1:
        return named[0]
    digits = [d for d in _BARE_DIGITS.findall(plain) if len(d) >= 3]
    matching = {v for v in values for d in digits if re.sub(r"\D", "", v) == d}
    return matching.pop() if len(matching) == 1 else None


def _ordinal(plain: str, count: int) -> int | None:
    """A position among ``count`` options, from 0: "2つ目", "second", "#2", "2", "last"."""
    position: int | None = None
    if _LAST.search(plain):
        position = count
    elif match := _JA_ORDINAL.search(plain):
        token = match.group(1)
        position = KANJI_NUMBERS.get(token) or int(token)
    elif match := _EN_ORDINAL.search(plain):
        position = EN_ORDINALS[match.group(1)]
    elif match := _EN_NUMBERED.search(plain):
        position = int(match.group(1) or match.group(2))
    elif match := _ONLY_A_NUMBER.search(plain):
        position = int(match.group(1))
    elif _FIRST.search(plain):
        position = 1
    if position is None or not 1 <= position <= count:
        return None
    return position - 1


def is_refusal(text: str) -> bool:
    """A reply that says "no" to what was offered ("no, ...", 「いえ、〜」)."""
    return bool(_NO.search(normalize(text).lower()))


def asks_nothing_else(text: str) -> bool:
    """Whether a reply asks for nothing beyond the detail it gives (an order number, an
    item, which one): its words around the order numbers neither read as a request to the
    router nor have a question's or a request's grammar.

    The router reads a named order with a few words ("It's ORD-1004.", 「ORD-1004です」) as
    a parcel to track, since a first message that names only an order usually asks for it;
    in a reply to the shop's question, the number is the answer and only the words can ask."""
    words = without_orders(text)
    return not has_own_intent(words) and not _ASKS.search(normalize(words).lower())
