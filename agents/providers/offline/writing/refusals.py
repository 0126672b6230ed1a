"""Why the shop said no, in the customer's words: one sentence per refused or failed tool.

Tool refusals arrive as ``{"refused": code, "reason": English text}``, with the code's
``variant`` when it has several rules (``receipt_addressee_invalid``: ``amount``, ``control``).
The code and its variant pick the sentence; the English text is only mined for the order
number and the order's status (both shop codes, not prose), and is never shown.
"""

from __future__ import annotations

import re
from typing import Any, Final

from django.conf import settings

from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import TOOL, word
from agents.providers.offline.writing.reply import Reply, as_dict, sentence
from agents.support import catalogue
from agents.support.shapes import HELD
from netshop.models import OrderStatus, ShipmentStatus
from netshop.policy import policy_in_force
from netshop.services.receipt_addressee import MAX_ADDRESSEE

_ORDER_NUMBER_RE: Final = re.compile(r"\bORD-\d+\b")


_ORDER_STATUS_RE: Final = re.compile(rf"\bis ({'|'.join(OrderStatus.values)})\b")
# A parcel's refusal names the parcel's state ("shipment … is absent_returned"): it says why
# better than the order's (a parcel back at the depot is not "out for delivery").
_SHIPMENT_STATUS_RE: Final = re.compile(rf"\bshipment \S+ is ({'|'.join(ShipmentStatus.values)})\b")


ASK_ORDER_CODES: Final = frozenset({"order_number_required"})


# Check names and codes the shop uses for the same refusal, folded into one key.
REFUSAL_ALIASES: Final[dict[str, str]] = {
    "order_cancellable": "order_not_cancellable",
    "payment_captured": "payment_not_captured",
    "within_refundable": "refund_exceeds_captured",
    "amount_positive": "nothing_to_refund",
    "invalid_amount": "nothing_to_refund",
    "parcel_at_depot": "redelivery_not_allowed",
    "redelivery_not_available": "redelivery_not_allowed",
    "slot_date_in_range": "slot_out_of_range",
    "slot_window_valid": "invalid_slot_window",
    "not_out_for_delivery": "date_change_not_allowed",
    "date_change_too_late": "date_change_not_allowed",
    "date_in_range": "date_out_of_range",
    "date_differs": "date_unchanged",
    "first_for_inquiry": "coupon_already_issued",
    "within_customer_limit": "coupon_limit_reached",
    # Returns, exchanges and item changes.
    "order_delivered": "order_not_delivered",
    "within_return_window": "return_window_passed",
    "not_already_returned": "already_returned",
    "item_returnable": "item_not_returnable",
    "amount_within_items": "return_amount_exceeds_items",
    "within_exchange_window": "exchange_window_passed",
    "first_exchange": "already_exchanged",
    "variant_in_stock": "variant_out_of_stock",
    "order_modifiable": "order_not_modifiable",
    "quantity_lowered": "quantity_not_lowered",
    "items_remain": "order_would_be_empty",
}


def refusal_key(code: str, order_status: str | None, variant: str = "") -> str:
    """The catalogue's refusal for ``code``, refined by the rule that refused (its variant) or
    else by the order's status, where that matters."""
    key = f"refusal.{REFUSAL_ALIASES.get(code, code)}"
    for refined in (f"{key}.{variant}" if variant else "", f"{key}.{order_status}"):
        if refined and catalogue.has("ja", refined):
            return refined
    return key if catalogue.has("ja", key) else "refusal.generic"


def refusal_paragraphs(reply: Reply, tools: dict[str, Any]) -> list[str]:
    """One sentence per refused or failed tool, in the customer's language."""
    paragraphs: list[str] = []
    for tool, result in tools.items():
        result = as_dict(result)
        if result.get("refused") in ASK_ORDER_CODES:
            reply.missing_order = True
        elif result.get("refused"):
            paragraphs.append(refusal_sentence(reply, str(result["refused"]), result, tool=tool))
        elif result.get("error"):
            paragraphs.append(reply.say("tool_error", tool=word(TOOL, reply.lang, tool, "tool")))
        elif HELD in result:  # nothing ran: a person looks first (never why: no internals)
            reply.follow_up_promised = True
            paragraphs.append(reply.say("held", tool=word(TOOL, reply.lang, tool, "tool")))
    return paragraphs


def refusal_sentence(reply: Reply, code: str, result: dict[str, Any], *, tool: str) -> str:
    """Why the shop said no, from the code; the order named as the refusal names it."""
    reason = str(result.get("reason") or "")
    quoted = _ORDER_NUMBER_RE.search(reason)
    if quoted:
        number = quoted.group(0)
    else:
        number = str(as_dict(result.get("params")).get("order_number") or "")
        if not number and code != "order_not_found":
            number = reply.known_order
    # The refusal's own wording is fresher than facts read before it (the order may have moved).
    parcel = _SHIPMENT_STATUS_RE.search(reason)
    stated = parcel or _ORDER_STATUS_RE.search(reason)
    status = stated.group(1) if stated else reply.order_statuses.get(number)
    key = refusal_key(code, status, str(result.get("variant") or ""))
    fields: dict[str, object] = {
        "order_ref": fmt.order_ref(reply.lang, number),
        "tool": word(TOOL, reply.lang, tool, "tool"),
        "redelivery_days": settings.NETSHOP_REDELIVERY_WINDOW_DAYS,
        "date_change_days": settings.NETSHOP_DATE_CHANGE_WINDOW_DAYS,
        "addressee_chars": MAX_ADDRESSEE,
    }
    if POLICY_FIELDS & catalogue.placeholders(reply.lang, key):  # read only when told
        policy = policy_in_force()
        fields |= {
            "return_days": policy.return_window_days,
            "exchange_days": policy.exchange_window_days,
        }
    return sentence(reply.lang, catalogue.say_from(reply.lang, key, fields))


# The windows a refusal states that the shop's policy sets (``netshop.policy``): the ones in
# force, as the refusing rule read them.
POLICY_FIELDS = frozenset({"return_days", "exchange_days"})
