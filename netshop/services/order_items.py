"""The items of an order a return, an exchange or an item change is about, found once.

Customers and models name an item by its SKU or by its name ("the mug", 「マグカップ」); the
services take either, and refuse an item that is not on the order with ``item_not_in_order``
rather than guess. What was delivered when, and the windows that date opens, live here too:
returns and exchanges read them alike.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Sum

from netshop.errors import DomainError
from netshop.models import Order, OrderLine, Product, ReturnLine, Shipment, ShipmentStatus
from netshop.services.policy_checks import PolicyCheck
from netshop.shop_time import SHOP_TZ, shop_today


@dataclasses.dataclass(frozen=True)
class ItemRequest:
    """One item as asked for: a SKU or a name, and how many (``None``: all of that line)."""

    item: str
    quantity: int | None = None

    @classmethod
    def parse(cls, value: str | Mapping[str, Any]) -> ItemRequest:
        """From a tool's argument: ``"MUG-ARITA-AI"`` or ``{"sku"|"name": ..., "quantity": n}``."""
        if isinstance(value, str):
            return cls(item=value)
        name = value.get("sku") or value.get("item") or value.get("name") or ""
        quantity = value.get("quantity")
        return cls(item=str(name), quantity=None if quantity is None else int(quantity))


@dataclasses.dataclass(frozen=True)
class ChosenLine:
    """An order line and the number of its units an action is about."""

    line: OrderLine
    quantity: int

    @property
    def amount(self) -> int:
        return self.quantity * self.line.unit_price

    def as_dict(self) -> dict[str, Any]:
        product = self.line.product
        return {
            "sku": product.sku,
            "name": product.name,
            "name_en": product.name_en or product.name,
            "quantity": self.quantity,
            "unit_price": self.line.unit_price,
            "amount": self.amount,
        }


def parse_items(values: Iterable[str | Mapping[str, Any]] | None) -> list[ItemRequest]:
    requests = [ItemRequest.parse(value) for value in values or ()]
    if not requests or any(not request.item.strip() for request in requests):
        raise DomainError("items_required")
    return requests


def order_line_find(*, order: Order, item: str) -> OrderLine:
    """The line of ``order`` whose SKU is ``item``, or whose name (ja or en) contains it."""
    wanted = _folded(item)
    lines = list(order.lines.select_related("product").order_by("id"))
    for line in lines:
        if _folded(line.product.sku) == wanted:
            return line
    named = [line for line in lines if _names_match(line.product, wanted)]
    if len(named) == 1:
        return named[0]
    raise DomainError("item_not_in_order", item=item, order=order.number)


def choose_lines(*, order: Order, items: list[ItemRequest]) -> list[ChosenLine]:
    """Each requested item as a line of ``order`` with its quantity (all units by default)."""
    chosen = []
    for request in items:
        line = order_line_find(order=order, item=request.item)
        chosen.append(ChosenLine(line=line, quantity=_quantity(request, line)))
    return chosen


def within_lines(chosen: list[ChosenLine]) -> list[ChosenLine]:
    """Each chosen line once, at no more units than the order holds: a refund for "two" of a
    line of one, or the same line named twice (by its SKU and by its name), is that line's
    price, never twice it."""
    merged: dict[int, ChosenLine] = {}
    for choice in chosen:
        earlier = merged.get(choice.line.pk)
        units = choice.quantity + (earlier.quantity if earlier else 0)
        merged[choice.line.pk] = ChosenLine(
            line=choice.line, quantity=min(units, choice.line.quantity)
        )
    return list(merged.values())


def order_items_facts(*, order: Order) -> list[dict[str, Any]]:
    """Each line of ``order`` as a return or exchange sees it: what is left to return, and
    the other variants of its product with their stock."""
    facts = []
    for line in order.lines.select_related("product").order_by("id"):
        product = line.product
        facts.append(
            {
                **ChosenLine(line=line, quantity=line.quantity).as_dict(),
                "variant": product.variant,
                "returned": returned_quantity(line),
                "other_variants": _other_variants(product),
            }
        )
    return facts


def returned_quantity(line: OrderLine) -> int:
    """Units of ``line`` already returned, summed in the database."""
    total = ReturnLine.objects.filter(order_line=line).aggregate(total=Sum("quantity"))["total"]
    return int(total or 0)


def delivered_on(order: Order) -> dt.date | None:
    """The day (in Japan) the order's parcel was delivered: its delivery scan, else its date."""
    shipment = Shipment.objects.filter(order=order).first()
    if shipment is None or shipment.status != ShipmentStatus.DELIVERED:
        return None
    scan = shipment.events.filter(status=ShipmentStatus.DELIVERED).order_by("-occurred_at").first()
    if scan is not None:
        return scan.occurred_at.astimezone(SHOP_TZ).date()
    return shipment.scheduled_date


def window_check(*, order: Order, days: int, name: str, code: str) -> PolicyCheck:
    """Whether today is within ``days`` of the order's delivery."""
    delivered = delivered_on(order)
    if delivered is None:
        return PolicyCheck(name, False, f"{order.number} has no delivery date", code)
    last = delivered + dt.timedelta(days=days)
    passed = shop_today() <= last
    detail = f"delivered on {delivered}; the {days}-day window " + (
        f"runs until {last}" if passed else f"ended on {last}"
    )
    return PolicyCheck(name=name, passed=passed, detail=detail, code=code)


def _other_variants(product: Product) -> list[dict[str, Any]]:
    if not product.family:
        return []
    others = Product.objects.filter(family=product.family).exclude(pk=product.pk).order_by("sku")
    return [{"sku": p.sku, "variant": p.variant, "in_stock": p.stock > 0} for p in others]


def _quantity(request: ItemRequest, line: OrderLine) -> int:
    return line.quantity if request.quantity is None else request.quantity


def _names_match(product: Product, wanted: str) -> bool:
    names = [_folded(product.name), _folded(product.name_en)]
    return any(name and (wanted in name or name in wanted) for name in names)


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text or "").casefold().strip()
