"""Dates and periods mentioned in an inquiry, resolved against the shop's today.

Conventions: "来週の水曜日" / "next Wednesday" / "Wednesday next week" / "next week's
Wednesday" is the Wednesday of next week (weeks start on Monday); "今週土曜" / "this
Saturday" / "Saturday this week" the coming one, today included; a bare "土曜" / "on
Saturday" the next one after today. "The weekend" / "週末" is its Saturday (today, on a
weekend day), and counts only when no day after today is named: it is vaguer than one. A
day and month without a year ("12月5日", "12/5") take the year that puts them nearest to
today (a past date counts 1.5 times as far); a day alone ("20日に", "the 20th") is the next
such day. Periods ("10月", "in October") are in ``periods``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
Resolver = Callable[[re.Match[str], dt.date], dt.date | None]

WEEKDAYS_JA = "月火水木金土日"
WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS_EN = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
MONTH_NAME = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WEEKDAY_EN = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
# A week named with its day: "Saturday (of) next week", "next week's Saturday".
_WEEK_EN = (
    r"(?P<week>this\s+week|next\s+week|(?:the\s+)?following\s+week|(?:the\s+)?week\s+after\s+next)"
)
_DAY_EN = r"(?P<day>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_RELATIVE_DAYS = {
    "明後日": 2,
    "あさって": 2,
    "day after tomorrow": 2,
    "明日": 1,
    "あした": 1,
    "tomorrow": 1,
    "今日": 0,
    "本日": 0,
    "today": 0,
    "一昨日": -2,
    "おととい": -2,
    "day before yesterday": -2,
    "昨日": -1,
    "きのう": -1,
    "yesterday": -1,
}


PAST_WEIGHT = 1.5


@dataclass(frozen=True)
class Span:
    start: int
    end: int


def month_number(name: str) -> int:
    return next(i for i, month in enumerate(MONTHS_EN, start=1) if month.startswith(name[:3]))


def safe_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def nearest_year(month: int, day: int, today: dt.date) -> dt.date | None:
    """The date with this month and day nearest to today, leaning to the future: customers
    name days to deliver on more often than days they ordered on."""
    candidates = [safe_date(today.year + offset, month, day) for offset in (-1, 0, 1)]
    valid = [candidate for candidate in candidates if candidate is not None]
    return min(valid, key=lambda candidate: _distance(candidate, today), default=None)


def _distance(candidate: dt.date, today: dt.date) -> float:
    days = (candidate - today).days
    return days if days >= 0 else -days * PAST_WEIGHT


def upcoming_day(day: int, today: dt.date) -> dt.date | None:
    """A day of the month alone ("20日に", "the 20th"): this month's, or next month's if past."""
    this_month = safe_date(today.year, today.month, day)
    if this_month is not None and this_month >= today:
        return this_month
    year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return safe_date(year, month, day)


def week_start(today: dt.date, weeks_ahead: int = 0) -> dt.date:
    return today - dt.timedelta(days=today.weekday()) + dt.timedelta(weeks=weeks_ahead)


# The week a qualifier names, in weeks from this one: "next week's Saturday", "来週の土曜".
WEEKS_AHEAD = {
    "来週": 1, "next": 1, "following": 1, "the following": 1,
    "再来週": 2, "week after next": 2, "the week after next": 2,
}  # fmt: skip
SATURDAY = 5


def weekday_date(weekday: int, qualifier: str, today: dt.date) -> dt.date:
    """Resolve a weekday by its qualifier: this, next (week), the week after, or bare."""
    if qualifier in WEEKS_AHEAD:
        return week_start(today, WEEKS_AHEAD[qualifier]) + dt.timedelta(days=weekday)
    ahead = (weekday - today.weekday()) % 7
    if ahead == 0 and qualifier not in ("今週", "this", "今日"):
        ahead = 7
    return today + dt.timedelta(days=ahead)


def weekend_date(qualifier: str, today: dt.date) -> dt.date:
    """The Saturday of the weekend named: next week's, or this one (today, on a weekend)."""
    if qualifier in WEEKS_AHEAD:
        return week_start(today, WEEKS_AHEAD[qualifier]) + dt.timedelta(days=SATURDAY)
    return max(today, week_start(today) + dt.timedelta(days=SATURDAY))


# --- single dates ---------------------------------------------------------------------------


def _full_date(match: re.Match[str], today: dt.date) -> dt.date | None:
    return safe_date(int(match[1]), int(match[2]), int(match[3]))


def _month_day(match: re.Match[str], today: dt.date) -> dt.date | None:
    return nearest_year(int(match[1]), int(match[2]), today)


def _month_name_day(match: re.Match[str], today: dt.date) -> dt.date | None:
    return nearest_year(month_number(match[1]), int(match[2]), today)


def _day_month_name(match: re.Match[str], today: dt.date) -> dt.date | None:
    return nearest_year(month_number(match[2]), int(match[1]), today)


def _day_only(match: re.Match[str], today: dt.date) -> dt.date | None:
    return upcoming_day(int(match[1] or match[2]), today)


def _relative_day(match: re.Match[str], today: dt.date) -> dt.date | None:
    return today + dt.timedelta(days=_RELATIVE_DAYS[match[0].lower()])


def _days_later(match: re.Match[str], today: dt.date) -> dt.date | None:
    return today + dt.timedelta(days=int(match[1] or match[2]))


def _weekday_ja(match: re.Match[str], today: dt.date) -> dt.date | None:
    qualifier = {"次の": "", "今度の": "", "この": "今週"}.get(match[1] or "", match[1] or "")
    return weekday_date(WEEKDAYS_JA.index(match[2]), qualifier, today)


def _weekday_en(match: re.Match[str], today: dt.date) -> dt.date | None:
    qualifier = (match[1] or "").lower()
    qualifier = "" if qualifier in ("coming", "this coming", "on", "by", "until") else qualifier
    return weekday_date(WEEKDAYS_EN.index(match[2].lower()), qualifier, today)


def _weekday_of_week_en(match: re.Match[str], today: dt.date) -> dt.date | None:
    """ "Saturday next week", "next week's Saturday": the week named, then its day."""
    week = re.sub(r"^the\s+|\s+week$", "", " ".join(match["week"].lower().split()))
    return weekday_date(WEEKDAYS_EN.index(match["day"].lower()), week, today)


def _weekend(match: re.Match[str], today: dt.date) -> dt.date | None:
    qualifier = " ".join((match[1] or "").lower().split())
    return weekend_date({"来": "来週", "再来": "再来週"}.get(qualifier, qualifier), today)


DATE_PATTERNS: tuple[tuple[re.Pattern[str], Resolver], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), resolver)
    for pattern, resolver in (
        (r"(?<!\d)(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})(?!\d)", _full_date),
        (r"(?<!\d)(\d{1,2})\s*月\s*(\d{1,2})\s*日", _month_day),
        (r"(?<![\d/])(\d{1,2})/(\d{1,2})(?![\d/])", _month_day),
        (rf"\b{MONTH_NAME}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?::|yen|円))", _month_name_day),
        (rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_NAME}\b", _day_month_name),
        ("|".join(re.escape(word) for word in _RELATIVE_DAYS), _relative_day),
        (
            r"(?<![\d月/])(\d{1,2})\s*日(?=\s*(?:に|まで|以降|頃|ごろ|から|の(?:午前|午後|夕方|夜|\d)))"
            r"|\bthe (\d{1,2})(?:st|nd|rd|th)\b",
            _day_only,
        ),
        # 「3日後」 is a day; 「3日後ろに」 shifts the scheduled one (``find_date_shift``)
        (r"(?<!\d)(\d{1,2})\s*日後(?!ろ|倒し)|\bin (\d{1,2}) days\b", _days_later),
        (r"(今週|来週|再来週|次の|今度の|この)?[\s、,]*の?\s*([月火水木金土日])曜", _weekday_ja),
        (
            rf"\b(?:(?:on|by|until|for)\b)?\s*{_DAY_EN},?\s+(?:of\s+|in\s+)?{_WEEK_EN}\b",
            _weekday_of_week_en,
        ),
        (rf"\b{_WEEK_EN}(?:'s|\s+on|\s*,)?\s+{_DAY_EN}\b", _weekday_of_week_en),
        (rf"\b(this coming|this|next|coming|on|by|until)?\s*{_WEEKDAY_EN}\b", _weekday_en),
    )
)
# "The weekend" only when no day is named ("away this weekend, so Friday please": Friday).
WEEKEND_PATTERNS: tuple[tuple[re.Pattern[str], Resolver], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), _weekend)
    for pattern in (
        r"(再来|来|今|この|次の|今度の)?\s*週末",
        r"\b(this coming|this|next|coming|the following|following|over the|on the|at the|the)"
        r"\s+weekend\b",
    )
)


# --- shifts of the scheduled date -----------------------------------------------------------

_COUNT_WORDS = {
    "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "a": 1,
    "a couple of": 2, "couple of": 2, "few": 3, "a few": 3,
}  # fmt: skip
_COUNT = r"(\d{1,2}|[一二三四五六七八九十]|one|two|three|four|five|six|seven|a couple of|a few|a)"
# 「遅く」 and 「遅め」 only as asked (「2日遅くして」), not as told (「2日遅くなりました」).
_LATER_ASKED_JA = r"遅(?:く|め)(?=して|に|で|でき|お願い)"
_LATER_JA = rf"(?:後ろ|うしろ|遅ら|延ば|のば|ずら|繰り下げ|後ろ倒し|{_LATER_ASKED_JA})"
_EARLIER_JA = r"(?:早め|早く|前倒し|繰り上げ)"
_SHIFT_JA = re.compile(
    rf"{_COUNT}\s*(日|週間?)\s*(?:ほど|くらい|ぐらい|程度)?\s*(?:(?P<earlier>{_EARLIER_JA})|{_LATER_JA})"
)
_SHIFT_EN = re.compile(
    rf"\b(?:push(?:ed)?|mov(?:e|ed)|put|delay(?:ed)?|postpon(?:e|ed)|shift(?:ed)?|bump(?:ed)?"
    rf"|bring|brought|pull(?:ed)?|change|reschedule)\b[^.?!。]{{0,40}}?\b(?:by )?{_COUNT}"
    rf" (day|week)s?\b(?P<tail>[^.?!。]{{0,20}})"
    rf"|\b{_COUNT} (day|week)s? (?P<direction>later|earlier|sooner|after|before)\b"
)
_EARLIER_EN = re.compile(r"\b(?:earlier|sooner|forward|up|bring|brought|pull(?:ed)?|before)\b")


def find_date_shift(text: str) -> int | None:
    """Days the customer asks to move the delivery by, relative to its scheduled date: "3日
    うしろにずらして" -> 3, "push it back two days" -> 2, "2日早めて" -> -2; None if not asked."""
    lowered = text.lower()
    if match := _SHIFT_JA.search(lowered):
        days = _count(match[1]) * (7 if match[2].startswith("週") else 1)
        return -days if match["earlier"] else days
    if match := _SHIFT_EN.search(lowered):
        count, unit = (match[1], match[2]) if match[1] else (match[4], match[5])
        days = _count(count) * (7 if unit == "week" else 1)
        words = match[0] if match[1] else (match["direction"] or "")
        earlier = _EARLIER_EN.search(words) and not re.search(r"\b(?:back|later|out)\b", words)
        return -days if earlier else days
    return None


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _COUNT_WORDS.get(word.strip(), 1)


def find_dates(text: str, today: dt.date) -> list[dt.date]:
    """Every date mentioned, without repeats: those from today on first, in the order of the
    text, then past ones. The first date is the one the customer asks for ("昨日不在だったので
    土曜に再配達して" -> Saturday, then yesterday), which is what the specialists act on.
    "The weekend" counts only when no day after today is named."""
    found = _matches(DATE_PATTERNS, text, today)
    if not any(value > today for _, value in found):
        found += _matches(WEEKEND_PATTERNS, text, today)
    dates: list[dt.date] = []
    for _, value in without_overlaps(found):
        if value not in dates:
            dates.append(value)
    return sorted(dates, key=lambda value: value < today)


def _matches(
    patterns: tuple[tuple[re.Pattern[str], Resolver], ...], text: str, today: dt.date
) -> list[tuple[Span, dt.date]]:
    found: list[tuple[Span, dt.date]] = []
    for pattern, resolver in patterns:
        for match in pattern.finditer(text):
            value = resolver(match, today)
            if value is not None:
                found.append((Span(match.start(), match.end()), value))
    return found


def without_overlaps(found: list[tuple[Span, T]]) -> list[tuple[Span, T]]:
    """Keep the earliest, then longest, of overlapping matches."""
    kept: list[tuple[Span, T]] = []
    for span, value in sorted(found, key=lambda item: (item[0].start, -item[0].end)):
        if not kept or span.start >= kept[-1][0].end:
            kept.append((span, value))
    return kept
