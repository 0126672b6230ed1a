"""Asking the customer which order: the options offered, each labelled in their words.

Which order a request is about is decided by the shop's records (``agents.support.grounding``,
run by the ``search_orders`` tool); when several fit, the customer is asked, with each
candidate labelled by its first item, where it stands and when it was placed. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import ORDER_STATUS, SHIPMENT_STATUS, word
from agents.providers.offline.turns.calls import Call
from agents.support.catalogue import Language, say
from agents.support.grounding.described import without_quantity
from agents.support.grounding.orders import MAX_CANDIDATES
from netshop.models import OrderStatus

Summary = Mapping[str, Any]


def option_label(order: Summary, lang: Language, today: Any = None) -> str:
    """A few words the customer knows the order by: its first item, and where it stands."""
    names = order.get("items_en") if lang == "en" and order.get("items_en") else order.get("items")
    items = [str(item) for item in names or []]
    first = without_quantity(items[0]) if items else ""
    more = say(lang, "option.more") if len(items) > 1 else ""
    shipment = order.get("shipment_status")
    status = (
        word(SHIPMENT_STATUS, lang, shipment)
        if shipment and order.get("status") == OrderStatus.SHIPPED
        else word(ORDER_STATUS, lang, order.get("status"))
    )
    placed = fmt.day(lang, str(order.get("placed_at") or "")[:10], today)
    placed_text = say(lang, "option.placed", date=placed) if placed else ""
    parts = [part for part in (f"{first}{more}", status, placed_text) if part]
    return say(lang, "list.comma").join(parts)


def options(candidates: list[Summary], lang: Language, today: Any = None) -> list[dict[str, str]]:
    return [
        {"value": str(order["number"]), "label": option_label(order, lang, today)}
        for order in candidates
    ]


def order_number(context: dict[str, Any]) -> str | None:
    order = context.get("order")
    if isinstance(order, dict) and order.get("number"):
        return str(order["number"])
    return next(iter(context.get("entities", {}).get("order_numbers", [])), None)


def which_named(named: list[str]) -> Call:
    """Several orders named and nothing says which one the money action is for: ask."""
    options = [{"value": number, "label": ""} for number in named[:MAX_CANDIDATES]]
    return (ASK_CUSTOMER, {"slot": "order", "why": "ambiguous", "options": options, "about": ""})
