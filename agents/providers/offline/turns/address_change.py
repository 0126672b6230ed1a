"""The Shipping agent's turn for a change of delivery address.

It goes ahead with a complete address the customer wrote, asks for it when none was given,
and lets the shop refuse a parcel already on its way (so the customer hears why, without
being asked for an address first).
"""

from __future__ import annotations

from typing import Any, Final

from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline.turns.calls import Call
from agents.providers.offline.understanding.address import find_address
from agents.support.vocabulary import Skill
from netshop.models import OrderStatus, ShipmentStatus

# Order states in which the parcel has left, as the Order agent's facts show them.
LEFT_ORDER_STATUSES: Final = frozenset(
    {OrderStatus.SHIPPED, OrderStatus.DELIVERED, OrderStatus.CANCELLED}
)


NEW_ADDRESS: Final = "new delivery address"


def address_change_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    """Change the parcel's address, ask for the address, or let the shop say why it can't."""
    if results:
        return []
    order = context.get("order") if isinstance(context.get("order"), dict) else {}
    number = (order or {}).get("number") or next(
        iter(context.get("entities", {}).get("order_numbers", [])), None
    )
    if not number:
        return []  # the writer asks which order
    found = find_address(inquiry)
    if found is not None and found.complete:
        return [(Skill.CHANGE_SHIPPING_ADDRESS, {"order_number": number, **found.as_args()})]
    if _has_left(order or {}) or ASK_CUSTOMER not in tools:
        parts = (
            found.as_args() if found else {"postal_code": "", "prefecture": "", "address_line": ""}
        )
        return [(Skill.CHANGE_SHIPPING_ADDRESS, {"order_number": number, **parts})]
    return [(ASK_CUSTOMER, {"slot": "address", "why": "missing", "about": NEW_ADDRESS})]


def _has_left(order: dict[str, Any]) -> bool:
    shipment = order.get("shipment") if isinstance(order.get("shipment"), dict) else {}
    if (shipment or {}).get("status") == ShipmentStatus.PREPARING:
        return False
    return order.get("status") in LEFT_ORDER_STATUSES
