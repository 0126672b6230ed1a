"""How close an escalation's deadline is, as the queue rows and the detail page both show it.

One definition, so a row and its detail page never disagree about "overdue" or "soon".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

WARN_MINUTES = 30

DueState = Literal["overdue", "soon", "ok"]


@dataclass(frozen=True)
class Due:
    state: DueState
    minutes: int  # minutes left; negative when overdue


def due(deadline: datetime, now: datetime) -> Due:
    minutes = int((deadline - now).total_seconds() // 60)
    if deadline < now:
        return Due("overdue", minutes)
    return Due("soon" if minutes < WARN_MINUTES else "ok", minutes)
