"""Chart geometry for the dashboard, drawn by the server as inline SVG (no library, no CDN).

Functions here only place rectangles and labels; the template draws them, and every bar is
a link to the audit rows behind it. Coordinates are rounded to keep the markup small.
"""

from __future__ import annotations

import dataclasses
import math

from django.utils.translation import gettext


@dataclasses.dataclass(frozen=True)
class Part:
    """One stacked piece of a column, or one whole horizontal bar."""

    value: int
    css: str
    title: str
    href: str


@dataclasses.dataclass(frozen=True)
class Column:
    label: str
    parts: list[Part]


@dataclasses.dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str
    href: str


@dataclasses.dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    anchor: str = "middle"
    css: str = "axis"


@dataclasses.dataclass(frozen=True)
class Chart:
    title: str
    width: int
    height: int
    rects: list[Rect]
    labels: list[Label]

    @property
    def empty(self) -> bool:
        return not self.rects


AXIS = 18  # room under the columns for the day labels
MAX_DAY_LABELS = 8


def column_chart(
    columns: list[Column], *, title: str, width: int = 720, height: int = 180
) -> Chart:
    """Stacked columns (e.g. one per day); the tallest column fills the plot height."""
    top = max((sum(p.value for p in c.parts) for c in columns), default=0)
    plot = height - AXIS
    slot = width / max(len(columns), 1)
    step = math.ceil(len(columns) / MAX_DAY_LABELS) or 1
    rects: list[Rect] = []
    labels = [Label(2, 10, gettext("max %(n)d") % {"n": top}, anchor="start")] if top else []
    for index, column in enumerate(columns):
        x = index * slot + slot * 0.15
        base = float(plot)
        for part in column.parts:
            if part.value and top:
                h = plot * part.value / top
                base -= h
                rects.append(_rect(x, base, slot * 0.7, h, part))
        if index % step == 0:
            labels.append(Label(_r(x + slot * 0.35), height - 4, column.label))
    return Chart(title, width, height, rects, labels)


ROW = 24
LABEL_WIDTH = 170
VALUE_WIDTH = 48


def bar_chart(bars: list[tuple[str, Part]], *, title: str, width: int = 520) -> Chart:
    """Horizontal bars, one per (label, part), longest bar spanning the plot width."""
    top = max((part.value for _, part in bars), default=0)
    plot = width - LABEL_WIDTH - VALUE_WIDTH
    rects: list[Rect] = []
    labels: list[Label] = []
    for index, (label, part) in enumerate(bars):
        y = index * ROW
        length = plot * part.value / top if top else 0
        if part.value:
            rects.append(_rect(LABEL_WIDTH, y + 4, max(length, 2), ROW - 8, part))
        labels.append(Label(LABEL_WIDTH - 6, y + ROW - 8, label, anchor="end", css="name"))
        labels.append(Label(_r(LABEL_WIDTH + length + 6), y + ROW - 8, str(part.value), "start"))
    return Chart(title, width, max(len(bars), 1) * ROW, rects, labels)


def _rect(x: float, y: float, width: float, height: float, part: Part) -> Rect:
    return Rect(_r(x), _r(y), _r(width), _r(height), part.css, part.title, part.href)


def _r(value: float) -> float:
    return round(value, 1)
