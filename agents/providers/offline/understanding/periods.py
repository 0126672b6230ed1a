"""Periods an inquiry asks about ("今月の注文", "orders I placed in October")."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable

from agents.providers.offline.understanding.dates import (
    MONTH_NAME,
    Span,
    month_number,
    week_start,
    without_overlaps,
)

Period = tuple[dt.date, dt.date]
PeriodResolver = Callable[[re.Match[str], dt.date], Period]

_WEEKDAY_AFTER = r"(?!\s*(?:の\s*)?[月火水木金土日]曜)(?!\s*(?:on\s+)?[a-z]+day\b)"


def month_range(year: int, month: int) -> Period:
    last = calendar.monthrange(year, month)[1]
    return dt.date(year, month, 1), dt.date(year, month, last)


def shifted_month(today: dt.date, months: int) -> Period:
    index = today.year * 12 + today.month - 1 + months
    return month_range(index // 12, index % 12 + 1)


def recent_month(month: int, today: dt.date) -> Period:
    """The most recent month with this number that has begun."""
    year = today.year if month <= today.month else today.year - 1
    return month_range(year, month)


def months_back(today: dt.date, months: int) -> dt.date:
    start, _ = shifted_month(today, -months)
    last = calendar.monthrange(start.year, start.month)[1]
    return start.replace(day=min(today.day, last))


def _count(match: re.Match[str]) -> int:
    return int(next(group for group in match.groups() if group))


def _this_week(match: re.Match[str], today: dt.date) -> Period:
    return week_start(today), week_start(today) + dt.timedelta(days=6)


def _last_week(match: re.Match[str], today: dt.date) -> Period:
    return week_start(today, -1), week_start(today, -1) + dt.timedelta(days=6)


def _year_month(match: re.Match[str], today: dt.date) -> Period:
    return month_range(int(match[1]), int(match[2]))


def _month_ja(match: re.Match[str], today: dt.date) -> Period:
    return recent_month(int(match[1]), today)


def _month_en(match: re.Match[str], today: dt.date) -> Period:
    month = month_number(match[1].lower())
    return month_range(int(match[2]), month) if match[2] else recent_month(month, today)


def _fixed_month(offset: int) -> PeriodResolver:
    return lambda match, today: shifted_month(today, offset)


def _fixed_year(offset: int) -> PeriodResolver:
    def resolve(match: re.Match[str], today: dt.date) -> Period:
        return dt.date(today.year + offset, 1, 1), dt.date(today.year + offset, 12, 31)

    return resolve


PERIOD_PATTERNS: tuple[tuple[re.Pattern[str], PeriodResolver], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), resolver)
    for pattern, resolver in (
        (r"今月|\bthis month\b", _fixed_month(0)),
        (r"先々月", _fixed_month(-2)),
        (r"先月|\b(?:last|previous) month\b", _fixed_month(-1)),
        (r"来月|\bnext month\b", _fixed_month(1)),
        (r"今年|\bthis year\b", _fixed_year(0)),
        (r"去年|昨年|\blast year\b", _fixed_year(-1)),
        (rf"今週{_WEEKDAY_AFTER}|\bthis week\b{_WEEKDAY_AFTER}", _this_week),
        (r"先週|\blast week\b", _last_week),
        (r"(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月(?!\s*\d{1,2}\s*日)", _year_month),
        (r"(?<![\d年])(\d{1,2})\s*月(?!\s*\d{1,2}\s*日)", _month_ja),
        (
            rf"\b(?:in|during|from|for|since|of|last|this past|back in)\s+{MONTH_NAME}\b"
            r"(?:\s+(\d{4}))?(?!\s*\d{1,2}\b)",
            _month_en,
        ),
        (
            r"過去\s*(\d+)\s*(?:ヶ|か|カ|ケ|箇|ヵ)月|\b(?:past|last)\s+(\d+)\s+months?\b",
            lambda match, today: (months_back(today, _count(match)), today),
        ),
        (
            r"過去\s*(\d+)\s*週間?|\b(?:past|last)\s+(\d+)\s+weeks?\b",
            lambda match, today: (today - dt.timedelta(weeks=_count(match)), today),
        ),
        (
            r"過去\s*(\d+)\s*日|\b(?:past|last)\s+(\d+)\s+days?\b",
            lambda match, today: (today - dt.timedelta(days=_count(match)), today),
        ),
    )
)


def find_period(text: str, today: dt.date) -> Period | None:
    """The first period the text names, if any."""
    found = [
        (Span(match.start(), match.end()), resolver(match, today))
        for pattern, resolver in PERIOD_PATTERNS
        for match in pattern.finditer(text)
    ]
    kept = without_overlaps(found)
    return kept[0][1] if kept else None
