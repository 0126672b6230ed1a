"""Yen amounts, dates, times and delivery windows as a customer reads them, in ja and en.

Dates, clock times and amounts are formatted here (weekday and month abbreviations and
"2pm" are the format's, like the yen sign); words are the catalogue's. Every formatter
answers "" for a missing or malformed value, so a reply never shows ``None`` or a raw ISO
string. Times are shown in the shop's time zone (Japan).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Final

from agents.support.catalogue import Language, say
from netshop import money
from netshop.shop_time import SHOP_TZ

JA_WEEKDAYS: Final = "月火水木金土日"
EN_WEEKDAYS: Final = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EN_MONTHS: Final = (
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
)  # fmt: skip
MORNING: Final = "08-12"  # the morning window, named rather than timed
_WINDOW_RE: Final = re.compile(r"^(\d{1,2})-(\d{1,2})$")


def yen(lang: str, amount: object) -> str:
    """12800 -> "12,800円" (ja) or "¥12,800" (en): the shop's one formatter, in ``lang``."""
    return money.yen(amount, language=lang)


def moment_of(value: object) -> dt.datetime | None:
    """An ISO date-time as shop-local time (naive values are taken as shop-local)."""
    if not isinstance(value, str):
        return None
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=SHOP_TZ)
    return parsed.astimezone(SHOP_TZ)


def day_of(value: object) -> dt.date | None:
    """An ISO date, or the shop-local date of an ISO date-time."""
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        return None
    if len(value) > 10:
        moment = moment_of(value)
        return moment.date() if moment else None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def day(lang: str, value: object, today: dt.date | None = None) -> str:
    """An ISO date -> "12月3日(火)" / "Tue, Dec 3"; the year only if not this year's."""
    date = day_of(value)
    if date is None:
        return ""
    other_year = today is None or date.year != today.year
    if lang == "ja":
        year = f"{date.year}年" if other_year else ""
        return f"{year}{date.month}月{date.day}日({JA_WEEKDAYS[date.weekday()]})"
    year = f", {date.year}" if other_year else ""
    return f"{EN_WEEKDAYS[date.weekday()]}, {EN_MONTHS[date.month - 1]} {date.day}{year}"


def moment(lang: str, value: object, today: dt.date | None = None) -> str:
    """An ISO date-time -> "12月1日(日) 9:12" / "Sun, Dec 1 at 9:12" (shop-local)."""
    when = moment_of(value)
    if when is None:
        return ""
    clock = f"{when.hour}:{when.minute:02d}"
    joiner = " " if lang == "ja" else " at "
    return f"{day(lang, when.date(), today)}{joiner}{clock}"


def window(lang: Language, slot: object) -> str:
    """A delivery window "14-16" -> "14〜16時" / "between 2pm and 4pm"."""
    text = str(slot or "")
    if text == MORNING:
        return say(lang, "window.morning")
    match = _WINDOW_RE.match(text)
    if match is None:
        return ""
    start, end = (int(part) for part in match.groups())
    if lang == "ja":
        return say(lang, "window.between", start=start, end=end)
    return say(lang, "window.between", start=_twelve_hour(start), end=_twelve_hour(end))


def _twelve_hour(hour: int) -> str:
    if hour in (0, 24):
        return "midnight"
    if hour == 12:
        return "12pm"
    return f"{hour}am" if hour < 12 else f"{hour - 12}pm"


def order_ref(lang: Language, number: object) -> str:
    """How a sentence names an order: by its number, or vaguely if the number is unknown."""
    text = str(number or "").strip()
    return say(lang, "order.named", number=text) if text else say(lang, "order.unnamed")


def join(lang: Language, items: list[str]) -> str:
    """["a", "b", "c"] -> "a・b・c" / "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    head = say(lang, "list.and_separator").join(items[:-1])
    return say(lang, "list.and", head=head, last=items[-1])


def has_japanese(text: str) -> bool:
    return re.search(r"[\u3040-\u30ff\u3400-\u9fff]", text) is not None
