"""The detail page's hand-offs: each specialist's verdict as the run left it (SPEC 6).

Sorted so the unhealthy come first: they are what an operator checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.models import Inquiry
from operators.labels import VERDICT_CSS


@dataclass(frozen=True)
class HandoffRow:
    """One specialist's hand-off as the run left it, with its verdict (SPEC 6)."""

    agent: str
    verdict: str
    css: str


def handoff_rows(inquiry: Inquiry) -> list[HandoffRow]:
    """The inquiry's hand-offs, the unhealthy first (they are what an operator checks)."""
    rows = [
        HandoffRow(
            agent=str(receipt.get("receiver", "")),
            verdict=str(receipt.get("verdict", "")),
            css=VERDICT_CSS.get(str(receipt.get("verdict")), "bad"),
        )
        for receipt in inquiry.handoffs or []
    ]
    return sorted(rows, key=lambda row: (row.css == "ok", row.agent))
