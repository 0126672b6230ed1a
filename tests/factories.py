"""Test data: factory_boy factories for the shop's domain, and orders in every support state.

The helpers at the bottom return an ``Order`` whose payment and shipment (when it has them)
are in a named state, e.g. ``delivered_order(captured=12800)``; reach them as
``order.payment`` and ``order.shipment``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import factory
from django.utils import timezone

from netshop.knowledge.models import ArticleCategory, ArticleStatus, ArticleVersion, HelpArticle
from netshop.models import (
    Customer,
    Language,
    Order,
    OrderLine,
    OrderStatus,
    Payment,
    PaymentMethod,
    PaymentStatus,
    Product,
    Shipment,
    ShipmentEvent,
    ShipmentStatus,
)
from netshop.shop_time import shop_today


class CustomerFactory(factory.django.DjangoModelFactory[Customer]):
    class Meta:
        model = Customer
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"T{n:05d}")
    name = factory.Sequence(lambda n: f"テスト 太郎{n}")
    email = factory.LazyAttribute(lambda c: f"{c.code.lower()}@example.test")
    language = Language.JAPANESE


class ProductFactory(factory.django.DjangoModelFactory[Product]):
    class Meta:
        model = Product

    sku = factory.Sequence(lambda n: f"SKU-{n:05d}")
    name = factory.Sequence(lambda n: f"テスト商品{n}")
    name_en = factory.Sequence(lambda n: f"Test product {n}")
    price = 3980


class OrderLineFactory(factory.django.DjangoModelFactory[OrderLine]):
    class Meta:
        model = OrderLine

    order = factory.SubFactory("tests.factories.OrderFactory", lines=False)
    product = factory.SubFactory(ProductFactory)
    quantity = 1
    unit_price = factory.LazyAttribute(lambda line: line.product.price)


class OrderFactory(factory.django.DjangoModelFactory[Order]):
    """An order with one line worth its ``total`` (``lines=False`` for none)."""

    class Meta:
        model = Order
        skip_postgeneration_save = True

    number = factory.Sequence(lambda n: f"ORD-T{n:05d}")
    customer = factory.SubFactory(CustomerFactory)
    status = OrderStatus.PENDING
    total = 3980
    placed_at = factory.LazyFunction(lambda: timezone.now() - dt.timedelta(days=3))

    @factory.post_generation
    def lines(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create and extracted is None:
            OrderLineFactory.create(order=self, product__price=self.total, unit_price=self.total)


class PaymentFactory(factory.django.DjangoModelFactory[Payment]):
    class Meta:
        model = Payment

    order = factory.SubFactory(OrderFactory)
    method = PaymentMethod.CARD
    status = PaymentStatus.AUTHORIZED
    authorized_amount = factory.LazyAttribute(lambda p: p.order.total)
    captured_amount = 0
    gateway_reference = factory.Sequence(lambda n: f"pay_test_{n:06d}")


class ShipmentFactory(factory.django.DjangoModelFactory[Shipment]):
    class Meta:
        model = Shipment

    order = factory.SubFactory(OrderFactory, status=OrderStatus.SHIPPED)
    carrier = "Yamato"
    # Always the carrier's 4-4-4 shape, however many shipments a run makes (the reader
    # recognises only that shape; 9 first, as no demo parcel's).
    tracking_number = factory.Sequence(
        lambda n: f"9{n // 10**8 % 1000:03d}-{n // 10**4 % 10**4:04d}-{n % 10**4:04d}"
    )
    status = ShipmentStatus.IN_TRANSIT
    scheduled_date = factory.LazyFunction(lambda: shop_today() + dt.timedelta(days=2))
    original_scheduled_date = factory.LazyAttribute(lambda s: s.scheduled_date)


class ShipmentEventFactory(factory.django.DjangoModelFactory[ShipmentEvent]):
    class Meta:
        model = ShipmentEvent

    shipment = factory.SubFactory(ShipmentFactory)
    status = ShipmentStatus.IN_TRANSIT
    location = "東京ベース店"
    description = "輸送中"


class HelpArticleFactory(factory.django.DjangoModelFactory[HelpArticle]):
    class Meta:
        model = HelpArticle
        django_get_or_create = ("key",)

    key = factory.Sequence(lambda n: f"article-{n}")
    category = ArticleCategory.OTHER
    tags: list[str] = []


class ArticleVersionFactory(factory.django.DjangoModelFactory[ArticleVersion]):
    """A published version 1 unless told otherwise (``status=ArticleStatus.DRAFT``)."""

    class Meta:
        model = ArticleVersion

    article = factory.SubFactory(HelpArticleFactory)
    language = Language.JAPANESE
    number = 1
    title = factory.Sequence(lambda n: f"よくある質問 {n}")
    body = "回答です。"
    status = ArticleStatus.PUBLISHED
    published_at = factory.LazyFunction(timezone.now)


def help_article(
    *,
    title: str,
    body: str,
    language: str = Language.JAPANESE,
    category: str = ArticleCategory.OTHER,
    tags: tuple[str, ...] = (),
    key: str | None = None,
) -> ArticleVersion:
    """A published article with one language's text (version 1): what the AI answers from."""
    article = HelpArticleFactory.create(
        category=category, tags=list(tags), **({"key": key} if key else {})
    )
    return ArticleVersionFactory.create(article=article, language=language, title=title, body=body)


# --- Orders in a named state ----------------------------------------------------------------


def pending_order(*, authorized: int = 3980, **order: Any) -> Order:
    """A pending order whose card payment is authorized, not captured (can be cancelled)."""
    created = OrderFactory.create(**{"status": OrderStatus.PENDING, "total": authorized, **order})
    PaymentFactory.create(order=created, authorized_amount=authorized)
    return created


def confirmed_order(*, authorized: int = 3980, **order: Any) -> Order:
    """A confirmed order, payment still only authorized (can be cancelled)."""
    return pending_order(authorized=authorized, status=OrderStatus.CONFIRMED, **order)


def delivered_order(*, captured: int = 12800, **order: Any) -> Order:
    """A delivered order with ``captured`` yen captured (can be refunded)."""
    created = OrderFactory.create(status=OrderStatus.DELIVERED, total=captured, **order)
    _captured_payment(created, captured)
    ShipmentFactory.create(
        order=created,
        status=ShipmentStatus.DELIVERED,
        scheduled_date=shop_today() - dt.timedelta(days=1),
    )
    return created


def cancelled_order(*, authorized: int = 3980, **order: Any) -> Order:
    """An order already cancelled, its authorization released."""
    created = OrderFactory.create(status=OrderStatus.CANCELLED, total=authorized, **order)
    PaymentFactory.create(order=created, authorized_amount=authorized, status=PaymentStatus.VOIDED)
    return created


def in_transit_order(*, total: int = 5480, scheduled_in_days: int = 2, **order: Any) -> Order:
    """A shipped order on its way, due in ``scheduled_in_days`` (its date can change)."""
    return _shipped_order(ShipmentStatus.IN_TRANSIT, total, scheduled_in_days, **order)


def out_for_delivery_order(*, total: int = 5480, **order: Any) -> Order:
    """A shipped order on the truck today (too late to change its date)."""
    return _shipped_order(ShipmentStatus.OUT_FOR_DELIVERY, total, 0, **order)


def absent_returned_order(*, total: int = 7200, **order: Any) -> Order:
    """A shipped order the driver returned to the depot the day before (can be redelivered)."""
    return _shipped_order(ShipmentStatus.ABSENT_RETURNED, total, -1, **order)


def _shipped_order(status: str, total: int, scheduled_in_days: int, **order: Any) -> Order:
    created = OrderFactory.create(status=OrderStatus.SHIPPED, total=total, **order)
    _captured_payment(created, total)
    scheduled = shop_today() + dt.timedelta(days=scheduled_in_days)
    shipment = ShipmentFactory.create(order=created, status=status, scheduled_date=scheduled)
    ShipmentEventFactory.create(
        shipment=shipment,
        status=ShipmentStatus.IN_TRANSIT,
        occurred_at=timezone.now() - dt.timedelta(days=2),
    )
    if status != ShipmentStatus.IN_TRANSIT:
        ShipmentEventFactory.create(shipment=shipment, status=status, description=status)
    return created


def _captured_payment(order: Order, amount: int) -> Payment:
    return PaymentFactory.create(
        order=order,
        status=PaymentStatus.CAPTURED,
        authorized_amount=amount,
        captured_amount=amount,
    )
