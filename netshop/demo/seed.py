"""Writes the demo data: upserts keyed on natural keys, so seeding twice changes nothing.

Orders that support has acted on since they were seeded (a refund, a cancellation, a
redelivery or a date change that the seed did not write) are left as they are, so restarting
the app never contradicts what operators did; ``reset=True`` removes those actions and restores
the demo's canonical state.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils import timezone

from netshop import models as m
from netshop.demo import catalog
from netshop.demo.articles import seed_articles
from netshop.demo.orders import (
    SEED_PREFIX,
    SUPPORT_ACTOR,
    CouponSpec,
    CustomerSpec,
    DemoData,
    OrderSpec,
    build_demo_data,
)
from netshop.demo.signals import demo_seeded
from netshop.roles import Role, role_assign

DEMO_PASSWORD_ENV = "NETSHOP_DEMO_PASSWORD"  # noqa: S105  (the variable's name, not a secret)
# Demo-only: printed by scripts/run and documented in the README. Never use it for real users.
DEFAULT_DEMO_PASSWORD = "netshop-demo"  # noqa: S105
DEMO_STAFF: tuple[tuple[str, Role], ...] = (("operator", Role.OPERATOR), ("manager", Role.MANAGER))
DEMO_CUSTOMER_LOGINS: tuple[tuple[str, str], ...] = (("c0001", "C0001"), ("c0002", "C0002"))

ModelT = TypeVar("ModelT", bound=models.Model)


@dataclass
class SeedReport:
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def record(self, model: type[models.Model], *, created: bool, changed: bool) -> None:
        if created:
            self.created[model.__name__] += 1
        elif changed:
            self.updated[model.__name__] += 1


def demo_password() -> str:
    return os.environ.get(DEMO_PASSWORD_ENV) or DEFAULT_DEMO_PASSWORD


@transaction.atomic
def seed_demo(
    *,
    password: str,
    reset_passwords: bool = False,
    reset: bool = False,
    today: date | None = None,
) -> SeedReport:
    """Create or refresh the demo shop, its help articles and its logins; returns what changed."""
    report = SeedReport()
    tz = timezone.get_default_timezone()
    data = build_demo_data(today=today or timezone.localdate(timezone=tz), tz=tz)
    numbers = [order.number for order in data.orders]
    if reset:
        _remove_support_actions(data, report)
    kept = _orders_with_support_actions(numbers)
    products = {spec.sku: _seed_product(spec, report) for spec in catalog.ALL_PRODUCTS}
    customers = {spec.code: _seed_customer(spec, report) for spec in data.customers}
    for order in data.orders:
        if order.number not in kept:
            _seed_order(order, customers[order.customer_code], products, report)
    for coupon in data.coupons:
        _seed_coupon(coupon, customers[coupon.customer_code], report)
    for _ in seed_articles():
        report.record(m.HelpArticle, created=True, changed=True)
    if kept:
        report.notes.append(
            f"kept {len(kept)} order(s) support has acted on: {', '.join(sorted(kept))} "
            "(--reset restores them)"
        )
    _seed_logins(customers, password=password, reset_passwords=reset_passwords, report=report)
    demo_seeded.send(sender=seed_demo, report=report)
    return report


def _upsert(
    model: type[ModelT], lookup: dict[str, Any], values: dict[str, Any], report: SeedReport
) -> ModelT:
    """``update_or_create`` that writes (and reports) only when a value actually differs."""
    obj = model._default_manager.filter(**lookup).first()
    if obj is None:
        obj = model._default_manager.create(**lookup, **values)
        report.record(model, created=True, changed=True)
        return obj
    changed = [name for name, value in values.items() if getattr(obj, name) != value]
    for name in changed:
        setattr(obj, name, values[name])
    if changed:
        obj.save(update_fields=changed)
    report.record(model, created=False, changed=bool(changed))
    return obj


def _seed_product(spec: catalog.ProductSpec, report: SeedReport) -> m.Product:
    values = {
        "name": spec.name,
        "name_en": spec.name_en,
        "price": spec.price,
        "family": spec.family,
        "variant": spec.variant,
        "stock": spec.stock,
        "returnable": spec.returnable,
    }
    return _upsert(m.Product, {"sku": spec.sku}, values, report)


def _seed_customer(spec: CustomerSpec, report: SeedReport) -> m.Customer:
    values = {"name": spec.name, "email": spec.email, "language": spec.language}
    return _upsert(m.Customer, {"code": spec.code}, values, report)


def _seed_order(
    spec: OrderSpec,
    customer: m.Customer,
    products: dict[str, m.Product],
    report: SeedReport,
) -> None:
    order = _upsert(
        m.Order,
        {"number": spec.number},
        {
            "customer": customer,
            "status": spec.status,
            "total": spec.total,
            "placed_at": spec.placed_at,
            "notes": spec.notes,
        },
        report,
    )
    wanted = [(line.sku, line.quantity, line.unit_price) for line in spec.lines]
    _replace_if_different(
        order.lines.order_by("id"),
        ("product__sku", "quantity", "unit_price"),
        wanted,
        lambda: m.OrderLine.objects.bulk_create(
            m.OrderLine(order=order, product=products[sku], quantity=qty, unit_price=price)
            for sku, qty, price in wanted
        ),
        report,
    )
    _seed_payment(spec, order, report)
    _seed_shipment(spec, order, report)
    if spec.cancellation:
        cancel = spec.cancellation
        _upsert(
            m.Cancellation,
            {"operation_id": cancel.operation_id},
            {
                "order": order,
                "reason": cancel.reason,
                "previous_status": cancel.previous_status,
                "authorization_released": cancel.authorization_released,
                "actor": SUPPORT_ACTOR,
                "created_at": cancel.created_at,
            },
            report,
        )


def _seed_payment(spec: OrderSpec, order: m.Order, report: SeedReport) -> None:
    pay = spec.payment
    payment = _upsert(
        m.Payment,
        {"gateway_reference": pay.gateway_reference},
        {
            "order": order,
            "method": pay.method,
            "status": pay.status,
            "authorized_amount": pay.authorized_amount,
            "captured_amount": pay.captured_amount,
        },
        report,
    )
    for refund in pay.refunds:
        _upsert(
            m.Refund,
            {"operation_id": refund.operation_id},
            {
                "payment": payment,
                "amount": refund.amount,
                "reason": refund.reason,
                "gateway_refund_id": f"re_{refund.operation_id}",
                "actor": SUPPORT_ACTOR,
                "created_at": refund.created_at,
            },
            report,
        )


def _seed_shipment(spec: OrderSpec, order: m.Order, report: SeedReport) -> None:
    ship = spec.shipment
    if ship is None:
        return
    shipment = _upsert(
        m.Shipment,
        {"tracking_number": ship.tracking_number},
        {
            "order": order,
            "carrier": ship.carrier,
            "status": ship.status,
            "scheduled_date": ship.scheduled_date,
            "original_scheduled_date": ship.scheduled_date,
        },
        report,
    )
    fields = ("status", "location", "description", "occurred_at")
    wanted = [tuple(getattr(event, name) for name in fields) for event in ship.events]
    _replace_if_different(
        shipment.events.order_by("occurred_at", "id"),
        fields,
        wanted,
        lambda: m.ShipmentEvent.objects.bulk_create(
            m.ShipmentEvent(shipment=shipment, **dict(zip(fields, row, strict=True)))
            for row in wanted
        ),
        report,
    )


def _replace_if_different(
    current: models.QuerySet[Any],
    fields: tuple[str, ...],
    wanted: list[tuple[Any, ...]],
    create: Any,
    report: SeedReport,
) -> None:
    """Child rows without a natural key (order lines, scan events) are replaced as a whole."""
    if list(current.values_list(*fields)) == wanted:
        return
    existed = current.exists()
    current.delete()
    create()
    counter = report.updated if existed else report.created
    counter[current.model.__name__] += len(wanted)


def _seed_coupon(spec: CouponSpec, customer: m.Customer, report: SeedReport) -> None:
    values = {
        "customer": customer,
        "value": spec.value,
        "operation_id": spec.operation_id,
        "expires_at": spec.expires_at,
        "created_at": spec.created_at,
    }
    _upsert(m.Coupon, {"code": spec.code}, values, report)


# --- Support actions taken since seeding -----------------------------------------------------


def _unseeded(queryset: models.QuerySet[Any]) -> models.QuerySet[Any]:
    return queryset.exclude(operation_id__startswith=SEED_PREFIX)


def _support_actions(numbers: list[str]) -> list[tuple[models.QuerySet[Any], str]]:
    """Rows support wrote against these orders, each with the lookup path to its order number."""
    # Returns before refunds: a return holds its refund.
    return [
        (m.Return.objects.filter(order__number__in=numbers), "order__number"),
        (m.Exchange.objects.filter(order__number__in=numbers), "order__number"),
        (m.OrderChange.objects.filter(order__number__in=numbers), "order__number"),
        (
            _unseeded(m.Refund.objects.filter(payment__order__number__in=numbers)),
            "payment__order__number",
        ),
        (_unseeded(m.Cancellation.objects.filter(order__number__in=numbers)), "order__number"),
        (
            m.Redelivery.objects.filter(shipment__order__number__in=numbers),
            "shipment__order__number",
        ),
        (
            m.DeliveryDateChange.objects.filter(shipment__order__number__in=numbers),
            "shipment__order__number",
        ),
        (m.AddressChange.objects.filter(order__number__in=numbers), "order__number"),
        # Issues before their receipt: a receipt is protected while it has issues.
        (
            m.ReceiptIssue.objects.filter(receipt__order__number__in=numbers),
            "receipt__order__number",
        ),
        (m.Receipt.objects.filter(order__number__in=numbers), "order__number"),
    ]


def _orders_with_support_actions(numbers: list[str]) -> set[str]:
    kept: set[str] = set()
    for queryset, path in _support_actions(numbers):
        kept.update(queryset.values_list(path, flat=True))
    return kept


def _remove_support_actions(data: DemoData, report: SeedReport) -> None:
    numbers = [order.number for order in data.orders]
    replacements = m.Exchange.objects.filter(order__number__in=numbers)
    m.CarrierBooking.objects.filter(
        booking_id__in=replacements.values("carrier_booking_id")
    ).delete()
    for queryset, _ in _support_actions(numbers):
        deleted, _ = queryset.delete()
        if deleted:
            report.notes.append(f"reset: removed {deleted} {queryset.model.__name__} row(s)")
    codes = [customer.code for customer in data.customers]
    _unseeded(m.Coupon.objects.filter(customer__code__in=codes)).delete()
    references = [order.payment.gateway_reference for order in data.orders]
    m.GatewayTransaction.objects.filter(payment_reference__in=references).delete()
    tracking = [order.shipment.tracking_number for order in data.orders if order.shipment]
    m.CarrierBooking.objects.filter(tracking_number__in=tracking).delete()


# --- Logins ----------------------------------------------------------------------------------


def _seed_logins(
    customers: dict[str, m.Customer], *, password: str, reset_passwords: bool, report: SeedReport
) -> None:
    for username, role in DEMO_STAFF:
        email = f"{username}@netshop.example"
        user = _seed_user(username, email, f"staff, role {role}", password, reset_passwords, report)
        role_assign(user=user, role=role)
    for username, code in DEMO_CUSTOMER_LOGINS:
        customer = customers[code]
        label = f"customer {code}"
        user = _seed_user(username, customer.email, label, password, reset_passwords, report)
        if customer.user_id != user.pk:
            customer.user = user
            customer.save(update_fields=["user"])


def _seed_user(
    username: str, email: str, label: str, password: str, reset_passwords: bool, report: SeedReport
) -> Any:
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": email}
    )
    if created or reset_passwords:
        user.set_password(password)
        user.save(update_fields=["password"])
    state = "created" if created else ("password reset" if reset_passwords else "kept password")
    report.notes.append(f"login {username} ({label}): {state}")
    return user
