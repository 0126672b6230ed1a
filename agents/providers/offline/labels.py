"""The customer's word for a shop code (a status, a payment method, a tool), and which
refusal sentence a refusal's code picks; the words themselves are the catalogue's.

A code the catalogue lacks falls back to a neutral word, never to the code itself: the
customer must not see internal identifiers.
"""

from __future__ import annotations

from typing import Final

from agents.support import catalogue
from agents.support.catalogue import Language

# The catalogue's families of words for codes: ``{family}.{code}``.
ORDER_STATUS: Final = "order_status"
SHIPMENT_STATUS: Final = "shipment_status"
PAYMENT_METHOD: Final = "payment_method"
AGENT: Final = "agent"
TOOL: Final = "tool"

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


def word(family: str, lang: Language, code: object, fallback: str = "status") -> str:
    """``code``'s word in ``lang``; a neutral word (never the code) if the catalogue lacks it."""
    key = f"{family}.{str(code or '').lower()}"
    if catalogue.has(lang, key):
        return catalogue.say(lang, key)
    return catalogue.say(lang, f"fallback.{fallback}")


def refusal_key(code: str, order_status: str | None) -> str:
    """The catalogue's refusal for ``code``, refined by the order's status where that matters."""
    key = f"refusal.{REFUSAL_ALIASES.get(code, code)}"
    refined = f"{key}.{order_status}"
    if catalogue.has("ja", refined):
        return refined
    return key if catalogue.has("ja", key) else "refusal.generic"
