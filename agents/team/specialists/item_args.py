"""How a tool names items of an order: the argument shape the Order and Payment tools share."""

from __future__ import annotations

# Pydantic builds the tools' argument schemas and needs this TypedDict on Python < 3.12.
from typing_extensions import TypedDict


class OrderItem(TypedDict, total=False):
    """One item of an order, by the SKU ``get_order_items`` shows (or, for an item the order
    does not hold, the name the customer gave it), and a quantity."""

    sku: str
    name: str
    quantity: int
