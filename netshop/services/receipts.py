"""Receipts (領収書) for paid orders: one receipt number per order, each issue recorded.

Issuing twice for one order gives the same receipt number; every issue after the first is a
reissue (再発行), printed as such. An issue is keyed by its operation id like every action an
agent takes, so a re-run tool call records nothing new. The PDF is drawn on download from
the issue's row (``netshop.services.receipt_document``).
"""

from __future__ import annotations

from django.utils import timezone

from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.errors import DomainError
from netshop.models import Order, Payment, PaymentStatus, Receipt, ReceiptIssue
from netshop.services.idempotency import run_once
from netshop.services.policy_checks import CAPTURED, refundable_total
from netshop.services.receipt_addressee import receipt_addressee_clean

# A receipt number as ``_issue`` makes it: R, the month issued, the order's id (6 digits and
# up, within the column's 24 characters). The URLs take nothing else (``netshop.converters``).
RECEIPT_NUMBER_PATTERN = r"R[0-9]{6}-[0-9]{6,16}"


def receipt_issue(
    *, order: Order, addressee: str, operation_id: str, actor: str, inquiry_ref: str = ""
) -> ReceiptIssue:
    """Issue ``order``'s receipt to ``addressee`` (宛名; the customer's name when blank).

    Refused, with nothing recorded: ``receipt_addressee_invalid`` unless the addressee is a
    name (``receipt_addressee``: no amount, currency, control character); ``receipt_not_paid``
    unless the order's payment is captured; ``receipt_fully_refunded`` when all of it was
    refunded. The amount is what was paid and not refunded, at this issue.
    """
    name = receipt_addressee_clean(addressee) or order.customer.name
    return run_once(
        ReceiptIssue,
        operation_id,
        same=lambda done: done.receipt.order_id == order.pk and done.addressee == name,
        lock=lambda: Order.objects.select_for_update().get(pk=order.pk),
        perform=lambda locked: _issue(locked, name, operation_id, actor, inquiry_ref),
    )


def receipt_issue_get(*, inquiry_ref: str, number: str) -> ReceiptIssue:
    """The latest issue of receipt ``number`` made in conversation ``inquiry_ref``.

    The caller has checked that the conversation is the asker's; a receipt issued in another
    conversation is "not found" here, exactly like a number that does not exist.
    """
    issue = (
        ReceiptIssue.objects.select_related("receipt__order__customer", "receipt__order__payment")
        .filter(inquiry_ref=inquiry_ref, receipt__number=number)
        .order_by("-issued_at", "-id")
        .first()
    )
    if issue is None:
        raise DomainError("receipt_not_found")
    return issue


def _issue(
    order: Order, addressee: str, operation_id: str, actor: str, inquiry_ref: str
) -> ReceiptIssue:
    payment = Payment.objects.filter(order=order).first()
    if payment is None or payment.status not in CAPTURED:
        raise DomainError("receipt_not_paid", order=order.number)
    amount = refundable_total(payment)
    if amount <= 0 or payment.status == PaymentStatus.REFUNDED:
        # Paid, then all of it given back: "not paid" would be untrue. The status counts even
        # without the refunds' rows (a gateway's reconciliation): never a receipt in full.
        raise DomainError("receipt_fully_refunded", order=order.number)
    receipt, _ = Receipt.objects.get_or_create(
        order=order, defaults={"number": f"R{timezone.localdate():%Y%m}-{order.pk:06d}"}
    )
    issue = ReceiptIssue.objects.create(
        receipt=receipt,
        operation_id=operation_id,
        inquiry_ref=inquiry_ref,
        addressee=addressee,
        amount=amount,
        reissue=receipt.issues.exists(),
    )
    audit_record(
        action=AuditAction.SIDE_EFFECT_RECEIPT,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": order.number,
            "receipt": receipt.number,
            "amount": amount,
            "reissue": issue.reissue,
        },
    )
    return issue
