"""The delivery window a customer asks for, snapped to the carrier's slots.

An explicit range that is a slot ("14時〜16時", "2-4pm") is that slot; any other hour or range
gives the slot its start falls in. Words: 午前/morning -> 08-12, 昼/noon -> 12-14,
夕方/evening and 夜/night -> 18-21. A bare "午後"/"afternoon" spans three slots, so it gives
none: the shipping agent asks rather than guesses.
"""

from __future__ import annotations

import re

SLOTS: tuple[tuple[int, int], ...] = ((8, 12), (12, 14), (14, 16), (16, 18), (18, 21))

_SEP = r"\s*(?:〜|~|-|–|ー|から|より|to|and|until|till)\s*"
_RANGE = re.compile(
    rf"(午前|午後)?\s*(\d{{1,2}})\s*(?:時(?!間)|:00)(?:\s*\d{{1,2}}分)?\s*(am|pm)?{_SEP}"
    r"(午前|午後)?\s*(\d{1,2})\s*(?:時|:00)?\s*(am|pm)?",
    re.IGNORECASE,
)
_RANGE_EN = re.compile(rf"\b(\d{{1,2}})\s*(am|pm)?{_SEP}(\d{{1,2}})\s*(am|pm)\b", re.IGNORECASE)
_HOUR = re.compile(
    r"(午前|午後)?\s*(\d{1,2})\s*時(?!間)|\b(\d{1,2})(?::\d{2})?\s*(am|pm)\b|\b(\d{1,2}):\d{2}\b",
    re.IGNORECASE,
)
_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"午前|(?<!good )\bmorning\b|\ba\.m\.", re.IGNORECASE), "08-12"),
    (re.compile(r"お?昼|正午|\bnoon\b|\bmidday\b|\blunch", re.IGNORECASE), "12-14"),
    (re.compile(r"夕方|夜|\bevening\b|\bnight\b|\btonight\b", re.IGNORECASE), "18-21"),
)


def to_24h(hour: int, marker: str | None) -> int:
    marker = (marker or "").lower()
    if marker in ("午後", "pm") and hour < 12:
        return hour + 12
    if marker in ("午前", "am") and hour == 12:
        return 0
    # Nobody asks for a parcel at 3 in the night: a bare "3時" or "5時以降" is the afternoon.
    if not marker and 1 <= hour <= 7:
        return hour + 12
    return hour


def snap(start: int, end: int | None = None) -> str:
    """The slot (start, end) is, or the one ``start`` falls in."""
    if (start, end) in SLOTS:
        return f"{start:02d}-{end:02d}"
    for slot_start, slot_end in SLOTS:
        if slot_start <= start < slot_end:
            return f"{slot_start:02d}-{slot_end:02d}"
    first, last = SLOTS[0], SLOTS[-1]
    chosen = first if start < first[0] else last
    return f"{chosen[0]:02d}-{chosen[1]:02d}"


def find_time_window(text: str) -> str | None:
    """The delivery window asked for, or None."""
    for finder in (_explicit_range, _english_range, _single_hour, _word_window):
        window = finder(text)
        if window is not None:
            return window
    return None


def _explicit_range(text: str) -> str | None:
    match = _RANGE.search(text)
    if match is None:
        return None
    start = to_24h(int(match[2]), match[1] or match[3] or match[4] or match[6])
    end = to_24h(int(match[5]), match[4] or match[6] or match[1])
    return snap(start, end)


def _english_range(text: str) -> str | None:
    match = _RANGE_EN.search(text)
    if match is None:
        return None
    start = to_24h(int(match[1]), match[2] or match[4])
    return snap(start, to_24h(int(match[3]), match[4]))


def _single_hour(text: str) -> str | None:
    match = _HOUR.search(text)
    if match is None:
        return None
    if match[2]:
        return snap(to_24h(int(match[2]), match[1]))
    if match[3]:
        return snap(to_24h(int(match[3]), match[4]))
    return snap(int(match[5]))


def _word_window(text: str) -> str | None:
    found = [
        (match.start(), window) for pattern, window in _WORDS if (match := pattern.search(text))
    ]
    return min(found)[1] if found else None
