"""Is a proposed action larger than what the customer asked for?

"Remove the tenugui from ORD-5104" once became "Cancel ORD-5104 ¥6,600", and an approval
given without reading cancelled the whole order. Whatever a model proposes, the card a
person approves from compares the action's reach with the customer's own words: an action
on the whole order (a cancellation, a refund of all of it) of an order with several lines,
asked for in words that name only some of those lines, is flagged with the lines named.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.support.grounding.described import mentions_item
from agents.support.vocabulary import Skill

# The actions that act on a whole order unless their parameters name items.
WHOLE_ORDER_SKILLS = frozenset({Skill.CANCEL_ORDER, Skill.PROCESS_REFUND})


def lines_named_in_part(action: Mapping[str, Any], customer_text: str) -> list[str]:
    """The order's lines the customer named, when the action covers more of the order than
    those; empty when the action is no larger than the request (or the words name no line)."""
    lines = list((action.get("facts") or {}).get("lines") or [])
    if not _whole_order(action) or len(lines) < 2:
        return []
    words = customer_text.lower()
    named = [line for line in lines if _named(line, words)]
    if len(named) in (0, len(lines)):
        return []
    return [str(line.get("name") or "") for line in named]


def _whole_order(action: Mapping[str, Any]) -> bool:
    """A cancellation, or a refund of everything paid, naming no items of its own."""
    params = action.get("params") or {}
    if action.get("kind") not in WHOLE_ORDER_SKILLS or params.get("items"):
        return False
    if action.get("kind") == Skill.CANCEL_ORDER:
        return True
    total = (action.get("facts") or {}).get("total")
    return total is not None and int(params.get("amount") or 0) >= int(total)


def _named(line: Mapping[str, Any], words: str) -> bool:
    """Whether the words name the line: a word of its name as the customer writes it
    (「手ぬぐい」 of 「手ぬぐい 藍染」), or as grounding reads item names."""
    name = str(line.get("name") or "")
    if any(len(part) >= 2 and part.lower() in words for part in name.split()):
        return True
    return mentions_item({"items": [name], "items_en": [line.get("name_en") or ""]}, words)
