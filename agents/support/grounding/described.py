"""What a customer says about the order they mean, and whether an order fits it.

"It says out for delivery", "the towel arrived damaged", 「5101の扇子」: the states they see,
the item they name, the numbers and amounts they write. Pure: an order summary
(``netshop.selectors.order_summary``) and a description in, a yes or no out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from django.db import models

from netshop.models import OrderStatus, PaymentStatus, ShipmentStatus


class DescribedState(models.TextChoices):
    """A state the customer says they see their order in, in their words' terms."""

    DELIVERED = "delivered"
    ON_ITS_WAY = "on_its_way"
    NOT_SHIPPED = "not_shipped"
    CHARGED = "charged"
    PAYMENT_FAILED = "payment_failed"


# A kanji or katakana run of two characters or more: a Japanese noun, an item's name.
JA_NOUN: Final = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fffー]{2,}")


# Words that name no product: "the item", 「商品」. Never single out an order by them.
GENERIC_WORDS: Final = frozenset(
    [
        "item",
        "items",
        "product",
        "products",
        "order",
        "orders",
        "package",
        "parcel",
        "thing",
        "things",
        "it",
        "one",
        "stuff",
        "box",
        "delivery",
        "shipment",
        "goods",
        "contents",
        "purchase",
        "on",
        "in",
        "and",
        "when",
        "inside",
        "whole",
        "new",
    ]
) | frozenset(
    [
        "商品",
        "荷物",
        "品物",
        "注文",
        "中身",
        "もの",
        "物",
        "箱",
        "梱包",
        "外箱",
        "お荷物",
        "ご注文",
        "一部",
        "一つ",
    ]
)


# Words of a product's name too common to single out an order by.
_COMMON_NAME_WORDS: Final = frozenset(
    {"set", "gift", "pair", "pack", "box", "size", "the", "and", "with", "for", "of", "pcs", "new"}
)


@dataclass(frozen=True)
class OrderReference:
    """The order as the customer describes it: states seen, the item named, the words they
    wrote about it (an item named in passing: "the bath towel arriving today"), the numbers
    they wrote without a prefix (an order's number, or its amount) and the amounts in yen."""

    states: frozenset[str] = frozenset()
    item: str = ""
    words: str = ""
    numbers: frozenset[int] = frozenset()
    amounts: frozenset[int] = frozenset()

    @property
    def says_anything(self) -> bool:
        """Whether it describes the order at all (a state or an item), beyond bare numbers."""
        return bool(self.states or self.item)


Summary = Mapping[str, Any]


def fits(order: Summary, reference: OrderReference) -> bool:
    """Whether ``order`` is one the description could be about: in every state described,
    and holding the item named."""
    return all(in_state(order, state) for state in reference.states) and (
        not reference.item or has_item(order, reference.item)
    )


def in_state(order: Summary, state: str) -> bool:
    """Whether the order is in the state the customer sees (an unknown state rules nothing out)."""
    status, shipment = order.get("status"), order.get("shipment_status")
    if state == DescribedState.DELIVERED:
        return status == OrderStatus.DELIVERED or shipment == ShipmentStatus.DELIVERED
    if state == DescribedState.ON_ITS_WAY:
        return status == OrderStatus.SHIPPED and shipment != ShipmentStatus.DELIVERED
    if state == DescribedState.NOT_SHIPPED:
        return status in (OrderStatus.PENDING, OrderStatus.CONFIRMED)
    if state == DescribedState.CHARGED:
        return order.get("payment_status") in (
            PaymentStatus.AUTHORIZED,
            PaymentStatus.CAPTURED,
            PaymentStatus.PARTIALLY_REFUNDED,
        )
    if state == DescribedState.PAYMENT_FAILED:
        return order.get("payment_status") == PaymentStatus.FAILED
    return True


def has_item(order: Summary, item: str) -> bool:
    """Whether one of the order's items is called what the customer calls it (any word of
    "bath towel"; the noun itself for 「扇風機」)."""
    names = [str(name).lower() for name in [*order.get("items", []), *order.get("items_en", [])]]
    if not re.fullmatch(r"[a-z\- ]+", item):
        return any(item in name for name in names)
    for part in item.split():
        stem = part[:-1] if part.endswith("s") and len(part) > 3 else part
        if any(re.search(rf"\b{re.escape(stem)}(?:s|es)?\b", name) for name in names):
            return True
    return False


def mentions_item(order: Summary, words: str) -> bool:
    """Whether the customer's words name one of the order's items anywhere: a word of its
    English name ("towel"), or a run of its Japanese name (「バスタオル」, 「急須」)."""
    if not words:
        return False
    for name in order.get("items_en") or []:
        for part in re.findall(r"[a-z]{3,}", without_quantity(str(name).lower())):
            if part not in _COMMON_NAME_WORDS and re.search(rf"\b{part}(?:s|es)?\b", words):
                return True
    named = [n for n in JA_NOUN.findall(words) if n not in GENERIC_WORDS]
    for name in order.get("items") or []:
        for part in JA_NOUN.findall(without_quantity(str(name))):
            if part in words or any(len(n) >= 2 and n in part for n in named):
                return True
    return False


def without_quantity(item: str) -> str:
    """ "有田焼 マグ × 2" -> "有田焼 マグ": an order summary's item line as its product's name."""
    return re.sub(r"\s*×\s*\d+$", "", item)
