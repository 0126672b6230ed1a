"""The shop's reads, always scoped to one customer where orders are concerned.

An agent acts for the customer its inquiry came from, so every order lookup takes that
customer and answers "not found" alike for a missing order and for someone else's.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Any, Final

from django.db.models import F, Prefetch, Q, QuerySet, Value
from django.db.models.functions import Replace

from netshop.adapters.place_names import place_name_en
from netshop.errors import DomainError
from netshop.models import (
    Customer,
    Order,
    OrderLine,
    OrderStatus,
    Payment,
    Refund,
    Shipment,
)

MAX_ORDERS: Final = 100
ORDERS_LISTED: Final = 20  # a search's page when the caller names none


def customer_get(*, code: str) -> Customer:
    """The customer with ``code`` (e.g. C0001)."""
    try:
        return Customer.objects.get(code=code.strip())
    except Customer.DoesNotExist:
        raise DomainError("unknown_customer", code=repr(code)) from None


def order_get_for_customer(*, customer: Customer, number: str) -> Order:
    """One of ``customer``'s orders by number; another customer's order is "not found" too.

    Loaded with all that ``order_facts`` reads, so its facts need no second read.
    """
    wanted = _order_number(number)
    try:
        order = _orders_with_facts(join_customer=False).get(customer=customer, number=wanted)
    except Order.DoesNotExist:
        raise DomainError("order_not_found", number=wanted, customer=customer.code) from None
    order.customer = customer  # the filter made it the order's customer: no join to read it
    return order


def shipment_for_order(*, customer: Customer, number: str) -> Shipment:
    """The parcel of one of ``customer``'s orders, with its order: one query, where the whole
    order's facts (lines, payment, refunds) would take three."""
    wanted = _order_number(number)
    shipment = (
        Shipment.objects.select_related("order__customer")
        .filter(order__customer=customer, order__number=wanted)
        .first()
    )
    if shipment is not None:
        return shipment
    if not Order.objects.filter(customer=customer, number=wanted).exists():
        raise DomainError("order_not_found", number=wanted, customer=customer.code)
    raise DomainError("no_shipment", order=wanted)


def _order_number(typed: str) -> str:
    """An order number as the shop writes it, whatever width or case it was typed in."""
    return unicodedata.normalize("NFKC", typed).strip().upper()


def orders_search(
    *,
    customer: Customer,
    status: str | None = None,
    placed_from: dt.date | None = None,
    placed_to: dt.date | None = None,
    limit: int = ORDERS_LISTED,
) -> list[Order]:
    """``customer``'s orders, newest first; dates are inclusive, in the shop's time zone."""
    orders = _orders().filter(customer=customer)
    if status:
        if status not in OrderStatus.values:
            allowed = ", ".join(OrderStatus.values)
            raise DomainError("invalid_status", status=repr(status), allowed=allowed)
        orders = orders.filter(status=status)
    if placed_from:
        orders = orders.filter(placed_at__date__gte=placed_from)
    if placed_to:
        orders = orders.filter(placed_at__date__lte=placed_to)
    return list(orders.order_by("-placed_at", "-id")[: max(1, min(limit, MAX_ORDERS))])


def shipment_for_tracking(*, customer: Customer, tracking_number: str) -> Shipment:
    """One of ``customer``'s shipments by tracking number, hyphens and full-width digits allowed."""
    typed = unicodedata.normalize("NFKC", tracking_number).strip()
    digits = re.sub(r"[\s-]", "", typed)
    shipment = (
        Shipment.objects.select_related("order")
        .annotate(digits=Replace(F("tracking_number"), Value("-"), Value("")))
        .filter(order__customer=customer)
        .filter(Q(tracking_number=typed) | Q(digits=digits))
        .first()
    )
    if shipment is None:
        raise DomainError("shipment_not_found", ref=typed, customer=customer.code)
    return shipment


def order_facts(*, order: Order, reload: bool = True) -> dict[str, Any]:
    """The facts about ``order`` an operator or agent decides on, as JSON-safe values.

    Read afresh (three queries), so the facts reflect refunds made since ``order`` was loaded;
    ``reload=False`` takes them from an order ``order_get_for_customer`` has just loaded.
    """
    fresh = _orders_with_facts().get(pk=order.pk) if reload else order
    payment = _related(fresh, "payment")
    shipment = _related(fresh, "shipment")
    return {
        "number": fresh.number,
        "customer": fresh.customer.code,
        "status": fresh.status,
        "total": fresh.total,
        "placed_at": fresh.placed_at.isoformat(),
        "lines": [_line_facts(line) for line in fresh.lines.all()],
        "payment": _payment_facts(payment) if payment else None,
        "shipment": _shipment_facts(shipment) if shipment else None,
        "refunds": [_refund_facts(refund) for refund in payment.refunds.all()] if payment else [],
    }


def order_summary(*, order: Order) -> dict[str, Any]:
    """A one-line view of an order for lists; no queries on orders from ``orders_search``."""
    payment = _related(order, "payment")
    shipment = _related(order, "shipment")
    lines = list(order.lines.all())
    return {
        "number": order.number,
        "status": order.status,
        "total": order.total,
        "placed_at": order.placed_at.isoformat(),
        "items": [f"{line.product.name} × {line.quantity}" for line in lines],
        "items_en": [
            f"{line.product.name_en or line.product.name} × {line.quantity}" for line in lines
        ],
        "payment_status": payment.status if payment else None,
        "shipment_status": shipment.status if shipment else None,
        "tracking_number": shipment.tracking_number if shipment else None,
    }


def shipment_facts(*, shipment: Shipment) -> dict[str, Any]:
    """The shop's own record of a parcel, shaped like the carrier's tracking answer.

    This is the fallback when the carrier cannot be reached: the last status we recorded.
    """
    return {
        **_shipment_facts(shipment),
        "events": [
            {
                "time": event.occurred_at.isoformat(),
                "status": event.status,
                "location": event.location,
                "location_en": place_name_en(event.location),
                "description": event.description,
            }
            for event in shipment.events.all()
        ],
    }


def _orders(*, join_customer: bool = True) -> QuerySet[Order]:
    lines = OrderLine.objects.select_related("product").order_by("id")
    related = ("customer", "payment", "shipment") if join_customer else ("payment", "shipment")
    return Order.objects.select_related(*related).prefetch_related(
        Prefetch("lines", queryset=lines)
    )


def _orders_with_facts(*, join_customer: bool = True) -> QuerySet[Order]:
    return _orders(join_customer=join_customer).prefetch_related("payment__refunds")


def _related(order: Order, name: str) -> Any:
    # A missing reverse one-to-one raises instead of returning None.
    try:
        return getattr(order, name)
    except (Payment.DoesNotExist, Shipment.DoesNotExist):
        return None


def _line_facts(line: OrderLine) -> dict[str, Any]:
    return {
        "sku": line.product.sku,
        "name": line.product.name,
        "name_en": line.product.name_en or line.product.name,
        "quantity": line.quantity,
        "unit_price": line.unit_price,
    }


def _payment_facts(payment: Payment) -> dict[str, Any]:
    refunded = sum(refund.amount for refund in payment.refunds.all())
    return {
        "method": payment.method,
        "status": payment.status,
        "authorized": payment.authorized_amount,
        "captured": payment.captured_amount,
        "refunded": refunded,
        "refundable": payment.captured_amount - refunded,
    }


def _shipment_facts(shipment: Shipment) -> dict[str, Any]:
    return {
        "carrier": shipment.carrier,
        "tracking_number": shipment.tracking_number,
        "status": shipment.status,
        "scheduled_date": shipment.scheduled_date.isoformat() if shipment.scheduled_date else None,
    }


def _refund_facts(refund: Refund) -> dict[str, Any]:
    return {
        "amount": refund.amount,
        "reason": refund.reason,
        "created_at": refund.created_at.isoformat(),
    }
