"""The shop's rules as checks: the services enforce them and the approval hand-off shows them.

Each ``*_checks`` function evaluates every rule for a proposed action and returns the list,
passed or not, so an operator sees the whole picture; the service raises ``DomainError`` for
the first failure. Keeping one list per action means a rule is written once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Final

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone

from netshop.errors import DomainError
from netshop.models import (
    Coupon,
    Customer,
    Order,
    OrderStatus,
    Payment,
    PaymentStatus,
    Refund,
    Shipment,
    ShipmentStatus,
)
from netshop.money import yen
from netshop.policy import Policy, policy_in_force
from netshop.shop_time import shop_today

SLOT_WINDOWS: Final = ("08-12", "12-14", "14-16", "16-18", "18-21")
CANCELLABLE: Final = (OrderStatus.PENDING, OrderStatus.CONFIRMED)
# A fully refunded payment was still captured: refusing it as "exceeds captured" (¥0 left)
# tells the operator more than "not captured" would.
CAPTURED: Final = (
    PaymentStatus.CAPTURED,
    PaymentStatus.PARTIALLY_REFUNDED,
    PaymentStatus.REFUNDED,
)
DATE_CHANGEABLE: Final = (ShipmentStatus.PREPARING, ShipmentStatus.IN_TRANSIT)


@dataclasses.dataclass(frozen=True)
class PolicyCheck:
    """One rule applied to one proposed action; ``code`` is the DomainError code if it fails."""

    name: str
    passed: bool
    detail: str
    code: str = ""

    def as_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def raise_first_failure(checks: list[PolicyCheck]) -> None:
    """Refuse the action with the first failing check, if any."""
    for check in checks:
        if not check.passed:
            raise DomainError(check.code, check.detail)


# --- Orders and payments -------------------------------------------------------------------


def cancel_checks(*, order: Order) -> list[PolicyCheck]:
    """Rules for cancelling ``order``: its status, and what happens to its payment."""
    cancellable = order.status in CANCELLABLE
    return [
        PolicyCheck(
            name="order_cancellable",
            passed=cancellable,
            detail=(
                f"order {order.number} is {order.status}"
                + ("" if cancellable else "; only pending or confirmed orders can be cancelled")
            ),
            code="order_not_cancellable",
        ),
        _authorization_check(Payment.objects.filter(order=order).first()),
    ]


def _authorization_check(payment: Payment | None) -> PolicyCheck:
    # Informational: a cancellation never fails on the payment, but the operator must see
    # whether money is released by it or needs a separate refund.
    if payment is None:
        detail = "no payment on this order"
    elif payment.status == PaymentStatus.AUTHORIZED:
        detail = f"the {yen(payment.authorized_amount)} authorization will be released"
    elif payment.status in CAPTURED:
        detail = (
            f"payment already captured ({yen(payment.captured_amount)}); "
            "money back needs a separate refund"
        )
    else:
        detail = f"payment is {payment.status}; nothing to release"
    return PolicyCheck(name="payment_authorization", passed=True, detail=detail)


def refund_checks(*, order: Order, amount: int, reason: str) -> list[PolicyCheck]:
    """Rules for refunding ``amount`` yen on ``order`` (payment read fresh from the database)."""
    payment = Payment.objects.filter(order=order).first()
    return payment_refund_checks(payment=payment, order=order, amount=amount, reason=reason)


def payment_refund_checks(
    *, payment: Payment | None, order: Order, amount: int, reason: str
) -> list[PolicyCheck]:
    """``refund_checks`` on a payment the caller already holds (locked, in the service)."""
    status = payment.status if payment else "missing"
    captured = captured_total(payment)
    refunded = refunded_total(payment) if payment else 0
    refundable = captured - refunded
    return [
        PolicyCheck(
            name="payment_captured",
            passed=status in CAPTURED,
            detail=f"payment on {order.number} is {status}"
            + ("" if status in CAPTURED else "; only captured payments can be refunded"),
            code="payment_not_captured",
        ),
        PolicyCheck(
            name="amount_positive",
            passed=amount > 0,
            detail=f"refund amount is {yen(amount)}",
            code="invalid_amount",
        ),
        PolicyCheck(
            name="within_refundable",
            passed=amount <= refundable,
            detail=(
                f"refund of {yen(amount)} against a refundable {yen(refundable)} "
                f"(captured {yen(captured)}, already refunded {yen(refunded)})"
            ),
            code="refund_exceeds_captured",
        ),
        PolicyCheck(
            name="reason_given",
            passed=bool(reason.strip()),
            detail="a reason is given" if reason.strip() else "a refund needs a reason",
            code="reason_required",
        ),
    ]


def captured_total(payment: Payment | None) -> int:
    """Yen captured and so refundable at most (nothing before capture)."""
    return payment.captured_amount if payment and payment.status in CAPTURED else 0


def refundable_total(payment: Payment | None) -> int:
    """Yen that can still be refunded: captured and not yet refunded."""
    return captured_total(payment) - (refunded_total(payment) if payment else 0)


def refunded_total(payment: Payment) -> int:
    """Yen refunded so far, summed in the database (never a stale prefetch)."""
    total = Refund.objects.filter(payment=payment).aggregate(total=Sum("amount"))["total"]
    return int(total or 0)


# --- Shipping ------------------------------------------------------------------------------


def redelivery_checks(
    *, shipment: Shipment, slot_date: dt.date, slot_window: str
) -> list[PolicyCheck]:
    """Rules for a redelivery: the parcel went back to the depot, a slot in the next days."""
    today = shop_today()
    last = today + dt.timedelta(days=settings.NETSHOP_REDELIVERY_WINDOW_DAYS)
    returned = shipment.status == ShipmentStatus.ABSENT_RETURNED
    return [
        PolicyCheck(
            name="parcel_at_depot",
            passed=returned,
            detail=f"shipment {shipment.tracking_number} is {shipment.status}"
            + ("" if returned else "; redelivery is only for parcels taken back (absent_returned)"),
            code="redelivery_not_allowed",
        ),
        PolicyCheck(
            name="slot_date_in_range",
            passed=today < slot_date <= last,
            detail=f"slot date {slot_date} must be between {today + dt.timedelta(days=1)} "
            f"and {last}",
            code="slot_out_of_range",
        ),
        PolicyCheck(
            name="slot_window_valid",
            passed=slot_window in SLOT_WINDOWS,
            detail=f"time window {slot_window!r} must be one of {', '.join(SLOT_WINDOWS)}",
            code="invalid_slot_window",
        ),
    ]


def date_change_checks(*, shipment: Shipment, new_date: dt.date) -> list[PolicyCheck]:
    """Rules for moving a delivery: not yet out for delivery, a date near the original one."""
    today = shop_today()
    original = shipment.original_scheduled_date or shipment.scheduled_date or today
    last = original + dt.timedelta(days=settings.NETSHOP_DATE_CHANGE_WINDOW_DAYS)
    return [
        date_changeable_check(shipment=shipment),
        PolicyCheck(
            name="date_in_range",
            passed=today <= new_date <= last,
            detail=f"new date {new_date} must be between {today} and {last} "
            f"(original date {original})",
            code="date_out_of_range",
        ),
        PolicyCheck(
            name="date_differs",
            passed=new_date != shipment.scheduled_date,
            detail=f"currently scheduled for {shipment.scheduled_date}",
            code="date_unchanged",
        ),
    ]


def date_changeable_check(*, shipment: Shipment) -> PolicyCheck:
    """The parcel's state allows a new date: it is not yet out for delivery (whatever date is
    asked for, so a parcel on the truck is refused before any date is asked)."""
    changeable = shipment.status in DATE_CHANGEABLE
    return PolicyCheck(
        name="not_out_for_delivery",
        passed=changeable,
        detail=f"shipment {shipment.tracking_number} is {shipment.status}"
        + ("" if changeable else "; the date can only change before out_for_delivery"),
        code="date_change_not_allowed",
    )


# --- Coupons -------------------------------------------------------------------------------


def coupon_checks(*, customer: Customer, value: int, inquiry_ref: str) -> list[PolicyCheck]:
    """Rules for an apology coupon: a value within the cap, one per inquiry, and at most
    the policy's coupons per customer over its coupon window (``netshop.policy``; the
    service counts under the customer's row lock)."""
    policy = policy_in_force()
    cap = policy.coupon_cap_yen
    issued = Coupon.objects.filter(inquiry_ref=inquiry_ref).exists() if inquiry_ref else False
    return [
        PolicyCheck(
            name="value_positive",
            passed=value >= 1,
            detail=f"coupon value is {yen(value)}",
            code="coupon_invalid_value",
        ),
        PolicyCheck(
            name="value_within_cap",
            passed=value <= cap,
            detail=f"coupon of {yen(value)} against a cap of {yen(cap)}",
            code="coupon_over_cap",
        ),
        PolicyCheck(
            name="inquiry_given",
            passed=bool(inquiry_ref.strip()),
            detail="a coupon is issued for one inquiry, which must be named",
            code="inquiry_required",
        ),
        PolicyCheck(
            name="first_for_inquiry",
            passed=not issued,
            detail=f"inquiry {inquiry_ref} "
            + ("already has a coupon" if issued else "has no coupon yet"),
            code="coupon_already_issued",
        ),
        _customer_limit_check(customer, policy),
    ]


def _customer_limit_check(customer: Customer, policy: Policy) -> PolicyCheck:
    limit = policy.coupon_limit_per_customer
    days = policy.coupon_window_days
    since = timezone.now() - dt.timedelta(days=days)
    recent = Coupon.objects.filter(customer=customer, created_at__gte=since).count()
    return PolicyCheck(
        name="within_customer_limit",
        passed=recent < limit,
        detail=f"{customer.code} has {recent} coupon(s) in the last {days} days; "
        f"the limit is {limit}",
        code="coupon_limit_reached",
    )
