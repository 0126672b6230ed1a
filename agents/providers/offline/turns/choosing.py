"""Which of the customer's orders a request is about, when they name none: one, or a question.

The orders that fit a request come in tiers, best first (for "where is my parcel": the ones
on their way, then the ones not yet shipped, then the delivered ones). The first tier with
any order decides: one order is the answer; several are a question to the customer (the
offline model never picks among equals, which would be a guess). Pure: order summaries in
(``netshop.selectors.order_summary``), a choice out; and whether an order fits what the
customer describes (``understanding.described``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import ORDER_STATUS, SHIPMENT_STATUS, word
from agents.providers.offline.turns.calls import Call
from agents.providers.offline.understanding.described import (
    CHARGED,
    DELIVERED,
    GENERIC_WORDS,
    JA_NOUN,
    NOT_SHIPPED,
    ON_ITS_WAY,
    PAYMENT_FAILED,
    Description,
)
from agents.providers.offline.understanding.reasons import CHARGED_TWICE
from agents.support.catalogue import Language, say
from agents.support.vocabulary import Skill

# Short names: the tiers below read as a table of statuses.
from netshop.models import OrderStatus as O
from netshop.models import PaymentStatus as P
from netshop.models import ShipmentStatus as S

Summary = Mapping[str, Any]


Fits = Callable[[Summary], bool]


MAX_OPTIONS = 5


def _status(*statuses: str) -> Fits:
    return lambda order: order.get("status") in statuses


def _shipment(*statuses: str) -> Fits:
    return lambda order: order.get("shipment_status") in statuses


def _payment(*statuses: str) -> Fits:
    return lambda order: order.get("payment_status") in statuses


def _on_its_way(order: Summary) -> bool:
    return order.get("status") == O.SHIPPED and order.get("shipment_status") != S.DELIVERED


_paid = _payment(P.CAPTURED, P.PARTIALLY_REFUNDED)


def _paid_and_delivered(order: Summary) -> bool:
    return _paid(order) and order.get("status") == O.DELIVERED


# Tiers of fitting orders by the request's intent, best first.
TIERS: dict[str, tuple[Fits, ...]] = {
    Skill.TRACK_SHIPMENT: (_on_its_way, _status(O.CONFIRMED, O.PENDING), _status(O.DELIVERED)),
    Skill.ARRANGE_REDELIVERY: (_shipment(S.ABSENT_RETURNED), _on_its_way),
    Skill.CHANGE_DELIVERY_DATE: (_shipment(S.IN_TRANSIT), _status(O.SHIPPED, O.CONFIRMED)),
    Skill.CANCEL_ORDER: (_status(O.PENDING, O.CONFIRMED),),
    Skill.RETURN_ITEMS: (_status(O.DELIVERED),),
    Skill.EXCHANGE_ITEMS: (_status(O.DELIVERED),),
    Skill.MODIFY_ORDER_ITEMS: (_status(O.PENDING), _status(O.CONFIRMED)),
    Skill.PROCESS_REFUND: (_status(O.DELIVERED), _status(O.SHIPPED)),
    Skill.CHECK_PAYMENT_STATUS: (
        _status(O.DELIVERED),
        _status(O.SHIPPED),
        _status(O.CONFIRMED),
        _status(O.PENDING),
    ),
    Skill.APPLY_COUPON: (_status(O.DELIVERED), _status(O.SHIPPED)),
    # Before the parcel leaves first; one on its way is found so the shop can say why not.
    Skill.CHANGE_SHIPPING_ADDRESS: (
        _status(O.PENDING, O.CONFIRMED),
        _shipment(S.PREPARING),
        _on_its_way,
    ),
    Skill.REFUND_STATUS: (_payment(P.REFUNDED, P.PARTIALLY_REFUNDED), _status(O.DELIVERED)),
    Skill.ISSUE_RECEIPT: (_paid_and_delivered, _paid),
    # "Charged twice" is a claim about one payment: every order with a charge is a candidate.
    CHARGED_TWICE: (_payment(P.AUTHORIZED, P.CAPTURED, P.PARTIALLY_REFUNDED),),
}


@dataclass(frozen=True)
class Choice:
    """The order a request is about (``number``), or the candidates to ask about.

    ``unmatched``: no order fits what the customer describes (the parcel "out for delivery",
    the broken fan): the candidates are offered, none is taken for it.
    """

    number: str | None = None
    candidates: list[Summary] = field(default_factory=list)
    unmatched: bool = False

    @property
    def ambiguous(self) -> bool:
        return self.number is None and (len(self.candidates) > 1 or self.unmatched)


def choose_order(
    orders: list[Summary],
    intent: str,
    tracking: set[str] | None = None,
    description: Description | None = None,
) -> Choice:
    """The one order that fits ``intent`` and what the customer describes, or the several
    that fit equally (newest first)."""
    for order in orders:
        if tracking and order.get("tracking_number") in tracking:
            return Choice(number=str(order["number"]))
    if description is not None:
        pinned = _pinned(orders, intent, description)
        if pinned is not None:
            return pinned
    if description is not None and description.says_anything:
        described = [order for order in orders if fits(order, description)]
        if not described:
            return Choice(candidates=_offered(orders, intent, description), unmatched=bool(orders))
        if len(described) == 1:
            return Choice(number=str(described[0]["number"]))
        choice = _by_tiers(described, intent)
        if choice.number is None and not choice.candidates:
            return Choice(candidates=described[:MAX_OPTIONS])  # they fit the words: ask
        return choice
    return _by_tiers(orders, intent)


def _pinned(orders: list[Summary], intent: str, description: Description) -> Choice | None:
    """The order the customer's own facts single out, before any guess by state: its number
    written bare ("cancel 3022", 「5101の扇子」), else its amount, else an item only it holds
    ("the bath towel"). A bare number that is none of their orders is offered back, never
    exchanged for another order that happens to fit the request."""
    by_number = [o for o in orders if _digits(o) in description.numbers]
    if len(by_number) == 1:
        return Choice(number=str(by_number[0]["number"]))
    by_amount = [o for o in orders if o.get("total") in description.amounts]
    if len(by_amount) == 1:
        return Choice(number=str(by_amount[0]["number"]))
    by_item = [o for o in orders if mentions_item(o, description.words)]
    in_state = [o for o in by_item if fits(o, Description(states=description.states))]
    if len(in_state) == 1:
        return Choice(number=str(in_state[0]["number"]))
    if len(in_state) > 1:  # the request decides among them, else the customer does
        choice = _by_tiers(in_state, intent)
        return choice if choice.number or choice.candidates else Choice(candidates=in_state)
    unknown_number = any(_looks_like_order_number(n, orders) for n in description.numbers)
    if unknown_number and not (by_number or by_amount or description.says_anything):
        return Choice(candidates=orders[:MAX_OPTIONS], unmatched=bool(orders))
    return None


def _digits(order: Summary) -> int | None:
    digits = re.sub(r"\D", "", str(order.get("number") or ""))
    return int(digits) if digits else None


def _looks_like_order_number(number: int, orders: list[Summary]) -> bool:
    """Written like the customer's order numbers (as many digits): meant as one."""
    return any(len(str(_digits(order))) == len(str(number)) for order in orders)


# Words of a product's name too common to single out an order by.
_COMMON_NAME_WORDS = frozenset(
    {"set", "gift", "pair", "pack", "box", "size", "the", "and", "with", "for", "of", "pcs", "new"}
)


def mentions_item(order: Mapping[str, Any], words: str) -> bool:
    """Whether the customer's words name one of the order's items: a word of its English
    name ("towel"), or a run of its Japanese name (「バスタオル」, 「急須」)."""
    if not words:
        return False
    for name in order.get("items_en") or []:
        for part in re.findall(r"[a-z]{3,}", _without_quantity(str(name).lower())):
            if part not in _COMMON_NAME_WORDS and re.search(rf"\b{part}(?:s|es)?\b", words):
                return True
    named = [n for n in JA_NOUN.findall(words) if n not in GENERIC_WORDS]
    for name in order.get("items") or []:
        for part in JA_NOUN.findall(_without_quantity(str(name))):
            if part in words or any(len(n) >= 2 and n in part for n in named):
                return True
    return False


def _without_quantity(item: str) -> str:
    """ "有田焼 マグ × 2" -> "有田焼 マグ": an order summary's item line as its product's name."""
    return re.sub(r"\s*×\s*\d+$", "", item)


def _offered(orders: list[Summary], intent: str, description: Description) -> list[Summary]:
    """What to offer when no order fits the description: the ones in the state described
    (the item named may be worded differently), else the ones that fit the request."""
    in_state = [order for order in orders if fits(order, Description(states=description.states))]
    if description.item and in_state:
        return in_state[:MAX_OPTIONS]
    return (_by_tiers(orders, intent).candidates or orders)[:MAX_OPTIONS]


def _by_tiers(orders: list[Summary], intent: str) -> Choice:
    if intent == Skill.GET_ORDER_DETAILS:
        return _open_or_latest(orders)
    for tier in TIERS.get(intent, ()):
        fitting = [order for order in orders if tier(order)]
        if len(fitting) == 1:
            return Choice(number=str(fitting[0]["number"]))
        if fitting:
            return Choice(candidates=fitting[:MAX_OPTIONS])
    return Choice()


def _open_or_latest(orders: list[Summary]) -> Choice:
    """ "How is my order doing?": the one order still under way, a question when several
    are (showing the newest would be a guess), else the latest order."""
    under_way = [order for order in orders if _status(O.PENDING, O.CONFIRMED, O.SHIPPED)(order)]
    if len(under_way) > 1:
        return Choice(candidates=under_way[:MAX_OPTIONS])
    chosen = under_way or orders
    return Choice(number=str(chosen[0]["number"])) if chosen else Choice()


def option_label(order: Summary, lang: Language, today: Any = None) -> str:
    """A few words the customer knows the order by: its first item, and where it stands."""
    names = order.get("items_en") if lang == "en" and order.get("items_en") else order.get("items")
    items = [str(item) for item in names or []]
    first = _without_quantity(items[0]) if items else ""
    more = say(lang, "option.more") if len(items) > 1 else ""
    shipment = order.get("shipment_status")
    status = (
        word(SHIPMENT_STATUS, lang, shipment)
        if shipment and order.get("status") == O.SHIPPED
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


def fits(order: Mapping[str, Any], description: Description) -> bool:
    """Whether ``order`` (an order summary) is one the description could be about."""
    return all(_in_state(order, state) for state in description.states) and (
        not description.item or has_item(order, description.item)
    )


def has_item(order: Mapping[str, Any], item: str) -> bool:
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


def _in_state(order: Mapping[str, Any], state: str) -> bool:
    status, shipment = order.get("status"), order.get("shipment_status")
    if state == DELIVERED:
        return status == O.DELIVERED or shipment == S.DELIVERED
    if state == ON_ITS_WAY:
        return status == O.SHIPPED and shipment != S.DELIVERED
    if state == NOT_SHIPPED:
        return status in (O.PENDING, O.CONFIRMED)
    if state == CHARGED:
        return order.get("payment_status") in (P.AUTHORIZED, P.CAPTURED, P.PARTIALLY_REFUNDED)
    if state == PAYMENT_FAILED:
        return order.get("payment_status") == P.FAILED
    return True


def order_number(context: dict[str, Any]) -> str | None:
    order = context.get("order")
    if isinstance(order, dict) and order.get("number"):
        return str(order["number"])
    return next(iter(context.get("entities", {}).get("order_numbers", [])), None)


def which_named(named: list[str]) -> Call:
    """Several orders named and nothing says which one the money action is for: ask."""
    options = [{"value": number, "label": ""} for number in named[:5]]
    return (ASK_CUSTOMER, {"slot": "order", "why": "ambiguous", "options": options, "about": ""})
