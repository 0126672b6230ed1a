"""The topic tags an article carries: what it is about, in words that do not change when its
text is reworded.

Retrieval uses them as its second signal (a customer's words are read into the same names by
``netshop.knowledge.concepts``), and the AI's writer uses them to know which problem an
article is about (a damaged item, a double charge) or that it explains how to ask for an
action (cancelling an order). A shop may add tags of its own; those below are understood.
"""

from __future__ import annotations

from typing import Final

# Tags naming one customer problem: an article carrying one is used for that problem only.
PROBLEM_TAGS: Final = (
    "damaged",
    "not_received",
    "double_charge",
    "payment_failed",
    "coupon_not_applied",
    "missed_delivery",
)

# Tags of the articles explaining how to ask for an action support can also carry out.
ACTION_TAGS: Final = ("order_cancellation",)

# Every tag the shop's software understands, with what it means (for the people tagging).
TOPIC_TAGS: Final[dict[str, str]] = {
    "return_policy": "returning an item: whether, how and by when",
    "damaged": "an item arrived broken, damaged or defective",
    "refund_timing": "when a refund is paid and where it appears",
    "exchange": "exchanging an item for another size or colour",
    "non_returnable": "items that cannot be returned",
    "delivery_time": "how long delivery takes",
    "shipping_fee": "what shipping costs",
    "tracking": "where a parcel is, its tracking number",
    "delivery_date": "choosing a delivery date or time",
    "change_delivery_date": "changing the delivery date of a shipped order",
    "missed_delivery": "a delivery missed, a redelivery",
    "overseas_shipping": "shipping abroad",
    "not_received": "marked delivered but not received",
    "payment_methods": "the ways to pay",
    "konbini_payment": "paying at a convenience store",
    "cash_on_delivery": "cash on delivery and its fee",
    "card_charge_timing": "when a card is charged",
    "double_charge": "charged twice",
    "payment_failed": "a payment that failed or was declined",
    "bank_transfer": "paying by bank transfer",
    "password": "a forgotten password, signing in",
    "email_change": "changing the account's e-mail address",
    "address_change": "changing the delivery address",
    "close_account": "closing the account, unsubscribing from mail",
    "guest_checkout": "ordering without an account",
    "coupon_use": "how to use a coupon",
    "coupon_not_applied": "a coupon that does not work",
    "apology_coupon": "the shop's apology coupons",
    "order_cancellation": "cancelling an order",
    "change_order": "changing what an order contains",
    "order_confirmation": "the order confirmation e-mail",
    "order_status": "what an order's status means",
    "restock": "sold-out items coming back",
    "gift_wrapping": "gift wrapping, noshi, message cards",
    "gift_price_hidden": "sending a gift without the price",
    "invoice": "receipts and invoices",
    "support_hours": "when and how to reach support",
}
