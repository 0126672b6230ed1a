"""Writes on payments: refunds."""

from __future__ import annotations

from netshop.adapters.gateway import get_gateway
from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.errors import DomainError
from netshop.models import Order, Payment, PaymentStatus, Refund
from netshop.services.idempotency import run_once
from netshop.services.policy_checks import (
    payment_refund_checks,
    raise_first_failure,
    refunded_total,
)


def refund_create(
    *, order: Order, amount: int, reason: str, operation_id: str, actor: str
) -> Refund:
    """Refund ``amount`` yen of the order's captured payment through the gateway.

    Runs once per ``operation_id`` (also the gateway's idempotency key). The payment row is
    locked while the total is checked and the refund recorded, so two refunds at once can
    never add up to more than was captured. If the gateway fails nothing is recorded.
    """
    return run_once(
        Refund,
        operation_id,
        same=lambda done: done.payment.order_id == order.pk and done.amount == amount,
        lock=lambda: _lock_payment(order),
        perform=lambda payment: _refund(payment, order, amount, reason, operation_id, actor),
    )


def _lock_payment(order: Order) -> Payment:
    payment = Payment.objects.select_for_update().filter(order=order).first()
    if payment is None:
        raise DomainError("payment_not_captured", f"order {order.number} has no payment")
    return payment


def _refund(
    payment: Payment, order: Order, amount: int, reason: str, operation_id: str, actor: str
) -> Refund:
    checks = payment_refund_checks(payment=payment, order=order, amount=amount, reason=reason)
    raise_first_failure(checks)
    refund_id = get_gateway().refund(
        payment_reference=payment.gateway_reference, amount=amount, idempotency_key=operation_id
    )
    refund = Refund.objects.create(
        payment=payment,
        amount=amount,
        reason=reason.strip(),
        operation_id=operation_id,
        gateway_refund_id=refund_id,
        actor=actor,
    )
    fully = refunded_total(payment) >= payment.captured_amount
    payment.status = PaymentStatus.REFUNDED if fully else PaymentStatus.PARTIALLY_REFUNDED
    payment.save(update_fields=["status"])
    audit_record(
        action=AuditAction.SIDE_EFFECT_REFUND,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": order.number,
            "amount": amount,
            "refund_id": refund.pk,
            "gateway_refund_id": refund_id,
            "payment_status": payment.status,
        },
    )
    return refund
