"""What became of an order's refunds: a read, never a write.

"Has my refund been processed?" is answered from the refunds the gateway made (each a
``Refund`` row: amount, when); nothing here proposes or creates one.
"""

from __future__ import annotations

from typing import Any

from netshop.models import Order, Payment, Refund
from netshop.services.policy_checks import captured_total, refunded_total


def refund_status_read(*, order: Order) -> dict[str, Any]:
    """The order's refunds oldest first, with what was paid and what is refunded so far."""
    payment = Payment.objects.filter(order=order).first()
    refunds = Refund.objects.filter(payment=payment).order_by("created_at", "id") if payment else []
    refunded = refunded_total(payment) if payment else 0
    return {
        "order_number": order.number,
        "payment_status": payment.status if payment else None,
        "captured": captured_total(payment),
        "refunded": refunded,
        "refunds": [
            {
                "amount": refund.amount,
                "status": "completed",  # a Refund row is money the gateway has sent back
                "refunded_at": refund.created_at.isoformat(),
            }
            for refund in refunds
        ],
    }
