"""The Payment agent's turn for "where is my refund": it only reads the order's refunds."""

from __future__ import annotations

from typing import Any

from agents.providers.offline.turns.calls import Call
from agents.support.vocabulary import Skill


def refund_status_turn(number: str | None, results: dict[str, Any]) -> list[Call]:
    """Read the order's refunds; never a refund of its own."""
    if results or not number:
        return []
    return [(Skill.REFUND_STATUS, {"order_number": number})]
