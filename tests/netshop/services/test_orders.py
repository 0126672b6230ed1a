"""order_cancel: only pending or confirmed orders; releases the authorization; once per id."""

from __future__ import annotations

import pytest

from netshop.errors import DomainError, ExternalServiceError
from netshop.models import Cancellation, GatewayTransaction, Order, OrderStatus, PaymentStatus
from netshop.services.orders import order_cancel
from netshop.services.policy_checks import cancel_checks
from tests.factories import (
    OrderFactory,
    cancelled_order,
    confirmed_order,
    delivered_order,
    in_transit_order,
    pending_order,
)

pytestmark = pytest.mark.django_db


def _cancel(order: Order, operation_id: str = "op-1") -> Cancellation:
    return order_cancel(order=order, operation_id=operation_id, actor="sato", reason="重複注文")


def _state(order: Order) -> tuple[str, str, int, int]:
    """Order status, payment status, cancellations, gateway transactions."""
    order.refresh_from_db()
    order.payment.refresh_from_db()
    return (
        order.status,
        order.payment.status,
        Cancellation.objects.count(),
        GatewayTransaction.objects.count(),
    )


def test_cancel_pending_order_voids_the_authorization() -> None:
    order = pending_order(authorized=3980)

    cancellation = _cancel(order)

    assert (
        cancellation.previous_status,
        cancellation.authorization_released,
        cancellation.actor,
        cancellation.reason,
    ) == (OrderStatus.PENDING, True, "sato", "重複注文")
    void = GatewayTransaction.objects.get()
    assert (void.kind, void.idempotency_key, void.payment_reference) == (
        "void",
        "op-1",
        order.payment.gateway_reference,
    )
    assert _state(order) == (OrderStatus.CANCELLED, PaymentStatus.VOIDED, 1, 1)


def test_cancel_confirmed_order() -> None:
    order = confirmed_order(authorized=5000)

    cancellation = _cancel(order)

    assert cancellation.previous_status == OrderStatus.CONFIRMED
    assert _state(order) == (OrderStatus.CANCELLED, PaymentStatus.VOIDED, 1, 1)


@pytest.mark.parametrize(
    ("make", "status", "payment_status"),
    [
        (delivered_order, OrderStatus.DELIVERED, PaymentStatus.CAPTURED),
        (cancelled_order, OrderStatus.CANCELLED, PaymentStatus.VOIDED),
        (in_transit_order, OrderStatus.SHIPPED, PaymentStatus.CAPTURED),
    ],
)
def test_cancel_is_refused_past_confirmed(make, status: str, payment_status: str) -> None:
    order = make()

    with pytest.raises(DomainError) as refused:
        _cancel(order)

    assert refused.value.code == "order_not_cancellable"
    assert refused.value.message == (
        f"order {order.number} is {status}; only pending or confirmed orders can be cancelled"
    )
    assert _state(order) == (status, payment_status, 0, 0)


def test_same_operation_id_twice_cancels_once() -> None:
    order = pending_order()

    first = _cancel(order)
    second = _cancel(order)

    assert second.pk == first.pk
    assert _state(order) == (OrderStatus.CANCELLED, PaymentStatus.VOIDED, 1, 1)


def test_second_cancellation_under_a_new_operation_id_is_refused() -> None:
    order = pending_order()
    _cancel(order, "op-1")

    with pytest.raises(DomainError) as refused:
        _cancel(order, "op-2")

    assert refused.value.code == "order_not_cancellable"
    assert _state(order) == (OrderStatus.CANCELLED, PaymentStatus.VOIDED, 1, 1)


def test_operation_id_of_another_order_is_refused() -> None:
    _cancel(pending_order(), "op-1")
    other = pending_order()

    with pytest.raises(DomainError) as refused:
        _cancel(other, "op-1")

    assert refused.value.code == "operation_id_conflict"
    assert _state(other) == (OrderStatus.PENDING, PaymentStatus.AUTHORIZED, 1, 1)


def test_failed_void_cancels_nothing(faults) -> None:
    order = pending_order()
    faults.set(gateway={"fault_rate": 1, "kinds": ["server_error"]})

    with pytest.raises(ExternalServiceError):
        _cancel(order)

    assert _state(order) == (OrderStatus.PENDING, PaymentStatus.AUTHORIZED, 0, 0)


def test_cancel_with_a_captured_payment_leaves_the_money_to_a_refund() -> None:
    order = delivered_order(captured=6000)
    Order.objects.filter(pk=order.pk).update(status=OrderStatus.CONFIRMED)
    order.refresh_from_db()

    cancellation = _cancel(order)

    assert cancellation.authorization_released is False
    assert _state(order) == (OrderStatus.CANCELLED, PaymentStatus.CAPTURED, 1, 0)


def test_cancel_order_without_payment() -> None:
    order = OrderFactory.create(status=OrderStatus.PENDING)

    cancellation = _cancel(order)

    assert cancellation.authorization_released is False
    order.refresh_from_db()
    assert order.status == OrderStatus.CANCELLED


def test_cancel_checks_explain_what_happens_to_the_payment() -> None:
    order = pending_order(authorized=3980)

    checks = cancel_checks(order=order)

    assert [(c.name, c.passed, c.detail) for c in checks] == [
        ("order_cancellable", True, f"order {order.number} is pending"),
        ("payment_authorization", True, "the ¥3,980 authorization will be released"),
    ]
