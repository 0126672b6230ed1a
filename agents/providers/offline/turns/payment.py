"""The Payment agent's turn: the payment's status, a refund, an apology coupon; the refund
status and a receipt go on in ``refund_status`` and ``receipt``."""

from __future__ import annotations

from typing import Any

from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline.turns.calls import Call
from agents.providers.offline.turns.choosing import order_number, which_named
from agents.providers.offline.turns.order_items import refund_items
from agents.providers.offline.turns.receipt import receipt_turn
from agents.providers.offline.turns.referrals import double_charge, refund_contradiction
from agents.providers.offline.turns.refund_status import refund_status_turn
from agents.providers.offline.understanding.described import (
    PAYMENT_CUE,
    REFUND_CUE,
    orders_named_for,
)
from agents.providers.offline.understanding.faq import HELPED_BY_FAQ, problems_in
from agents.providers.offline.understanding.reasons import reason, replaces_expired
from agents.support.vocabulary import Skill


def payment_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    if results:
        return double_charge(results, inquiry, tools)
    calls = _payment_calls(context, inquiry, results, tools)
    return [*calls, *help_lookup(context, inquiry, tools)]


def help_lookup(context: dict[str, Any], inquiry: str, tools: set[str]) -> list[Call]:
    """A problem whose conditions the shop's help keeps (a coupon that would not apply) is
    looked up there beside the check: the reply states the shop's conditions, not a guess."""
    if Skill.SEARCH_FAQ not in tools or not problems_in(inquiry) & HELPED_BY_FAQ:
        return []
    language = context.get("language", "ja")
    return [(Skill.SEARCH_FAQ, {"query": inquiry, "language": language, "category": "coupons"})]


def _payment_calls(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    intent = context.get("intent", "check_payment_status")
    if intent == "apply_coupon":
        # Only an order the customer named narrows the shop's search for a cause: the Order
        # agent's pick among their orders is a guess that could hide the troubled one.
        named = next(iter(context.get("entities", {}).get("order_numbers", [])), None)
        coupon: dict[str, Any] = {"reason": reason(inquiry, "delivery trouble")}
        if replaces_expired(inquiry):
            coupon["replaces_expired"] = True  # a reissue: refused, whatever else happened
        return [("apply_coupon", coupon | ({"order_number": named} if named else {}))]
    number = order_number(context)
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
            return [which_named(several)]
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
