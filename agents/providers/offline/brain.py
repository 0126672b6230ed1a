"""The offline model's specialist turns: which tool to call next, with which arguments.

Each specialist gets the inquiry, its intent and the extracted entities in its ``<context>``
block, exactly as a real model would. The rules below choose like a careful agent: use the
order the customer names, otherwise look their orders up and take the one that fits what
they ask about, or ask the customer which when several fit equally (never a guess); hand to
a person when the customer's claim contradicts the records; act only with the facts at
hand; stop and summarise when done.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from agents.contract.blocks import block_json, block_text
from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline.address_receipt_turns import (
    address_change_turn,
    receipt_turn,
    refund_status_turn,
)
from agents.providers.offline.choosing import (
    CHARGED_TWICE,
    choose_order,
    claims_not_arrived,
    options,
)
from agents.providers.offline.described import (
    CANCEL_CUE,
    PAYMENT_CUE,
    REFUND_CUE,
    describe,
    orders_named_for,
)
from agents.providers.offline.referrals import (
    double_charge,
    not_arrived_contradiction,
    reason,
    refund_contradiction,
)
from agents.providers.offline.retail_turns import RETAIL_INTENTS, refund_items, retail_turn
from agents.providers.offline.transcript import last_human_text, model_turns, tool_results
from agents.support import catalogue
from agents.support.vocabulary import Skill

Call = tuple[str, dict[str, Any]]

# A coupon asked for because one expired ("my coupon expired", 「期限切れのクーポン」).
_EXPIRED = (
    r"期限(?:が)?切れ|期限を過ぎ|失効|使えなくなった"
    r"|expired|expiry (?:date )?(?:has )?passed|run out"
)


def next_turn(messages: list[BaseMessage], tools: set[str]) -> AIMessage:
    prompt = last_human_text(messages)
    context = block_json(prompt, "context", {})
    inquiry = block_text(prompt, "inquiry")
    results = tool_results(messages)
    calls = _choose(tools, context, inquiry, results)
    if not calls:
        return AIMessage(_summary(results))
    seed = f"{inquiry}|{sorted(tools)}|{model_turns(messages)}"
    return AIMessage(
        "",
        tool_calls=[
            {"name": name, "args": args, "id": _call_id(seed, index)}
            for index, (name, args) in enumerate(calls)
        ],
    )


def _choose(
    tools: set[str], context: dict[str, Any], inquiry: str, results: dict[str, Any]
) -> list[Call]:
    if "search_orders" in tools:
        return _order_turn(context, inquiry, results, tools)
    if "track_shipment" in tools:
        return _shipping_turn(context, inquiry, results, tools)
    if Skill.PROCESS_REFUND in tools:
        return _payment_turn(context, inquiry, results, tools)
    if "search_faq" in tools:
        return _faq_turn(context, inquiry, results)
    return []


def _order_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    intent = context.get("intent", "get_order_details")
    entities = context.get("entities", {})
    listed = (results.get("get_order_items") or {}).get("order_number")
    if intent in RETAIL_INTENTS and listed:
        return retail_turn(intent, inquiry, listed, results, reason(inquiry, "customer request"))
    if "get_order_details" in results or Skill.CANCEL_ORDER in results:
        return []
    if intent == "search_orders" and "search_orders" not in results:
        return [("search_orders", _search_args(entities))]
    number = next(iter(entities.get("order_numbers", [])), None)
    if number is None and "search_orders" in results:
        wanted = context.get("inquiry_intent", intent)
        if claims_not_arrived(inquiry) and wanted != Skill.ARRANGE_REDELIVERY:
            wanted = Skill.TRACK_SHIPMENT  # "not arrived" is about the parcels on their way
        elif reason(inquiry, "") == CHARGED_TWICE:
            wanted = CHARGED_TWICE
        orders = results["search_orders"].get("orders", [])
        tracking = set(entities.get("tracking_numbers", []))
        choice = choose_order(orders, wanted, tracking, describe(inquiry))
        if choice.ambiguous and tracking:
            return []  # the tracking number says which parcel: the Shipping agent tracks it
        if choice.ambiguous and ASK_CUSTOMER in tools:
            return [_which_order(context, inquiry, choice.candidates)]
        number = choice.number
        if number is None:
            return []
    if number is None:
        return [("search_orders", {})] if intent != "search_orders" else []
    if intent in RETAIL_INTENTS:
        return retail_turn(intent, inquiry, number, results, reason(inquiry, "customer request"))
    named = entities.get("order_numbers", [])
    if intent == Skill.CANCEL_ORDER and len(named) > 1:
        meant = orders_named_for(inquiry, CANCEL_CUE)
        if not meant and ASK_CUSTOMER in tools:
            return [_which_named(context, named)]  # several named, none said to be cancelled
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
        "about": "parcel not delivered" if claims_not_arrived(inquiry) else reason(inquiry, ""),
    }
    return (ASK_CUSTOMER, args)


def _which_named(context: dict[str, Any], named: list[str]) -> Call:
    """Several orders named and nothing says which one the money action is for: ask."""
    options = [{"value": number, "label": ""} for number in named[:5]]
    return (ASK_CUSTOMER, {"slot": "order", "why": "ambiguous", "options": options, "about": ""})


def _order_number(context: dict[str, Any]) -> str | None:
    order = context.get("order")
    if isinstance(order, dict) and order.get("number"):
        return str(order["number"])
    return next(iter(context.get("entities", {}).get("order_numbers", [])), None)


def _shipping_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    intent = context.get("intent", "track_shipment")
    if intent == Skill.CHANGE_SHIPPING_ADDRESS:
        return address_change_turn(context, inquiry, results, tools)
    entities = context.get("entities", {})
    number = _order_number(context)
    shift = entities.get("date_shift_days")
    if intent == "change_delivery_date" and shift and number and not entities.get("dates"):
        return _shifted_date(number, int(shift), context, results)
    if results:
        return not_arrived_contradiction(results, inquiry, tools)
    dates = _future_dates(entities.get("dates", []), context.get("today"))
    if number and dates and intent == "arrange_redelivery":
        window = entities.get("time_window") or "08-12"
        return [
            (
                "arrange_redelivery",
                {"order_number": number, "slot_date": dates[0], "slot_window": window},
            )
        ]
    if number and dates and intent == "change_delivery_date":
        return [("change_delivery_date", {"order_number": number, "new_date": dates[0]})]
    if number and intent == "change_delivery_date" and ASK_CUSTOMER in tools:
        # A change with no date to change to: the customer is asked, not shown the tracking.
        return [(ASK_CUSTOMER, {"slot": "date", "why": "missing", "options": [], "about": ""})]
    tracking = next(iter(entities.get("tracking_numbers", [])), None)
    if tracking:
        return [("track_shipment", {"tracking_number": tracking})]
    return [("track_shipment", {"order_number": number})] if number else []


def _shifted_date(
    number: str, shift: int, context: dict[str, Any], results: dict[str, Any]
) -> list[Call]:
    """ "Push it back two days": the new date counts from the parcel's scheduled date, read
    from the order's facts or, failing those, from the carrier (tracked first)."""
    if "change_delivery_date" in results:
        return []
    shipment = (context.get("order") or {}).get("shipment") or {}
    tracked = ((results.get("track_shipment") or {}).get("tracking")) or {}
    scheduled = tracked.get("scheduled_date") or shipment.get("scheduled_date")
    if not scheduled:
        return [] if "track_shipment" in results else [("track_shipment", {"order_number": number})]
    new_date = date.fromisoformat(scheduled) + timedelta(days=shift)
    return [("change_delivery_date", {"order_number": number, "new_date": new_date.isoformat()})]


def _future_dates(dates: list[str], today: str | None) -> list[str]:
    """Dates the customer wants something on: "yesterday" explains, it does not ask."""
    return [d for d in dates if today is None or d > today]


def _payment_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    if results:
        return double_charge(results, inquiry, tools)
    intent = context.get("intent", "check_payment_status")
    if intent == "apply_coupon":
        # Only an order the customer named narrows the shop's search for a cause: the Order
        # agent's pick among their orders is a guess that could hide the troubled one.
        named = next(iter(context.get("entities", {}).get("order_numbers", [])), None)
        coupon: dict[str, Any] = {"reason": reason(inquiry, "delivery trouble")}
        if re.search(_EXPIRED, inquiry, re.IGNORECASE):
            coupon["replaces_expired"] = True  # a reissue: refused, whatever else happened
        return [("apply_coupon", coupon | ({"order_number": named} if named else {}))]
    number = _order_number(context)
    if intent == Skill.REFUND_STATUS:
        return refund_status_turn(number, results)
    if intent == Skill.ISSUE_RECEIPT:
        return receipt_turn(number, inquiry, results)
    several = context.get("entities", {}).get("order_numbers", [])
    if len(several) > 1:
        # Several orders named: the one named with the refund (the payment) is the one meant.
        refund = intent == Skill.PROCESS_REFUND
        meant = orders_named_for(inquiry, REFUND_CUE if refund else f"{PAYMENT_CUE}|{REFUND_CUE}")
        if not meant and refund and ASK_CUSTOMER in tools:
            return [_which_named(context, several)]
        number = next(iter(meant), number)
    if number is None:
        return []
    if intent == Skill.PROCESS_REFUND:
        facts = context.get("order")
        if isinstance(facts, dict) and facts.get("number") == number:
            referral = refund_contradiction(facts, inquiry, tools)
            if referral:
                return referral
        args: dict[str, Any] = {
            "order_number": number,
            "reason": reason(inquiry, "customer request"),
        }
        amounts = context.get("entities", {}).get("amounts", [])
        items = refund_items(inquiry, context.get("order") or {})
        if items:
            args["items"] = items  # one item of several: its amount, from the shop's records
        elif amounts:
            args["amount"] = max(amounts)
        return [(Skill.PROCESS_REFUND, args)]
    return [("check_payment_status", {"order_number": number})]


def _faq_turn(context: dict[str, Any], inquiry: str, results: dict[str, Any]) -> list[Call]:
    intent = context.get("intent", "search_faq")
    if results or intent == "contact_human":
        return []
    language = context.get("language", "ja")
    if intent == "answer_general_question":
        return [("answer_general_question", {"question": inquiry, "language": language})]
    return [("search_faq", {"query": inquiry, "language": language})]


def _summary(results: dict[str, Any]) -> str:
    if not results:
        return "Nothing to look up: the request names no order I could identify."
    parts = []
    for tool, result in results.items():
        if "refused" in result:
            parts.append(f"{tool}: refused ({result['refused']})")
        elif "error" in result:
            parts.append(f"{tool}: failed ({result['error']})")
        else:
            parts.append(f"{tool}: done")
    return "; ".join(parts)


def _call_id(seed: str, index: int) -> str:
    return "call_" + hashlib.sha256(f"{seed}|{index}".encode()).hexdigest()[:24]
