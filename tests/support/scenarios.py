"""Named shop states for tests, built with the factories of ``tests/factories.py``.

Each scenario states the facts a test may rely on (who, which order, in which state, for how
much) and returns the rows it made, so a test asserts on ``shop.delivered.number`` and the
amount its scenario set, never on the demo shop written for people to try the console on.

Order numbers are ``ORD-`` and four digits, as customers type them (the message reader knows
no other shape), from a range the demo never uses: ``order_number()`` hands out the next one.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from netshop.models import (
    Cancellation,
    Customer,
    Language,
    Order,
    OrderLine,
    OrderStatus,
    PaymentMethod,
    PaymentStatus,
    Product,
    Refund,
    ShipmentStatus,
)
from netshop.services.policy_checks import shop_today
from tests.factories import (
    CustomerFactory,
    OrderFactory,
    PaymentFactory,
    ProductFactory,
    ShipmentEventFactory,
    ShipmentFactory,
)

_NUMBERS = itertools.count()


def order_number() -> str:
    """The next order number a customer can name in a message: ORD-6001, ORD-6002, ..."""
    return f"ORD-{6001 + next(_NUMBERS) % 2999}"


def _product(name: str, name_en: str, price: int, **fields: Any) -> Product:
    return ProductFactory.create(name=name, name_en=name_en, price=price, stock=20, **fields)


def _order(
    customer: Customer,
    status: str,
    lines: list[tuple[Product, int]],
    *,
    placed_days_ago: int,
    **fields: Any,
) -> Order:
    total = sum(product.price * quantity for product, quantity in lines)
    placed = timezone.now() - dt.timedelta(days=placed_days_ago)
    order = OrderFactory.create(
        number=order_number(),
        customer=customer,
        status=status,
        total=total,
        placed_at=placed,
        lines=False,
        **fields,
    )
    for product, quantity in lines:
        OrderLine.objects.create(
            order=order, product=product, quantity=quantity, unit_price=product.price
        )
    return order


def _pay(order: Order, status: str, *, method: str = PaymentMethod.CARD) -> None:
    captured = order.total if status in {PaymentStatus.CAPTURED, PaymentStatus.REFUNDED} else 0
    PaymentFactory.create(
        order=order,
        method=method,
        status=status,
        authorized_amount=order.total,
        captured_amount=captured,
    )


def _ship(order: Order, status: str, *, due_in_days: int) -> None:
    """A shipment in ``status`` due ``due_in_days`` from today, with the scans that led there."""
    scheduled = shop_today() + dt.timedelta(days=due_in_days)
    shipment = ShipmentFactory.create(order=order, status=status, scheduled_date=scheduled)
    placed = order.placed_at
    scans = [(ShipmentStatus.PREPARING, placed + dt.timedelta(hours=2), "出荷準備中")]
    if status != ShipmentStatus.PREPARING:
        scans.append((ShipmentStatus.IN_TRANSIT, placed + dt.timedelta(hours=22), "輸送中"))
    due_morning = timezone.now() + dt.timedelta(days=due_in_days)
    if status in {ShipmentStatus.DELIVERED, ShipmentStatus.ABSENT_RETURNED}:
        scans.append((ShipmentStatus.OUT_FOR_DELIVERY, due_morning, "配達中"))
        scans.append((status, due_morning + dt.timedelta(hours=6), status))
    for scan, occurred_at, description in scans:
        ShipmentEventFactory.create(
            shipment=shipment, status=scan, occurred_at=occurred_at, description=description
        )


def _cancel(order: Order, *, previous_status: str, reason: str, released: bool) -> None:
    Cancellation.objects.create(
        order=order,
        operation_id=f"scenario-cancel-{order.number}",
        reason=reason,
        previous_status=previous_status,
        authorization_released=released,
        actor="netshop-support",
        created_at=order.placed_at + dt.timedelta(days=1),
    )


@dataclass(frozen=True)
class Shopper:
    """One customer's orders: ``pending`` (authorized, cancellable), ``delivered`` (captured,
    delivered five days ago), ``preparing`` (labelled at the warehouse: its address can still
    change), ``refunded_cancellation`` (cancelled after the charge, refunded in full) and
    ``bank_transfer`` (paid in advance by transfer, not shipped: a receipt can be issued)."""

    customer: Customer
    pending: Order
    delivered: Order
    preparing: Order
    refunded_cancellation: Order
    bank_transfer: Order


@dataclass(frozen=True)
class BusyShopper(Shopper):
    """A ``Shopper`` who also has ``in_transit`` (captured, due in three days),
    ``absent_returned`` (taken back to the depot yesterday) and ``cancelled`` (authorization
    released) orders."""

    in_transit: Order
    absent_returned: Order
    cancelled: Order


@dataclass(frozen=True)
class SupportShop:
    """Hanako (Japanese, a ``BusyShopper``) and Emily (English, a ``Shopper``)."""

    hanako: BusyShopper
    emily: Shopper


def _product_of(price: int, kind: str) -> Product:
    return _product(f"{kind} {price}円", f"{kind} {price} yen", price)


def shopper(*, name: str, language: str, pending: int, delivered: tuple[int, int]) -> Shopper:
    """A customer with the orders of a ``Shopper``: ``pending`` yen authorized, ``delivered``
    as (unit price, quantity) captured; ¥6,600 preparing, ¥7,480 refunded, ¥5,060 by transfer."""
    customer = CustomerFactory.create(name=name, language=language)
    pending_order = _order(
        customer, OrderStatus.PENDING, [(_product_of(pending, "ギフト"), 1)], placed_days_ago=1
    )
    _pay(pending_order, PaymentStatus.AUTHORIZED)
    delivered_price, delivered_quantity = delivered
    delivered_order = _order(
        customer,
        OrderStatus.DELIVERED,
        [(_product_of(delivered_price, "包丁"), delivered_quantity)],
        placed_days_ago=8,
    )
    _pay(delivered_order, PaymentStatus.CAPTURED)
    _ship(delivered_order, ShipmentStatus.DELIVERED, due_in_days=-5)
    preparing_order = _order(
        customer,
        OrderStatus.CONFIRMED,
        [(_product_of(3300, "茶碗"), 1), (_product_of(1650, "箸"), 2)],
        placed_days_ago=1,
    )
    _pay(preparing_order, PaymentStatus.AUTHORIZED)
    _ship(preparing_order, ShipmentStatus.PREPARING, due_in_days=3)
    refunded_order = _order(
        customer, OrderStatus.CANCELLED, [(_product_of(7480, "浴衣"), 1)], placed_days_ago=9
    )
    _pay(refunded_order, PaymentStatus.REFUNDED)
    Refund.objects.create(
        payment=refunded_order.payment,
        amount=refunded_order.total,
        reason="キャンセル / Cancelled",
        operation_id=f"scenario-refund-{refunded_order.number}",
        gateway_refund_id=f"re_scenario-{refunded_order.number}",
        actor="netshop-support",
        created_at=timezone.now() - dt.timedelta(days=4),
    )
    _cancel(
        refunded_order,
        previous_status=OrderStatus.CONFIRMED,
        reason="サイズ違いのためキャンセル / Wrong size, cancelled",
        released=False,
    )
    bank_order = _order(
        customer,
        OrderStatus.CONFIRMED,
        [(_product_of(3520, "扇子"), 1), (_product_of(1540, "お香"), 1)],
        placed_days_ago=2,
    )
    _pay(bank_order, PaymentStatus.CAPTURED, method=PaymentMethod.BANK_TRANSFER)
    return Shopper(
        customer=customer,
        pending=pending_order,
        delivered=delivered_order,
        preparing=preparing_order,
        refunded_cancellation=refunded_order,
        bank_transfer=bank_order,
    )


def busy_shopper(
    *,
    name: str,
    language: str,
    pending: int,
    delivered: tuple[int, int],
    in_transit: tuple[int, int],
    absent_returned: int,
    cancelled: int,
) -> BusyShopper:
    """A ``shopper`` who also has an order in transit, one taken back and one cancelled."""
    base = shopper(name=name, language=language, pending=pending, delivered=delivered)
    customer = base.customer
    transit_price, transit_quantity = in_transit
    in_transit_order = _order(
        customer,
        OrderStatus.SHIPPED,
        [(_product_of(transit_price, "急須"), transit_quantity)],
        placed_days_ago=3,
        notes="配達日指定あり",
    )
    _pay(in_transit_order, PaymentStatus.CAPTURED)
    _ship(in_transit_order, ShipmentStatus.IN_TRANSIT, due_in_days=3)
    absent_order = _order(
        customer,
        OrderStatus.SHIPPED,
        [(_product_of(absent_returned, "土鍋"), 1)],
        placed_days_ago=4,
    )
    _pay(absent_order, PaymentStatus.CAPTURED)
    _ship(absent_order, ShipmentStatus.ABSENT_RETURNED, due_in_days=-1)
    cancelled_order = _order(
        customer, OrderStatus.CANCELLED, [(_product_of(cancelled, "浴衣"), 1)], placed_days_ago=6
    )
    _pay(cancelled_order, PaymentStatus.VOIDED)
    _cancel(
        cancelled_order,
        previous_status=OrderStatus.PENDING,
        reason="サイズを間違えて注文したため",
        released=True,
    )
    return BusyShopper(
        customer=customer,
        pending=base.pending,
        delivered=base.delivered,
        preparing=base.preparing,
        refunded_cancellation=base.refunded_cancellation,
        bank_transfer=base.bank_transfer,
        in_transit=in_transit_order,
        absent_returned=absent_order,
        cancelled=cancelled_order,
    )


def support_shop() -> SupportShop:
    """Hanako: ¥3,980 pending, ¥10,960 in transit (two ¥5,480 teapots), ¥12,800 delivered,
    ¥6,600 taken back, ¥7,480 cancelled. Emily: ¥16,500 pending, ¥8,600 delivered (two ¥4,300
    towels). Each also has a ¥6,600 order being prepared, a ¥7,480 cancellation refunded in
    full and ¥5,060 paid by transfer."""
    return SupportShop(
        hanako=busy_shopper(
            name="山田 花子",
            language=Language.JAPANESE,
            pending=3980,
            delivered=(12800, 1),
            in_transit=(5480, 2),
            absent_returned=6600,
            cancelled=7480,
        ),
        emily=shopper(
            name="Emily Carter", language=Language.ENGLISH, pending=16500, delivered=(4300, 2)
        ),
    )
