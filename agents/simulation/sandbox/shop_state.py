"""What a case did to the sandbox's shop, read in the child around each turn: the rows it
wrote (bookings, coupons, and refunds or cancellations that ran without approval), a
fingerprint that tells whether the demo must be seeded again, and the facts a case names."""

from __future__ import annotations

import hashlib
from typing import Any

from netshop import models as m

# The rows a turn may add, by the name ``effects_since`` reports them under.
EFFECT_MODELS: dict[str, type[Any]] = {
    "redelivery": m.Redelivery,
    "date_change": m.DeliveryDateChange,
    "coupon": m.Coupon,
    "refund": m.Refund,
    "cancellation": m.Cancellation,
}

# Tables whose size tells a case changed the shop (with the orders, payments and parcels).
COUNTED: list[type[Any]] = [*EFFECT_MODELS.values(), m.ShipmentEvent]


def fingerprint() -> str:
    """A digest of everything a case could change that a later case reads."""
    parts = [
        list(m.Order.objects.order_by("number").values_list("number", "status")),
        list(
            m.Payment.objects.order_by("gateway_reference").values_list(
                "gateway_reference", "status", "authorized_amount", "captured_amount"
            )
        ),
        list(
            m.Shipment.objects.order_by("tracking_number").values_list(
                "tracking_number", "status", "scheduled_date", "original_scheduled_date"
            )
        ),
        [model.objects.count() for model in COUNTED],
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def high_water() -> dict[str, int]:
    """The last id of each effect's table: what a turn adds is above it."""
    return {
        name: model.objects.order_by("-id").values_list("id", flat=True).first() or 0
        for name, model in EFFECT_MODELS.items()
    }


def effects_since(before: dict[str, int]) -> list[dict[str, Any]]:
    """The effects written since ``before`` (``high_water``), as the verdicts read them."""
    out: list[dict[str, Any]] = []
    for r in m.Redelivery.objects.filter(id__gt=before["redelivery"]).select_related(
        "shipment__order"
    ):
        out.append(
            {
                "kind": "redelivery",
                "order": r.shipment.order.number,
                "date": r.slot_date.isoformat(),
                "window": r.slot_window,
            }
        )
    for c in m.DeliveryDateChange.objects.filter(id__gt=before["date_change"]).select_related(
        "shipment__order"
    ):
        out.append(
            {
                "kind": "date_change",
                "order": c.shipment.order.number,
                "date": c.new_date.isoformat(),
            }
        )
    for coupon in m.Coupon.objects.filter(id__gt=before["coupon"]).select_related("customer"):
        out.append({"kind": "coupon", "customer": coupon.customer.code, "value": coupon.value})
    for refund in m.Refund.objects.filter(id__gt=before["refund"]).select_related("payment__order"):
        out.append(
            {
                "kind": "refund_executed",
                "order": refund.payment.order.number,
                "amount": refund.amount,
            }
        )
    for cancel in m.Cancellation.objects.filter(id__gt=before["cancellation"]).select_related(
        "order"
    ):
        out.append({"kind": "cancellation_executed", "order": cancel.order.number})
    return out


def order_facts(number: str) -> dict[str, Any]:
    """What a case may expect a reply to state about an order: its customer, its parcel's
    tracking number, and its scheduled and original delivery dates."""
    order = m.Order.objects.filter(number=number).select_related("customer").first()
    if order is None:
        return {}
    facts: dict[str, Any] = {"customer": order.customer.code}
    shipment = m.Shipment.objects.filter(order=order).first()
    if shipment is not None:
        facts["tracking"] = shipment.tracking_number
        facts["date"] = shipment.scheduled_date
        facts["original_date"] = shipment.original_scheduled_date or shipment.scheduled_date
    return facts


def order_numbers(*, customer: str | None = None) -> set[str]:
    """Every order number of the shop, or of one customer."""
    orders = m.Order.objects.all()
    if customer is not None:
        orders = orders.filter(customer__code=customer)
    return set(orders.values_list("number", flat=True))
