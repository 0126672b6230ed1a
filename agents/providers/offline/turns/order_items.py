"""The Order agent's turns for returns, exchanges and item changes (the order's items), and
the item a refund is about.

Once the Order agent has the order's lines (``get_order_details``), the item the customer
names is found among them ("the mug", 「マグカップが割れて」, a SKU); the size wanted for an
exchange and the quantity for an item change are read from the text. Nothing is guessed:
when the text names no item of a multi-item order, or no size, no action is prepared and the
request goes to a person (the escalation policy finds the gated request unprepared).
"""

from __future__ import annotations

from typing import Any, Final

from agents.providers.offline.turns.calls import Call
from agents.providers.offline.understanding.items import (
    added_count,
    added_name,
    fewer_said,
    folded,
    kept_lines,
    named_lines,
    part_of_line,
    quantity_said,
    relative_size,
    remaining_said,
    says_add,
    says_all,
    says_remove,
    sizes,
)
from agents.providers.offline.understanding.reasons import DAMAGED
from agents.support.vocabulary import Skill

ITEM_INTENTS: Final = frozenset(
    {Skill.RETURN_ITEMS, Skill.EXCHANGE_ITEMS, Skill.MODIFY_ORDER_ITEMS}
)


def order_items_turn(
    intent: str, inquiry: str, number: str, results: dict[str, Any], reason: str
) -> list[Call]:
    """The Order agent's next calls for an item ``intent`` on order ``number``: look its
    items up, then prepare the action from them (or nothing: a person takes it)."""
    if intent in results:
        return []
    listed = results.get("get_order_items")
    if listed is None:
        return [
            ("get_order_details", {"order_number": number}),
            ("get_order_items", {"order_number": number}),
        ]
    lines = [line for line in listed.get("items") or [] if isinstance(line, dict)]
    call = order_items_call(intent, inquiry, number, lines, reason)
    return [call] if call else []


def order_items_call(
    intent: str, inquiry: str, number: str, lines: list[dict[str, Any]], reason: str
) -> Call | None:
    """The item tool to call on the order's ``lines`` for ``intent``, or None (a person)."""
    text = folded(inquiry)
    if not lines:
        return None
    if intent == Skill.RETURN_ITEMS:
        named = named_lines(text, lines) or (lines if says_all(text) or len(lines) == 1 else [])
        items = [{"sku": line["sku"]} for line in named]
        args = {"order_number": number, "items": items, "reason": reason}
        return (intent, args | {"defective": reason == DAMAGED}) if items else None
    if intent == Skill.EXCHANGE_ITEMS:
        return _exchange(text, lines, number, reason)
    if intent == Skill.MODIFY_ORDER_ITEMS:
        return _change(text, lines, number)
    return None


def refund_items(inquiry: str, order: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The one item of a multi-item order a refund request is about, if the text names one,
    and how many of it when the text says ("one of the two towels" is one towel's price;
    "the remaining two" two more, never the one already refunded). An item the customer
    says they keep ("the fan is fine") is not the one refunded."""
    text = folded(inquiry)
    lines = [line for line in order.get("lines") or [] if isinstance(line, dict)]
    part = remaining_said(text) or part_of_line(text)
    kept = kept_lines(text, lines)
    named = [line for line in named_lines(text, lines) if line not in kept]
    named = named or (lines if len(lines) == 1 and part else [])
    if len(named) != 1 or (len(lines) < 2 and not part):
        return None
    return [{"sku": named[0]["sku"]} | ({"quantity": part} if part else {})]


def _exchange(text: str, lines: list[dict[str, Any]], number: str, reason: str) -> Call | None:
    named = named_lines(text, lines) or (lines if len(lines) == 1 else [])
    if len(named) != 1:
        return None
    sku = str(named[0]["sku"])
    current = str(named[0].get("variant") or sku.rsplit("-", 1)[-1]).upper()
    wanted = [size for size in sizes(text) if size != current] or relative_size(text, current)
    sold_in_sizes = bool(named[0].get("other_variants", True))
    if not wanted and sold_in_sizes:
        return None  # which size is a person's question, not a guess
    # An item sold in one size only is still asked for: the shop's refusal says so.
    variant = wanted[0] if wanted else "another size"
    args = {"order_number": number, "item": sku, "new_variant": variant, "reason": reason}
    return (Skill.EXCHANGE_ITEMS, args)


def _change(text: str, lines: list[dict[str, Any]], number: str) -> Call | None:
    """An item removed or its quantity lowered; an addition is asked for too, so that the
    shop's refusal (an addition is a new order) is what the customer reads."""
    named = named_lines(text, lines)
    if says_add(text) and not says_remove(text) and fewer_said(text) is None:
        return _addition(text, named, lines, number)
    if len(named) > 1:
        named = [line for line in named if line not in kept_lines(text, lines)] or named
    if not named:
        return None
    items = [item for line in named if (item := _new_quantity(text, line)) is not None]
    if len(items) != len(named):
        return None
    return (Skill.MODIFY_ORDER_ITEMS, {"order_number": number, "items": items})


def _new_quantity(text: str, line: dict[str, Any]) -> dict[str, Any] | None:
    """The line at the quantity the text asks for: said outright, so many fewer, or none."""
    quantity = quantity_said(text)
    fewer = fewer_said(text)
    if quantity is None and fewer is not None and isinstance(line.get("quantity"), int):
        quantity = max(int(line["quantity"]) - fewer, 0)
    if quantity is None and not says_remove(text):
        return None
    return {"sku": line["sku"], "quantity": quantity or 0}


def _addition(
    text: str, named: list[dict[str, Any]], lines: list[dict[str, Any]], number: str
) -> Call | None:
    """An item added: a line of the order at more than it holds, or an item the order does
    not hold by the name the customer gave it (the shop refuses both)."""
    more = added_count(text)
    if len(named) == 1 and isinstance(named[0].get("quantity"), int):
        item = {"sku": named[0]["sku"], "quantity": int(named[0]["quantity"]) + more}
    elif not named and (name := added_name(text)) and not _loosely_named(name, lines):
        item = {"name": name, "quantity": more}
    else:
        return None
    return (Skill.MODIFY_ORDER_ITEMS, {"order_number": number, "items": [item]})


def _loosely_named(name: str, lines: list[dict[str, Any]]) -> bool:
    """Whether the shop, which matches a name within a line's names either way, could take
    ``name`` for a line of the order (an addition must never read as a lowered quantity)."""
    names = [folded(str(line.get(key) or "")) for line in lines for key in ("name", "name_en")]
    return any(name in other or (other and other in name) for other in names)
