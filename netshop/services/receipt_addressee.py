"""The name a receipt is made out to (宛名): a person's or a company's name, and nothing else.

The addressee is printed large on an official-looking receipt, just above the amount, so any
text the customer chose there could forge a second amount line ("金額 ¥999,999 (税込)") or,
with an invisible bidi override (U+202E), show something else than what was checked. A name
is letters (any script), with the spaces, digits and punctuation names carry ("Acme Trading
Ltd.", "株式会社ネットショップ 御中", "O'Brien & Co."); an amount, a currency, tax or receipt
wording, a control or format character, or anything that is not plausibly a name is refused
with ``receipt_addressee_invalid`` and a variant saying which rule refused it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from netshop.errors import DomainError

MAX_ADDRESSEE: Final = 60

# Punctuation names carry: "Co., Ltd.", "O'Brien", "Smith & Sons", "Hewlett-Packard",
# "ヤマダ・タロウ", "(株)", "A/S", "Yahoo!". Colons, equals, plus, percent, brackets of other
# shapes and every symbol (currency, maths, emoji) are not in it.
_NAME_PUNCTUATION: Final = frozenset(" .,&'’-‐・()/!")
# Words that only an amount line carries (matched after NFKC, in any case): the receipt's own
# wording (金額, 但し, 領収) and money, tax and totals. A surname with 円 (円山, 円谷) stays a
# name: 円 is refused only after a number (12,800円, 九十九万円).
_MONEY_WORDS_JA: Final = (
    "金額",
    "税込",
    "税抜",
    "税別",
    "消費税",
    "内税",
    "外税",
    "合計",
    "小計",
    "総額",
    "代金",
    "但し",
    "領収",
)
_MONEY_WORDS_EN: Final = re.compile(
    r"\b(?:yen|jpy|usd|eur|gbp|dollars?|total|subtotal|amount|tax(?:es)?|incl|excl|"
    r"vat|price|paid|sum)\b",
    re.IGNORECASE,
)
# Digits that read as money: grouped (999,999 / 12.800) or four and more in a row.
_MONEY_DIGITS: Final = re.compile(r"\d{1,3}(?:[,.]\d{3})+|\d{4,}")
_YEN_AFTER_NUMBER: Final = re.compile(r"(\S)\s*円")
# The honorifics a name may already end with (株式会社サンプル 御中): none is added to them.
_HONORIFICS: Final = ("様", "御中", "殿", "さま")


def receipt_addressee_clean(addressee: str) -> str:
    """``addressee`` with its runs of whitespace made one space ('' for none), refused if it
    is not a name.

    Refused (``receipt_addressee_invalid``), first rule that applies: ``control`` (a control,
    format or bidi character: invisible, it can reorder what is printed), ``too_long`` (over
    ``MAX_ADDRESSEE`` characters: cut, it would name someone else), ``amount`` (an amount,
    a currency or tax wording), and the plain code when it is not a name at all.
    """
    name = " ".join(addressee.split())
    if not name:
        return ""  # none asked for: the caller addresses it to the customer
    if any(unicodedata.category(char)[0] == "C" for char in name):
        raise DomainError("receipt_addressee_invalid", variant="control")
    if len(name) > MAX_ADDRESSEE:
        raise DomainError("receipt_addressee_invalid", variant="too_long", limit=MAX_ADDRESSEE)
    plain = unicodedata.normalize("NFKC", name)
    if _looks_like_money(plain):
        raise DomainError("receipt_addressee_invalid", variant="amount")
    if not _looks_like_a_name(plain):
        raise DomainError("receipt_addressee_invalid")
    return name


def _looks_like_money(plain: str) -> bool:
    if any(unicodedata.category(char) == "Sc" for char in plain):
        return True
    if any(word in plain for word in _MONEY_WORDS_JA):
        return True
    if _MONEY_WORDS_EN.search(plain) or _MONEY_DIGITS.search(plain):
        return True
    return any(_is_numeral(match.group(1)) for match in _YEN_AFTER_NUMBER.finditer(plain))


def _is_numeral(char: str) -> bool:
    """A digit or a kanji numeral (一, 十, 万, 〇): Unicode gives them all a numeric value."""
    return unicodedata.numeric(char, None) is not None


def _looks_like_a_name(plain: str) -> bool:
    """Letters at least, and only letters, marks, numbers and a name's punctuation."""
    if not any(unicodedata.category(char).startswith("L") for char in plain):
        return False
    return all(
        unicodedata.category(char)[0] in "LMN" or char in _NAME_PUNCTUATION for char in plain
    )


def receipt_addressee_has_honorific(name: str) -> bool:
    """Whether ``name`` ends with its honorific (御中, 様): printed as written, not "御中 様"."""
    return name.rstrip().endswith(_HONORIFICS)
