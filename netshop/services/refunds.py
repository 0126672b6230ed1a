"""Writes on payments: refunds, and the one place a refund's amount is proposed and checked."""

from __future__ import annotations

import dataclasses

from netshop.adapters.gateway import get_gateway
from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.errors import DomainError
from netshop.models import Order, Payment, PaymentStatus, Refund
from netshop.services.idempotency import run_once
from netshop.services.policy_checks import (
    PolicyCheck,
    payment_refund_checks,
    raise_first_failure,
    refund_checks,
    refundable_total,
    refunded_total,
    yen,
)


@dataclasses.dataclass(frozen=True)
class RefundProposal:
    """A refund the rules allow now: the amount to ask approval for and the checks it passed."""

    amount: int
    requested: int | None
    refundable: int
    reason: str
    checks: list[PolicyCheck]

    @property
    def capped(self) -> bool:
        return self.requested is not None and self.requested > self.refundable


def refund_proposal(
    *, order: Order, reason: str, amount: int | None = None, cap: bool = True
) -> RefundProposal:
    """The refund to propose on ``order``, from the payment as the database has it now.

    ``amount=None`` proposes everything still refundable. An amount above that is capped
    (``cap=True``: the agent asks for what it may) or refused with
    ``refund_exceeds_captured`` (``cap=False``: an operator's edit names an exact amount).
    Then the same checks ``refund_create`` runs when the refund is made must pass.
    """
    refundable = refundable_total(Payment.objects.filter(order=order).first())
    if amount is not None and amount > refundable and not cap:
        raise DomainError("refund_exceeds_captured", refundable=yen(refundable))
    proposed = refundable if amount is None or amount > refundable else max(amount, 0)
    checks = refund_checks(order=order, amount=proposed, reason=reason)
    raise_first_failure(checks)
    return RefundProposal(
        amount=proposed, requested=amount, refundable=refundable, reason=reason, checks=checks
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
        raise DomainError("payment_not_captured", variant="missing", order=order.number)
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
