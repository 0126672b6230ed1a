"""Claims the shop's records contradict, and the referral that hands each to a person.

"It has not arrived" against a carrier scan that says delivered; "charged twice" against a
gateway holding one payment; a damaged item on an order still on its way, or one the order
does not hold. Neither the claim nor the record is simply believed: the specialist stops
with ``refer_to_person`` (making no change: no refund, no coupon), and the customer is told
a person looks and why (``writing.questions.handover_sentence``). Pure: tool results in, calls out.
"""

from __future__ import annotations

import re
from typing import Any

from agents.contract.tools import REFER_TO_PERSON
from agents.providers.offline.turns.calls import Call
from agents.providers.offline.understanding.claims import says_not_received
from agents.providers.offline.understanding.described import describe
from agents.providers.offline.understanding.reasons import reason
from agents.support.grounding.described import DescribedState, OrderReference, fits, has_item
from agents.support.grounding.orders import CHARGED_TWICE
from netshop.models import ShipmentStatus

CONTRADICTS = "claim_contradicts_records"


def not_arrived_contradiction(results: dict[str, Any], inquiry: str, tools: set[str]) -> list[Call]:
    """The customer says it has not arrived, the carrier says delivered: a person looks
    (the reply neither insists on "delivered" nor makes up for a loss nobody has seen)."""
    tracked = results.get("track_shipment") or {}
    status = (tracked.get("tracking") or {}).get("status")
    if (
        REFER_TO_PERSON not in tools
        or REFER_TO_PERSON in results
        or status != ShipmentStatus.DELIVERED
    ):
        return []
    if not says_not_received(inquiry):
        return []
    number = tracked.get("order_number")
    summary = f"the customer says {number} has not arrived; the carrier shows it delivered"
    args = {"reason": CONTRADICTS, "summary": summary, "order_number": number}
    return [(REFER_TO_PERSON, args | {"claim": "not_arrived"})]


def double_charge(results: dict[str, Any], inquiry: str, tools: set[str]) -> list[Call]:
    """A double charge claimed against a gateway that holds one payment per order: a person
    checks the card statement (the reply neither denies the claim nor refunds on it)."""
    checked = results.get("check_payment_status") or {}
    if REFER_TO_PERSON not in tools or REFER_TO_PERSON in results or not checked.get("payment"):
        return []
    if reason(inquiry, "") != CHARGED_TWICE:
        return []
    number = checked.get("order_number")
    summary = f"the customer says {number} was charged twice; the gateway shows one payment"
    args = {"reason": CONTRADICTS, "summary": summary, "order_number": number}
    return [(REFER_TO_PERSON, args | {"claim": "charged_twice"})]


def refund_contradiction(facts: dict[str, Any], inquiry: str, tools: set[str]) -> list[Call]:
    """A refund asked for on a claim the order's facts contradict: a person looks first.

    A damaged item on an order still on its way ("ORD-1002 arrived broken") or one the order
    does not hold; a parcel "not arrived" that the records show delivered.
    """
    if REFER_TO_PERSON not in tools or not facts:
        return []
    shipment = (facts.get("shipment") or {}).get("status")
    if says_not_received(inquiry) and shipment == ShipmentStatus.DELIVERED:
        number = facts.get("number")
        line = f"the customer says {number} has not arrived; the carrier shows it delivered"
        args = {"reason": CONTRADICTS, "summary": line, "order_number": number}
        return [(REFER_TO_PERSON, args | {"claim": "not_arrived"})]
    if reason(inquiry, "") != "damaged item":
        return []
    lines = facts.get("lines") or []
    order = {
        "status": facts.get("status"),
        "shipment_status": (facts.get("shipment") or {}).get("status"),
        "items": [line.get("name") or "" for line in lines],
        "items_en": [line.get("name_en") or "" for line in lines],
    }
    item = describe(inquiry).item
    if not fits(order, OrderReference(states=frozenset({DescribedState.DELIVERED}))):
        claim = "damaged_not_delivered"
    elif item and not has_item(order, item) and not _names_an_item_of(order, inquiry):
        claim = "item_not_in_order"
    else:
        return []
    number = facts.get("number")
    summary_line = f"the customer reports a damaged item on {number}: {claim.replace('_', ' ')}"
    args = {"reason": CONTRADICTS, "summary": summary_line, "order_number": number}
    return [(REFER_TO_PERSON, args | {"claim": claim})]


def _names_an_item_of(order: dict[str, Any], inquiry: str) -> bool:
    """Whether the message names one of the order's items anywhere: "the santoku knife's
    blade is chipped" is about the knife, though the part read as the item is the blade."""
    lowered = inquiry.lower()
    for name in [*order.get("items", []), *order.get("items_en", [])]:
        for word in re.split(r"[\s・/()（）]+", str(name).lower()):
            stem = word[:-1] if word.endswith("s") else word
            if len(stem) >= 2 and not stem.isdigit() and stem in lowered:
                return True
    return False
