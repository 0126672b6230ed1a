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
import json
import re
from datetime import date
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from agents.offline.address_receipt_turns import (
    address_change_turn,
    receipt_turn,
    refund_status_turn,
)
from agents.offline.choosing import choose_order, claims_not_arrived, options
from agents.offline.transcript import between, last_human_text, model_turns, tool_results
from agents.specialists.asking import ASK_CUSTOMER, REFER_TO_PERSON
from agents.vocabulary import Skill

Call = tuple[str, dict[str, Any]]

REASONS = (
    (r"壊れ|破損|割れ|傷|不良|broken|damaged|defect|crack", "damaged item"),
    (
        r"届か|届いてな|来ない|紛失|never arrived|not arrived|lost|didn.t arrive",
        "parcel not delivered",
    ),
    (r"違う商品|間違|wrong (item|color|size|product)", "wrong item"),
    (r"二重|twice|double", "charged twice"),
)


def today_from(prompt: str) -> date | None:
    match = re.search(r"Today is (\d{4}-\d{2}-\d{2})", prompt)
    return date.fromisoformat(match.group(1)) if match else None


def next_turn(messages: list[BaseMessage], tools: set[str]) -> AIMessage:
    prompt = last_human_text(messages)
    context = json.loads(between(prompt, "context") or "{}")
    inquiry = between(prompt, "inquiry")
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
        return _payment_turn(context, inquiry, results)
    if "search_faq" in tools:
        return _faq_turn(context, inquiry, results)
    return []


def _order_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    intent = context.get("intent", "get_order_details")
    entities = context.get("entities", {})
    if "get_order_details" in results or Skill.CANCEL_ORDER in results:
        return []
    if intent == "search_orders" and "search_orders" not in results:
        return [("search_orders", _search_args(entities))]
    number = next(iter(entities.get("order_numbers", [])), None)
    if number is None and "search_orders" in results:
        wanted = context.get("inquiry_intent", intent)
        if claims_not_arrived(inquiry) and wanted != Skill.ARRANGE_REDELIVERY:
            wanted = Skill.TRACK_SHIPMENT  # "not arrived" is about the parcels on their way
        orders = results["search_orders"].get("orders", [])
        tracking = set(entities.get("tracking_numbers", []))
        choice = choose_order(orders, wanted, tracking)
        if choice.ambiguous and tracking:
            return []  # the tracking number says which parcel: the Shipping agent tracks it
        if choice.ambiguous and ASK_CUSTOMER in tools:
            return [_which_order(context, inquiry, choice.candidates)]
        number = choice.number
        if number is None:
            return []
    if number is None:
        return [("search_orders", {})] if intent != "search_orders" else []
    calls: list[Call] = [("get_order_details", {"order_number": number})]
    if intent == Skill.CANCEL_ORDER:
        calls.append(
            (
                Skill.CANCEL_ORDER,
                {"order_number": number, "reason": _reason(inquiry, "customer request")},
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
    language = context.get("language", "ja")
    today = date.fromisoformat(context["today"]) if context.get("today") else None
    args = {
        "slot": "order",
        "why": "ambiguous",
        "options": options(candidates, language, today),
        "about": "parcel not delivered" if claims_not_arrived(inquiry) else _reason(inquiry, ""),
    }
    return (ASK_CUSTOMER, args)


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
    if results:
        return _contradiction(results, inquiry, tools)
    entities = context.get("entities", {})
    number = _order_number(context)
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
    tracking = next(iter(entities.get("tracking_numbers", [])), None)
    if tracking:
        return [("track_shipment", {"tracking_number": tracking})]
    return [("track_shipment", {"order_number": number})] if number else []


def _contradiction(results: dict[str, Any], inquiry: str, tools: set[str]) -> list[Call]:
    """The customer says it has not arrived, the carrier says delivered: a person looks
    (the reply neither insists on "delivered" nor makes up for a loss nobody has seen)."""
    tracked = results.get("track_shipment") or {}
    status = (tracked.get("tracking") or {}).get("status")
    if REFER_TO_PERSON not in tools or REFER_TO_PERSON in results or status != "delivered":
        return []
    if not claims_not_arrived(inquiry):
        return []
    number = tracked.get("order_number")
    summary = f"the customer says {number} has not arrived; the carrier shows it delivered"
    args = {"reason": "claim_contradicts_records", "summary": summary, "order_number": number}
    return [(REFER_TO_PERSON, args)]


def _future_dates(dates: list[str], today: str | None) -> list[str]:
    """Dates the customer wants something on: "yesterday" explains, it does not ask."""
    return [d for d in dates if today is None or d > today]


def _payment_turn(context: dict[str, Any], inquiry: str, results: dict[str, Any]) -> list[Call]:
    if results:
        return []
    intent = context.get("intent", "check_payment_status")
    if intent == "apply_coupon":
        # Only an order the customer named narrows the shop's search for a cause: the Order
        # agent's pick among their orders is a guess that could hide the troubled one.
        named = next(iter(context.get("entities", {}).get("order_numbers", [])), None)
        coupon: dict[str, Any] = {"reason": _reason(inquiry, "delivery trouble")}
        return [("apply_coupon", coupon | ({"order_number": named} if named else {}))]
    number = _order_number(context)
    if intent == Skill.REFUND_STATUS:
        return refund_status_turn(number, results)
    if intent == Skill.ISSUE_RECEIPT:
        return receipt_turn(number, inquiry, results)
    if number is None:
        return []
    if intent == Skill.PROCESS_REFUND:
        args: dict[str, Any] = {
            "order_number": number,
            "reason": _reason(inquiry, "customer request"),
        }
        amounts = context.get("entities", {}).get("amounts", [])
        if amounts:
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


def _reason(inquiry: str, default: str) -> str:
    lowered = inquiry.lower()
    return next((reason for pattern, reason in REASONS if re.search(pattern, lowered)), default)


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
