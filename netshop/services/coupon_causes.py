"""Why the shop owes a customer an apology coupon, from the shop's own records only.

An apology coupon answers something that went wrong on the shop's side of a delivery. What
the customer writes ("it came late", "you promised me one") points at an order at most; the
cause is read from the shipment's record: its status, its promised date, the carrier's
scans and the redeliveries the shop booked. ``coupon_cause_find`` is the rule, a pure
function of those facts; ``coupon_cause_for`` reads them from the database and applies it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence

from django.db.models import Prefetch
from django.utils import timezone

from netshop.errors import DomainError
from netshop.models import (
    Coupon,
    CouponCause,
    Customer,
    Redelivery,
    Shipment,
    ShipmentEvent,
    ShipmentStatus,
)
from netshop.shop_time import SHOP_TZ

# A parcel still on its way: past its promised date, it is late even before it arrives.
ON_THE_WAY = (ShipmentStatus.PREPARING, ShipmentStatus.IN_TRANSIT, ShipmentStatus.OUT_FOR_DELIVERY)


@dataclasses.dataclass(frozen=True)
class DeliveryFacts:
    """One order's delivery as the shop recorded it (dates are the shop's local dates)."""

    order_number: str
    status: str
    scheduled_date: dt.date | None
    delivered_on: dt.date | None = None
    returned_on: dt.date | None = None
    redelivery_dates: tuple[dt.date, ...] = ()


@dataclasses.dataclass(frozen=True)
class Cause:
    """A named cause, the order it happened to, and when it happened."""

    cause: CouponCause
    order_number: str
    on: dt.date


def delivery_cause(facts: DeliveryFacts, *, today: dt.date) -> Cause | None:
    """The most serious cause this delivery gives, if any."""
    arrived = facts.delivered_on
    missed_slots = [d for d in facts.redelivery_dates if (arrived or today) > d]
    if missed_slots:
        return Cause(CouponCause.REDELIVERY_MISSED, facts.order_number, max(missed_slots))
    if facts.status == ShipmentStatus.ABSENT_RETURNED:
        on = facts.returned_on or facts.scheduled_date or today
        return Cause(CouponCause.DELIVERY_MISSED, facts.order_number, on)
    promised = facts.scheduled_date
    if promised is None:
        return None
    if arrived is not None and arrived > promised:
        return Cause(CouponCause.DELIVERY_LATE, facts.order_number, arrived)
    if arrived is None and facts.status in ON_THE_WAY and promised < today:
        return Cause(CouponCause.DELIVERY_LATE, facts.order_number, today)  # still late today
    return None


def coupon_cause_find(
    *,
    deliveries: Sequence[DeliveryFacts],
    today: dt.date,
    since: dt.date,
    compensated: Mapping[str, bool],
    has_expired_coupon: bool,
) -> Cause:
    """The first recent cause not yet compensated, or the refusal that applies.

    ``compensated`` maps an order number to whether the coupon already given for it has
    expired: one trouble earns one coupon, and an expired one is not reissued (the FAQ's
    rule). Refuses with ``coupon_no_cause`` when the records show nothing the policy names.
    """
    causes = [
        cause
        for facts in deliveries
        if (cause := delivery_cause(facts, today=today)) is not None and cause.on >= since
    ]
    fresh = [cause for cause in causes if cause.order_number not in compensated]
    if fresh:
        return fresh[0]
    if any(compensated[cause.order_number] for cause in causes) or (
        not causes and has_expired_coupon
    ):
        raise DomainError("coupon_expired_not_reissued")
    if causes:
        numbers = ", ".join(sorted({cause.order_number for cause in causes}))
        raise DomainError("coupon_cause_compensated", orders=numbers)
    raise DomainError("coupon_no_cause")


# --- Reading the facts ---------------------------------------------------------------------


def coupon_cause_for(
    *, customer: Customer, order_number: str | None, today: dt.date, window_days: int
) -> Cause:
    """The cause for a coupon to ``customer`` now, read from the database.

    ``order_number`` narrows the search to the order the inquiry is about; without it, any
    of the customer's orders with a recent cause will do.
    """
    shipments = Shipment.objects.filter(order__customer=customer).select_related("order")
    if order_number:
        shipments = shipments.filter(order__number=order_number)
    shipments = shipments.order_by("-order__placed_at").prefetch_related(
        Prefetch(
            "events",
            queryset=ShipmentEvent.objects.filter(
                status__in=(ShipmentStatus.DELIVERED, ShipmentStatus.ABSENT_RETURNED)
            ),
        ),
        Prefetch("redeliveries", queryset=Redelivery.objects.only("shipment_id", "slot_date")),
    )
    return coupon_cause_find(
        deliveries=[_delivery_facts(shipment) for shipment in shipments],
        today=today,
        since=today - dt.timedelta(days=window_days),
        compensated=_compensated_orders(customer),
        has_expired_coupon=_latest_coupon_expired(customer),
    )


def _delivery_facts(shipment: Shipment) -> DeliveryFacts:
    return DeliveryFacts(
        order_number=shipment.order.number,
        status=shipment.status,
        scheduled_date=shipment.scheduled_date,
        delivered_on=_last_scan(shipment, ShipmentStatus.DELIVERED),
        returned_on=_last_scan(shipment, ShipmentStatus.ABSENT_RETURNED),
        redelivery_dates=tuple(r.slot_date for r in shipment.redeliveries.all()),
    )


def _last_scan(shipment: Shipment, status: str) -> dt.date | None:
    """The shop's local date of the last carrier scan with ``status`` (events prefetched)."""
    scans = [event for event in shipment.events.all() if event.status == status]
    return max((event.occurred_at.astimezone(SHOP_TZ).date() for event in scans), default=None)


def _compensated_orders(customer: Customer) -> dict[str, bool]:
    """Orders a coupon was already given for, and whether that coupon has expired."""
    now = timezone.now()
    given = Coupon.objects.filter(customer=customer, cause_order__isnull=False).values_list(
        "cause_order__number", "expires_at"
    )
    return {number: expires_at <= now for number, expires_at in given}


def _latest_coupon_expired(customer: Customer) -> bool:
    latest = Coupon.objects.filter(customer=customer).order_by("-created_at").first()
    return latest is not None and latest.expires_at <= timezone.now()
