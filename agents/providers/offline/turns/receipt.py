"""The Payment agent's turn for a receipt: issued to the name the customer asked for."""

from __future__ import annotations

from typing import Any

from agents.providers.offline.turns.calls import Call
from agents.providers.offline.understanding.addressee import find_addressee
from agents.support.vocabulary import Skill


def receipt_turn(number: str | None, inquiry: str, results: dict[str, Any]) -> list[Call]:
    """Issue the order's receipt, to the name the customer gave (else theirs)."""
    if results or not number:
        return []
    args = {"order_number": number}
    name = find_addressee(inquiry)
    return [(Skill.ISSUE_RECEIPT, args | ({"addressee": name} if name else {}))]
