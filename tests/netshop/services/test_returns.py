"""return_create: delivered items within the window, refunded for those items only, once."""

from __future__ import annotations

import datetime as dt

import pytest

from netshop.errors import DomainError
from netshop.models import GatewayTransaction, Order, Refund, Return
from netshop.services.order_items import ItemRequest
from netshop.services.returns import return_create, return_proposal
from tests.factories import OrderLineFactory, delivered_order, pending_order

pytestmark = pytest.mark.django_db


def _mug_and_fan_order(delivered_days_ago: int = 3) -> Order:
    """A delivered ¥5,720 order: a ¥2,200 mug and a ¥3,520 fan."""
    order = delivered_order(captured=5720, lines=False)
    OrderLineFactory.create(
        order=order, product__sku="MUG", product__name="有田焼 マグカップ", unit_price=2200
    )
    OrderLineFactory.create(
        order=order, product__sku="FAN", product__name_en="Kyoto Folding Fan", unit_price=3520
    )
    order.shipment.scheduled_date = dt.date.today() - dt.timedelta(days=delivered_days_ago)
    order.shipment.save()
    return order


def _return(order: Order, operation_id: str = "op-r1", **kwargs: object) -> Return:
    return return_create(
        order=order,
        items=[ItemRequest("MUG")],
        reason="サイズが合わない",
        operation_id=operation_id,
        actor="sato",
        **kwargs,  # type: ignore[arg-type]
    )


def test_the_proposal_refunds_the_returned_item_only() -> None:
    order = _mug_and_fan_order()

    proposal = return_proposal(order=order, items=[ItemRequest("マグカップ")])

    assert (proposal.amount, [c.line.product.sku for c in proposal.lines]) == (2200, ["MUG"])
    assert all(check.passed for check in proposal.checks)


def test_an_approved_return_records_the_items_and_refunds_them_once() -> None:
    order = _mug_and_fan_order()

    first = _return(order)
    again = _return(order)

    assert first.pk == again.pk
    assert first.refund is not None
    assert (first.amount, first.refund.amount, first.refund.operation_id) == (2200, 2200, "op-r1")
    assert [(line.order_line.product.sku, line.quantity) for line in first.lines.all()] == [
        ("MUG", 1)
    ]
    assert list(GatewayTransaction.objects.values_list("amount", flat=True)) == [2200]


def test_an_item_already_returned_is_refused_and_nothing_is_refunded_again() -> None:
    order = _mug_and_fan_order()
    _return(order)

    with pytest.raises(DomainError) as refused:
        _return(order, "op-r2")

    assert refused.value.code == "already_returned"
    assert Refund.objects.count() == 1


def test_a_return_after_the_window_is_refused() -> None:
    order = _mug_and_fan_order(delivered_days_ago=20)

    with pytest.raises(DomainError) as refused:
        _return(order)

    assert refused.value.code == "return_window_passed"
    assert not Return.objects.exists()


def test_an_item_not_on_the_order_is_refused() -> None:
    order = _mug_and_fan_order()

    with pytest.raises(DomainError) as refused:
        return_proposal(order=order, items=[ItemRequest("teapot")])

    assert refused.value.code == "item_not_in_order"


def test_an_undelivered_order_cannot_be_returned() -> None:
    order = pending_order()

    with pytest.raises(DomainError) as refused:
        return_proposal(order=order, items=[ItemRequest(order.lines.get().product.sku)])

    assert refused.value.code == "order_not_delivered"


def test_an_operator_may_refund_less_but_not_more_than_the_items() -> None:
    order = _mug_and_fan_order()

    with pytest.raises(DomainError) as refused:
        return_proposal(order=order, items=[ItemRequest("MUG")], amount=3000)
    lowered = _return(order, amount=1500)

    assert refused.value.code == "return_amount_exceeds_items"
    assert lowered.refund is not None
    assert (lowered.amount, lowered.refund.amount) == (1500, 1500)


def test_food_is_returned_only_if_it_arrived_defective() -> None:
    order = delivered_order(captured=1280, lines=False)
    OrderLineFactory.create(
        order=order, product__sku="NORI", product__returnable=False, unit_price=1280
    )

    with pytest.raises(DomainError) as refused:
        return_proposal(order=order, items=[ItemRequest("NORI")])
    defective = return_proposal(order=order, items=[ItemRequest("NORI")], defective=True)

    assert refused.value.code == "item_not_returnable"
    assert defective.amount == 1280
