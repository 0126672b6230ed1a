"""The Order agent's turn: which order (named, looked up, or asked about), its details, and a
cancellation; returns, exchanges and item changes go on in ``order_items``."""

from __future__ import annotations

from datetime import date
from typing import Any

from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline.turns.calls import Call
from agents.providers.offline.turns.choosing import options, which_named
from agents.providers.offline.turns.order_items import ITEM_INTENTS, order_items_turn
from agents.providers.offline.understanding.claims import says_not_received
from agents.providers.offline.understanding.described import CANCEL_CUE, describe, orders_named_for
from agents.providers.offline.understanding.items import folded, says_add, says_remove
from agents.providers.offline.understanding.reasons import reason
from agents.support import catalogue
from agents.support.grounding.orders import CHARGED_TWICE, Grounding
from agents.support.vocabulary import Skill


def order_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    intent = _item_addition(context.get("intent", "get_order_details"), inquiry)
    entities = context.get("entities", {})
    listed = (results.get("get_order_items") or {}).get("order_number")
    if intent in ITEM_INTENTS and listed:
        return order_items_turn(
            intent, inquiry, listed, results, reason(inquiry, "customer request")
        )
    if "get_order_details" in results or Skill.CANCEL_ORDER in results:
        return []
    if intent == "search_orders" and "search_orders" not in results:
        return [("search_orders", _search_args(entities))]
    number = next(iter(entities.get("order_numbers", [])), None)
    if number is None and context.get("inquiry_intent") == Skill.APPLY_COUPON:
        # The shop looks for a coupon's cause among all the customer's orders itself
        # (``netshop.services.coupon_causes``): asking which order would ask the customer
        # for what they need not know, and a pick of ours could hide the troubled one.
        return []
    if number is None and "search_orders" in results:
        found = results["search_orders"]
        choice = Grounding.from_result(found.get("grounding") or {}, found.get("orders", []))
        if choice.ambiguous and entities.get("tracking_numbers"):
            return []  # the tracking number says which parcel: the Shipping agent tracks it
        if choice.ambiguous and ASK_CUSTOMER in tools:
            return [_which_order(context, inquiry, choice.candidates)]
        number = choice.number
        if number is None:
            return []
    if number is None:
        if intent == "search_orders":
            return []
        return [("search_orders", _grounding_args(context, inquiry, intent))]
    if intent in ITEM_INTENTS:
        return order_items_turn(
            intent, inquiry, number, results, reason(inquiry, "customer request")
        )
    named = entities.get("order_numbers", [])
    if intent == Skill.CANCEL_ORDER and len(named) > 1:
        meant = orders_named_for(inquiry, CANCEL_CUE)
        if not meant and ASK_CUSTOMER in tools:
            return [which_named(named)]  # several named, none said to be cancelled
        number = next(iter(meant), number)
    calls: list[Call] = [("get_order_details", {"order_number": number})]
    if intent == Skill.CANCEL_ORDER:
        calls.append(
            (
                Skill.CANCEL_ORDER,
                {"order_number": number, "reason": reason(inquiry, "customer request")},
            )
        )
    return calls


def _item_addition(intent: str, inquiry: str) -> str:
    """An item added to an order, read as a look-up or a cancellation, is an item change: the
    shop's refusal (an addition is a new order) answers it, not the order's contents, and an
    order is never cancelled on a message that does not say cancel."""
    text = folded(inquiry)
    adding = says_add(text) and not says_remove(text)
    if adding and intent in ("get_order_details", Skill.CANCEL_ORDER):
        return Skill.MODIFY_ORDER_ITEMS
    return intent


def _grounding_args(context: dict[str, Any], inquiry: str, intent: str) -> dict[str, Any]:
    """What the customer said about the order they mean, for the shop to find it by
    (``search_orders`` grounds it against their real orders)."""
    request = context.get("inquiry_intent", intent)
    if says_not_received(inquiry) and request != Skill.ARRANGE_REDELIVERY:
        request = Skill.TRACK_SHIPMENT  # "not arrived" is about the parcels on their way
    elif reason(inquiry, "") == CHARGED_TWICE:
        request = CHARGED_TWICE
    described = describe(inquiry)
    said = {
        "words": described.words,
        "item": described.item,
        "states": sorted(str(state) for state in described.states),
        "numbers": sorted(described.numbers),
        "amounts": sorted(described.amounts),
        "tracking_numbers": list(context.get("entities", {}).get("tracking_numbers", [])),
    }
    return {"request": str(request)} | {name: value for name, value in said.items() if value}


def _search_args(entities: dict[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    if entities.get("date_range"):
        args["placed_from"], args["placed_to"] = entities["date_range"]
    if entities.get("order_status"):
        args["status"] = entities["order_status"]
    return args


def _which_order(context: dict[str, Any], inquiry: str, candidates: list[Any]) -> Call:
    """Several of the customer's orders fit: ask which one, offering them."""
    language = catalogue.spoken(context.get("language"), default="ja")
    today = date.fromisoformat(context["today"]) if context.get("today") else None
    args = {
        "slot": "order",
        "why": "ambiguous",
        "options": options(candidates, language, today),
        "about": "parcel not delivered" if says_not_received(inquiry) else reason(inquiry, ""),
    }
    return (ASK_CUSTOMER, args)
