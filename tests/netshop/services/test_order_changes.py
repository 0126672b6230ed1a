"""order_items_change: items removed or lowered on a pending order, authorization lowered once."""

from __future__ import annotations

import pytest

from netshop.errors import DomainError
from netshop.models import GatewayTransaction, Order, OrderChange
from netshop.services.order_changes import order_change_proposal, order_items_change
from netshop.services.order_items import ItemRequest
from tests.factories import OrderLineFactory, confirmed_order, pending_order

pytestmark = pytest.mark.django_db


def _two_item_order(make=pending_order) -> Order:  # type: ignore[no-untyped-def,unused-ignore]
    """¥2,200 × 2 mugs and a ¥3,520 fan: ¥7,920 authorized."""
    order = make(authorized=7920, lines=False)
    OrderLineFactory.create(order=order, product__sku="MUG", quantity=2, unit_price=2200)
    OrderLineFactory.create(order=order, product__sku="FAN", unit_price=3520)
    return order


def _change(order: Order, items: list[ItemRequest], operation_id: str = "op-c1") -> OrderChange:
    return order_items_change(order=order, items=items, operation_id=operation_id, actor="sato")


def test_removing_an_item_recomputes_the_total_and_lowers_the_authorization_once() -> None:
    order = _two_item_order()

    first = _change(order, [ItemRequest("FAN", 0), ItemRequest("MUG", 1)])
    again = _change(order, [ItemRequest("FAN", 0), ItemRequest("MUG", 1)])

    order.refresh_from_db()
    order.payment.refresh_from_db()
    assert first.pk == again.pk
    assert (first.previous_total, first.new_total, order.total) == (7920, 2200, 2200)
    assert [(line.product.sku, line.quantity) for line in order.lines.all()] == [("MUG", 1)]
    assert order.payment.authorized_amount == 2200
    adjust = GatewayTransaction.objects.get()
    assert (adjust.kind, adjust.amount, adjust.idempotency_key) == ("adjust", 2200, "op-c1")


def test_a_confirmed_order_is_refused_as_the_faq_says() -> None:
    order = _two_item_order(confirmed_order)

    with pytest.raises(DomainError) as refused:
        _change(order, [ItemRequest("FAN", 0)])

    assert refused.value.code == "order_not_modifiable"
    assert not GatewayTransaction.objects.exists()


def test_adding_units_is_refused() -> None:
    order = _two_item_order()

    with pytest.raises(DomainError) as refused:
        order_change_proposal(order=order, items=[ItemRequest("FAN", 2)])

    assert refused.value.code == "quantity_not_lowered"


def test_removing_everything_is_a_cancellation_not_a_change() -> None:
    order = _two_item_order()

    with pytest.raises(DomainError) as refused:
        order_change_proposal(order=order, items=[ItemRequest("FAN", 0), ItemRequest("MUG", 0)])

    assert refused.value.code == "order_would_be_empty"
    order.refresh_from_db()
    assert order.total == 7920


def test_an_item_the_order_does_not_hold_asked_for_in_some_quantity_is_an_addition() -> None:
    order = _two_item_order()

    with pytest.raises(DomainError) as refused:
        order_change_proposal(order=order, items=[ItemRequest("matcha whisk", 1)])

    assert refused.value.code == "quantity_not_lowered"


def test_removing_an_item_the_order_does_not_hold_is_still_an_unknown_item() -> None:
    order = _two_item_order()

    with pytest.raises(DomainError) as refused:
        order_change_proposal(order=order, items=[ItemRequest("matcha whisk", 0)])

    assert refused.value.code == "item_not_in_order"
