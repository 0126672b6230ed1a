"""Reading a reply as a customer would: its language, the facts it states, dates in the forms
people write them. Pure functions; the measures are ``shared/eval``'s, so verdicts agree."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Final

ORDER_NUMBER: Final = re.compile(r"ORD-\d{4}")
_KANA: Final = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_CJK: Final = re.compile(r"[\u4e00-\u9fff]")
_LATIN: Final = re.compile(r"[A-Za-z]")
# A Japanese reply has at least this much kana and this share of Japanese script; an English
# one at most this share (product names the shop has only in Japanese) and some words.
JA_MIN_KANA: Final = 5
JA_MIN_SHARE: Final = 0.5
EN_MAX_SHARE: Final = 0.05
EN_MIN_LATIN: Final = 20
MONTHS: Final = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def norm(text: str) -> str:
    """NFKC: full-width digits and letters read as the half-width ones."""
    return unicodedata.normalize("NFKC", text or "")


def mentions(reply: str, needle: str) -> bool:
    """Whether ``reply`` states ``needle`` (width and case aside)."""
    return norm(needle).lower() in norm(reply).lower()


def language_check(reply: str, lang: str) -> tuple[bool, str]:
    """Whether ``reply`` is written in ``lang``, and the share of Japanese script it has."""
    kana = len(_KANA.findall(reply))
    japanese = kana + len(_CJK.findall(reply))
    latin = len(_LATIN.findall(reply))
    share = japanese / max(japanese + latin, 1)
    why = f"japanese share {share:.2f}"
    if lang == "ja":
        return kana >= JA_MIN_KANA and share >= JA_MIN_SHARE, why
    return share <= EN_MAX_SHARE and latin >= EN_MIN_LATIN, why


def date_spellings(day: dt.date) -> list[str]:
    """The ways a reply may write ``day`` (ISO, slashes, 12月10日, "December 10", "10th of ...")."""
    full = MONTHS[day.month - 1]
    short = full[:3]
    d, m, y = day.day, day.month, day.year
    return [
        day.isoformat(),
        f"{y}/{m:02d}/{d:02d}",
        f"{y}/{m}/{d}",
        f"{m}月{d}日",
        f"{m}/{d}",
        f"{m:02d}/{d:02d}",
        f"{full} {d}",
        f"{short} {d}",
        f"{short}. {d}",
        f"{d} {full}",
        f"{d} {short}",
        f"{full} {d}th",
        f"{d}th of {full}",
    ]


def repeated_paragraphs(reply: str) -> list[str]:
    """Paragraphs (over 15 characters) the reply says more than once."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", reply) if len(p.strip()) > 15]
    return sorted({p for p in paragraphs if paragraphs.count(p) > 1})
