"""Facts quoted in an inquiry: order and tracking numbers, yen amounts, dates, a delivery
window, a period and an order status. Hints to look things up with, never proof of identity."""

from __future__ import annotations

import datetime as dt
import re

from agents.contract.schemas import Entities
from agents.providers.offline.understanding.dates import (
    Span,
    find_date_shift,
    find_dates,
    without_overlaps,
)
from agents.providers.offline.understanding.periods import find_period
from agents.providers.offline.understanding.times import find_time_window
from agents.providers.offline.understanding.typos import prepare
from netshop.models import OrderStatus
from netshop.shop_time import shop_today

_ORDER_NUMBERS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"(?<![a-z])ord(?:er)?\s*(?:no\.?|number|num|#)?\s*(?:is\s*)?[\s\-_#:.]*(\d{3,6})"
        r"(?!\d|,\d|[万千/年月]|-\d|\s*(?:円|yen))",
        re.IGNORECASE,
    ),
    re.compile(
        r"注文(?:番号)?\s*(?:は|:|#|no\.?)?\s*(\d{3,6})(?!\d|,\d|[万千円/年月]|-\d)", re.IGNORECASE
    ),
)
_TRACKING_NUMBER = re.compile(r"(?<![\d,])(\d{4})[\s\-]?(\d{4})[\s\-]?(\d{4})(?!\d|,\d)")
_AMOUNT_PREFIXED = re.compile(r"(?:[¥\\]|\bjpy)\s*(\d[\d,]*)", re.IGNORECASE)
_AMOUNT_SUFFIXED = re.compile(
    r"(?<![\d,.])((?:\d[\d,]*(?:\.\d+)?\s*[万千]\s*)*\d[\d,]*(?:\.\d+)?"
    r"|(?:\d[\d,]*(?:\.\d+)?\s*[万千]\s*)+)"
    r"\s*(?:円|yen\b|jpy\b)",
    re.IGNORECASE,
)
# A sign or word right before an amount that makes it negative ("-5000円", "−¥5,000",
# "minus 5000 yen", "マイナス5000円", "▲5,000円"); a hyphen after a digit is a range instead.
_NEGATIVE_BEFORE = re.compile(
    r"(?:(?<![\d,.])[-\u2212\u2012\u2013\u2014\ufe63]|\bminus|マイナス|[▲△])\s*$", re.IGNORECASE
)
_AMOUNT_PART = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*([万千]?)")
_MULTIPLIERS = {"万": 10_000, "千": 1_000, "": 1}
_ORDER_STATUSES: tuple[tuple[OrderStatus, re.Pattern[str]], ...] = tuple(
    (status, re.compile(pattern, re.IGNORECASE))
    for status, pattern in (
        (
            OrderStatus.PENDING,
            r"未発送|発送前|保留|処理中|\bpending\b|\bprocessing\b|\bnot (?:yet )?shipped\b"
            r"|\bunshipped\b|\bhasn't (?:been )?shipped\b",
        ),
        (
            OrderStatus.CANCELLED,
            r"キャンセル済|取り?消し?済|キャンセルされ|取り?消され|\bcancell?ed\b",
        ),
        (OrderStatus.DELIVERED, r"配達済|配達完了|配達された|(?<!\bbe )\bdelivered\b"),
        (
            OrderStatus.SHIPPED,
            r"発送済|出荷済|発送され|出荷され|発送完了|(?<!\bbe )\b(?:shipped|dispatched)\b",
        ),
        (OrderStatus.CONFIRMED, r"注文確定|確定済|\bconfirmed\b"),
    )
)


def extract_entities(text: str, *, today: dt.date | None = None) -> Entities:
    """Every entity in ``text``; relative dates are resolved against ``today`` (shop's date)."""
    prepared = prepare(text)
    today = today or shop_today()
    period = find_period(prepared, today)
    return Entities(
        order_numbers=order_numbers(prepared),
        tracking_numbers=tracking_numbers(prepared),
        dates=[day.isoformat() for day in find_dates(prepared, today)],
        time_window=find_time_window(prepared),
        amounts=amounts(prepared),
        date_range=(period[0].isoformat(), period[1].isoformat()) if period else None,
        order_status=order_status(prepared),
        date_shift_days=find_date_shift(prepared),
    )


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def order_numbers(text: str) -> list[str]:
    """ORD-1003, ord1003, "ORD 1003", "order #1003", "注文番号1003" -> "ORD-1003"."""
    return _unique([number for _, number in order_mentions(text)])


def order_mentions(text: str) -> list[tuple[Span, str]]:
    """Where each order number stands in ``text``, in reading order, with the number."""
    found = [
        (Span(match.start(), match.end()), f"ORD-{match[1]}")
        for pattern in _ORDER_NUMBERS
        for match in pattern.finditer(text)
    ]
    return sorted(found, key=lambda mention: mention[0].start)


def without_orders(text: str) -> str:
    """``text`` with its order numbers left out: the words a message says around them (a
    named order alone reads as a look-up to the router, and asks nothing)."""
    mentions = order_mentions(text)
    kept = [
        text[end:start]
        for end, start in zip(
            [0, *(m.end for m, _ in mentions)],
            [*(m.start for m, _ in mentions), len(text)],
            strict=True,
        )
    ]
    return " ".join(part.strip() for part in kept if part.strip())


def tracking_numbers(text: str) -> list[str]:
    """Twelve digits in fours, hyphens or spaces optional -> "4821-7730-1195"."""
    return _unique(["-".join(match.groups()) for match in _TRACKING_NUMBER.finditer(text)])


def amounts(text: str) -> list[int]:
    """Yen amounts: ¥12,800, 50000円, 1,000,000 yen, 5万円, 1万2千円.

    A negative amount ("-5000円") is no amount at all: dropping only its sign would turn it
    into a refund of ¥5,000 nobody asked for, so the text is read as naming no amount.
    """
    found = [
        (Span(match.start(), match.end()), _value(text, match))
        for pattern in (_AMOUNT_PREFIXED, _AMOUNT_SUFFIXED)
        for match in pattern.finditer(text)
    ]
    values = [value for _, value in without_overlaps(found) if value is not None]
    return list(dict.fromkeys(values))


def _value(text: str, match: re.Match[str]) -> int | None:
    if _NEGATIVE_BEFORE.search(text, max(0, match.start() - 12), match.start()):
        return None
    return parse_amount(match[1])


def parse_amount(expression: str) -> int | None:
    total = 0.0
    for number, unit in _AMOUNT_PART.findall(expression):
        total += float(number.replace(",", "")) * _MULTIPLIERS[unit]
    return round(total) if total > 0 else None


def order_status(text: str) -> str | None:
    """The order status the text names (values of ``netshop.models.OrderStatus``)."""
    found = [
        (match.start(), status)
        for status, pattern in _ORDER_STATUSES
        if (match := pattern.search(text))
    ]
    return min(found)[1].value if found else None
