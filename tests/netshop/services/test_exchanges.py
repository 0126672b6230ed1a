"""exchange_create: another variant of a delivered item, from stock, shipped once."""

from __future__ import annotations

import pytest

from netshop.errors import DomainError
from netshop.models import CarrierBooking, Exchange, Order, Product
from netshop.services.exchanges import exchange_create, exchange_proposal
from netshop.services.order_items import ItemRequest
from tests.factories import OrderLineFactory, ProductFactory, delivered_order

pytestmark = pytest.mark.django_db


def _tshirt_order(stock_l: int = 3) -> Order:
    medium = ProductFactory.create(sku="TSH-M", family="TSH", variant="M", price=3300)
    ProductFactory.create(sku="TSH-L", family="TSH", variant="L", price=3300, stock=stock_l)
    order = delivered_order(captured=3300, lines=False)
    OrderLineFactory.create(order=order, product=medium, unit_price=3300)
    return order


def _exchange(order: Order, operation_id: str = "op-x1") -> Exchange:
    return exchange_create(
        order=order,
        item=ItemRequest("TSH-M"),
        variant="Lサイズ",
        reason="サイズが小さい",
        operation_id=operation_id,
        actor="sato",
    )


def test_an_approved_exchange_takes_the_variant_from_stock_and_ships_it_once() -> None:
    order = _tshirt_order()

    first = _exchange(order)
    again = _exchange(order)

    assert first.pk == again.pk
    assert (first.from_product.sku, first.to_product.sku, first.quantity) == ("TSH-M", "TSH-L", 1)
    assert Product.objects.get(sku="TSH-L").stock == 2
    booking = CarrierBooking.objects.get()
    assert (booking.kind, booking.tracking_number) == (
        "shipment",
        first.replacement_tracking_number,
    )


def test_a_variant_out_of_stock_is_refused() -> None:
    order = _tshirt_order(stock_l=0)

    with pytest.raises(DomainError) as refused:
        _exchange(order)

    assert refused.value.code == "variant_out_of_stock"
    assert not CarrierBooking.objects.exists()


def test_an_item_is_exchanged_only_once() -> None:
    order = _tshirt_order()
    _exchange(order)

    with pytest.raises(DomainError) as refused:
        _exchange(order, "op-x2")

    assert refused.value.code == "already_exchanged"
    assert Exchange.objects.count() == 1


def test_a_variant_the_product_does_not_have_is_refused() -> None:
    order = _tshirt_order()

    with pytest.raises(DomainError) as refused:
        exchange_proposal(order=order, item=ItemRequest("TSH-M"), variant="XXL")

    assert refused.value.code == "no_such_variant"
