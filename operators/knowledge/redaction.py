"""A customer's details taken out of a text, so an exchange can become a help article.

What an operator wrote to one customer names that customer's order, parcel, address and
person; an article is read by everyone. ``customer_details_stripped`` replaces each detail
with a placeholder in the article's language ("[order number]", 「［注文番号］」), which the
manager reads as a gap to fill or to cut. Pure: no database; the caller passes the details it
knows of the customer (name, email, addresses) to be sure those go, whatever their form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Final

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from netshop.addresses import DESIGNATED_CITIES, PREFECTURES
from netshop.services.coupons import CODE_PATTERN


class Detail(StrEnum):
    """The kinds of customer detail an article must not carry."""

    KNOWN = "known"  # a value the caller knows is the customer's (their name, email, address)
    EMAIL = "email"
    ORDER = "order"
    TRACKING = "tracking"
    COUPON = "coupon"
    POSTAL_CODE = "postal_code"
    PHONE = "phone"
    ADDRESS = "address"
    NAME = "name"


PLACEHOLDERS: Final[dict[Detail, Promise]] = {
    Detail.KNOWN: _("[customer detail]"),
    Detail.EMAIL: _("[email address]"),
    Detail.ORDER: _("[order number]"),
    Detail.TRACKING: _("[tracking number]"),
    Detail.COUPON: _("[coupon code]"),
    Detail.POSTAL_CODE: _("[postal code]"),
    Detail.PHONE: _("[phone number]"),
    Detail.ADDRESS: _("[address]"),
    Detail.NAME: _("[name]"),
}

_DIGIT = "[0-9０-９]"
_DASH = "[-‐‑–—−－ー]"
_KANJI_NAME = "[\u3400-\u4dbf\u4e00-\u9fff々]{1,4}(?:[ 　]?[\u3400-\u4dbf\u4e00-\u9fff々]{1,4})?"
_KATAKANA_NAME = "[\u30a1-\u30fa\u30fc]{2,8}(?:[ 　・][\u30a1-\u30fa\u30fc]{2,8})?"
_SEPARATOR = rf"(?:{_DASH}|[\s()（）])"
_ADDRESS_CHAR = "[\u3400-\u4dbf\u4e00-\u9fff々\u30a1-\u30fa\u30fc0-9０-９\\-－‐丁目番地号]"
_ENGLISH_NAME = r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?"
_PREFECTURE = (
    "|".join(name for name, _ in PREFECTURES)
    + "|"
    + "|".join(city for city, _, _ in DESIGNATED_CITIES)
)
_ROMAJI = "|".join([*(r for _, r in PREFECTURES), *(r for _, r, _ in DESIGNATED_CITIES)])
# The words a name with an honorific may be, that are no one's name (お客様, 皆様, 担当者様).
_NOT_NAMES: Final = frozenset(
    {"客", "皆", "各位", "担当", "担当者", "業者", "配達員", "奥", "神", "家族"}
)

# In the order they are applied: an email before the name in it, a tracking number (12
# digits in threes of four) before a phone number could claim its digits, a postal code
# (two groups, not followed by a third) before a phone number (three).
PATTERNS: Final[tuple[tuple[Detail, re.Pattern[str]], ...]] = (
    (Detail.EMAIL, re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")),
    (Detail.ORDER, re.compile(rf"[OＯ][RＲ][DＤ](?:{_DASH}|[\s_])*{_DIGIT}+", re.IGNORECASE)),
    (
        Detail.TRACKING,
        re.compile(rf"(?<![0-9０-９]){_DIGIT}{{4}}(?:{_DASH}?{_DIGIT}{{4}}){{2}}(?![0-9０-９])"),
    ),
    (Detail.COUPON, CODE_PATTERN),
    (
        Detail.POSTAL_CODE,
        re.compile(
            rf"〒\s*{_DIGIT}{{3}}{_DASH}?{_DIGIT}{{4}}"
            rf"|(?<![0-9０-９]){_DIGIT}{{3}}{_DASH}{_DIGIT}{{4}}(?![0-9０-９]|{_DASH})"
        ),
    ),
    (
        Detail.PHONE,
        re.compile(
            rf"(?:\+81[\s-]?{_DIGIT}{{1,4}}|(?<![0-9０-９])[0０]{_DIGIT}{{1,4}})"
            rf"{_SEPARATOR}?{_DIGIT}{{1,4}}{_SEPARATOR}?{_DIGIT}{{3,4}}(?![0-9０-９])"
        ),
    ),
    # A Japanese address: its prefecture (or ward-divided city) and what follows in address
    # characters (no hiragana: "東京都内は翌日" is no address), with a number in it.
    (Detail.ADDRESS, re.compile(rf"(?:{_PREFECTURE}){_ADDRESS_CHAR}*?{_DIGIT}{_ADDRESS_CHAR}*")),
    # An English one: a house number, its streets and wards, up to a prefecture or a city.
    (
        Detail.ADDRESS,
        re.compile(
            rf"\b\d+(?:-\d+)*(?:\s+[A-Z][\w\-]*)*(?:,\s*[A-Z][\w\- ]*){{0,3}},?\s*"
            rf"(?:{_ROMAJI})\b(?:-(?:to|fu|ken|shi))?(?:,?\s*Japan)?"
        ),
    ),
)
_HONORIFIC_NAME: Final = re.compile(
    rf"(?P<name>{_KANJI_NAME}|{_KATAKANA_NAME})(?P<title>様|さま|さん|殿)"
)
_TITLED_NAME: Final = re.compile(rf"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr)\.?\s+{_ENGLISH_NAME}")
_GREETED_NAME: Final = re.compile(rf"\b(?P<greeting>Dear|Hello|Hi)\s+(?P<name>{_ENGLISH_NAME})\b")


def customer_details_stripped(text: str, *, language: str, known: Iterable[str] = ()) -> str:
    """``text`` without the customer's details, each replaced by its placeholder written in
    ``language`` (the article's)."""
    with translation.override(language):
        said = {detail: str(placeholder) for detail, placeholder in PLACEHOLDERS.items()}
    for value in sorted({v.strip() for v in known if len(v.strip()) >= 2}, key=len, reverse=True):
        text = re.sub(re.escape(value), said[Detail.KNOWN], text, flags=re.IGNORECASE)
    for detail, pattern in PATTERNS:
        text = pattern.sub(said[detail], text)
    text = _HONORIFIC_NAME.sub(_unless_no_name(said[Detail.NAME]), text)
    text = _TITLED_NAME.sub(said[Detail.NAME], text)
    return _GREETED_NAME.sub(lambda m: f"{m['greeting']} {said[Detail.NAME]}", text)


def _unless_no_name(placeholder: str) -> Callable[[re.Match[str]], str]:
    """お客様 and 担当者様 stay; 山田様 becomes the placeholder with its honorific."""

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name in _NOT_NAMES or name.endswith(tuple(_NOT_NAMES)):
            return match[0]
        return f"{placeholder}{match['title']}"

    return replace
