"""Which of the customer's orders a request is about: one, candidates to ask about, or none.

The customer's own facts decide first: a tracking number, an order number written bare
("cancel 3022"), an amount, an item only one order holds. Then the orders that fit what they
describe, and among those the ones that fit the request, in tiers, best first (for "where is
my parcel": the ones on their way, then the ones not yet shipped, then the delivered ones).
The first tier with any order decides: one order is the answer; several are a question to
the customer (never a pick among equals, which would be a guess). Pure: order summaries
(``netshop.selectors.order_summary``) in, a ``Grounding`` out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from agents.support.grounding.described import OrderReference, Summary, fits, mentions_item
from agents.support.vocabulary import Skill

# Short names: the tiers below read as a table of statuses.
from netshop.models import OrderStatus as O
from netshop.models import PaymentStatus as P
from netshop.models import ShipmentStatus as S

Fits = Callable[[Summary], bool]


MAX_CANDIDATES: Final = 5


# Not a skill but a request of its own: a claim about one payment, so every order with a
# charge is a candidate.
CHARGED_TWICE: Final = "charged twice"


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


# Tiers of fitting orders by the request, best first.
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
    CHARGED_TWICE: (_payment(P.AUTHORIZED, P.CAPTURED, P.PARTIALLY_REFUNDED),),
}


# What a caller may ask the grounding about (``search_orders``' ``request``): any skill (one
# with no tiers, an FAQ question about "my yukata", is grounded by the customer's facts
# alone) or a request of the tiers' own.
REQUESTS: Final = frozenset([*Skill.values, *TIERS])


@dataclass(frozen=True)
class Grounding:
    """The order a request is about (``number``), or the candidates to ask about.

    ``unmatched``: no order fits what the customer describes (the parcel "out for delivery",
    the broken fan, a number that is none of theirs): the candidates are offered, none is
    taken for it.
    """

    number: str | None = None
    candidates: list[Summary] = field(default_factory=list)
    unmatched: bool = False

    @property
    def ambiguous(self) -> bool:
        """Whether the customer must say which: several candidates, or none described."""
        return self.number is None and (len(self.candidates) > 1 or self.unmatched)

    def as_result(self) -> dict[str, Any]:
        """The grounding as a tool result: order numbers only (the orders are listed beside)."""
        return {
            "match": self.number,
            "candidates": [str(order["number"]) for order in self.candidates],
            "unmatched": self.unmatched,
        }

    @classmethod
    def from_result(cls, result: dict[str, Any], orders: Sequence[Summary]) -> Grounding:
        """The grounding back from a tool result, its candidates as the listed orders."""
        by_number = {str(order.get("number")): order for order in orders}
        wanted = [str(number) for number in result.get("candidates") or []]
        return cls(
            number=result.get("match"),
            candidates=[by_number[number] for number in wanted if number in by_number],
            unmatched=bool(result.get("unmatched")),
        )


def ground_order(
    orders: Sequence[Summary],
    request: str,
    tracking: Collection[str] = (),
    reference: OrderReference | None = None,
) -> Grounding:
    """The one order that fits ``request`` and what the customer describes, or the several
    that fit equally (newest first, as ``orders`` comes)."""
    written = {_tracking_digits(number) for number in tracking} - {""}
    for order in orders:
        if written and _tracking_digits(order.get("tracking_number")) in written:
            return Grounding(number=str(order["number"]))
    if reference is not None:
        pinned = _pinned(orders, request, reference)
        if pinned is not None:
            return pinned
    if reference is not None and reference.says_anything:
        return _described(orders, request, reference)
    return _by_tiers(orders, request)


def _described(orders: Sequence[Summary], request: str, reference: OrderReference) -> Grounding:
    described = [order for order in orders if fits(order, reference)]
    if not described:
        return Grounding(candidates=_offered(orders, request, reference), unmatched=bool(orders))
    if len(described) == 1:
        return Grounding(number=str(described[0]["number"]))
    grounding = _by_tiers(described, request)
    if grounding.number is None and not grounding.candidates:
        return Grounding(candidates=described[:MAX_CANDIDATES])  # they fit the words: ask
    return grounding


def _pinned(orders: Sequence[Summary], request: str, reference: OrderReference) -> Grounding | None:
    """The order the customer's own facts single out, before any guess by state: its number
    written bare ("cancel 3022", 「5101の扇子」), else its amount, else an item only it holds
    ("the bath towel"). A bare number that is none of their orders is offered back, never
    exchanged for another order that happens to fit the request."""
    by_number = [o for o in orders if _digits(o) in reference.numbers]
    if len(by_number) == 1:
        return Grounding(number=str(by_number[0]["number"]))
    by_amount = [o for o in orders if o.get("total") in reference.amounts]
    if len(by_amount) == 1:
        return Grounding(number=str(by_amount[0]["number"]))
    by_item = [o for o in orders if mentions_item(o, reference.words)]
    in_state = [o for o in by_item if fits(o, OrderReference(states=reference.states))]
    if len(in_state) == 1:
        return Grounding(number=str(in_state[0]["number"]))
    if len(in_state) > 1:  # the request decides among them, else the customer does
        grounding = _by_tiers(in_state, request)
        if grounding.number or grounding.candidates:
            return grounding
        return Grounding(candidates=in_state[:MAX_CANDIDATES])
    unknown_number = any(_looks_like_order_number(n, orders) for n in reference.numbers)
    if unknown_number and not (by_number or by_amount or reference.says_anything):
        # Offered back among the orders the request could be about, none taken for it.
        return Grounding(candidates=_offered(orders, request, reference), unmatched=bool(orders))
    return None


def _tracking_digits(number: object) -> str:
    """A tracking number as its digits, however it was typed ("４８２１-7730 1195")."""
    return re.sub(r"\D", "", unicodedata.normalize("NFKC", str(number or "")))


def _digits(order: Summary) -> int | None:
    digits = re.sub(r"\D", "", str(order.get("number") or ""))
    return int(digits) if digits else None


def _looks_like_order_number(number: int, orders: Sequence[Summary]) -> bool:
    """Written like the customer's order numbers (as many digits): meant as one."""
    return any(len(str(_digits(order))) == len(str(number)) for order in orders)


def _offered(orders: Sequence[Summary], request: str, reference: OrderReference) -> list[Summary]:
    """What to offer when no order fits the description: the ones in the state described
    (the item named may be worded differently), else the ones that fit the request best,
    else all of them."""
    in_state = [order for order in orders if fits(order, OrderReference(states=reference.states))]
    if reference.item and in_state:
        return in_state[:MAX_CANDIDATES]
    return list(_best_tier(orders, request) or orders)[:MAX_CANDIDATES]


def _by_tiers(orders: Sequence[Summary], request: str) -> Grounding:
    if request == Skill.GET_ORDER_DETAILS:
        return _open_or_latest(orders)
    fitting = _best_tier(orders, request)
    if len(fitting) == 1:
        return Grounding(number=str(fitting[0]["number"]))
    return Grounding(candidates=fitting[:MAX_CANDIDATES])


def _best_tier(orders: Sequence[Summary], request: str) -> list[Summary]:
    """The orders of the first of the request's tiers that any order is in."""
    for tier in TIERS.get(request, ()):
        fitting = [order for order in orders if tier(order)]
        if fitting:
            return fitting
    return []


def _open_or_latest(orders: Sequence[Summary]) -> Grounding:
    """ "How is my order doing?": the one order still under way, a question when several
    are (showing the newest would be a guess), else the latest order."""
    under_way = [o for o in orders if o.get("status") in (O.PENDING, O.CONFIRMED, O.SHIPPED)]
    if len(under_way) > 1:
        return Grounding(candidates=under_way[:MAX_CANDIDATES])
    chosen = under_way or orders
    return Grounding(number=str(chosen[0]["number"])) if chosen else Grounding()
