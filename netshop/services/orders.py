"""Writes on orders: cancellation."""

from __future__ import annotations

from netshop.adapters.gateway import get_gateway
from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.models import Cancellation, Order, OrderStatus, Payment, PaymentStatus
from netshop.services.idempotency import run_once
from netshop.services.policy_checks import cancel_checks, raise_first_failure


def order_cancel(*, order: Order, operation_id: str, actor: str, reason: str) -> Cancellation:
    """Cancel a pending or confirmed order and release its card authorization.

    Runs once per ``operation_id``: a repeat returns the first cancellation. The gateway void
    carries the same id as its idempotency key, so a retry after a lost answer voids nothing
    twice. A captured payment is left alone: money back is a refund, approved on its own.
    """
    return run_once(
        Cancellation,
        operation_id,
        same=lambda done: done.order_id == order.pk,
        lock=lambda: Order.objects.select_for_update().get(pk=order.pk),
        perform=lambda locked: _cancel(locked, operation_id, actor, reason),
    )


def _cancel(order: Order, operation_id: str, actor: str, reason: str) -> Cancellation:
    raise_first_failure(cancel_checks(order=order))
    previous_status = order.status
    released = _release_authorization(order, operation_id)
    order.status = OrderStatus.CANCELLED
    order.save(update_fields=["status"])
    cancellation = Cancellation.objects.create(
        order=order,
        operation_id=operation_id,
        reason=reason,
        previous_status=previous_status,
        authorization_released=released,
        actor=actor,
    )
    audit_record(
        action=AuditAction.SIDE_EFFECT_CANCEL,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": order.number,
            "amount": order.total,
            "cancellation_id": cancellation.pk,
            "previous_status": previous_status,
            "authorization_released": released,
        },
    )
    return cancellation


def _release_authorization(order: Order, operation_id: str) -> bool:
    payment = Payment.objects.select_for_update().filter(order=order).first()
    if payment is None or payment.status != PaymentStatus.AUTHORIZED:
        return False
    get_gateway().void(payment_reference=payment.gateway_reference, idempotency_key=operation_id)
    payment.status = PaymentStatus.VOIDED
    payment.save(update_fields=["status"])
    return True
