"""Item changes: an item removed, or its quantity lowered, on an order not yet confirmed.

The FAQ says items cannot be added or changed once an order is confirmed (「ご注文確定後の
商品の追加・変更はできません」), so only pending orders change, and only downwards: an
addition is a new order, removing everything a cancellation. The total is recomputed from
the lines and the card authorization lowered to it through the gateway, once.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from netshop.adapters.gateway import get_gateway
from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.errors import DomainError
from netshop.models import Order, OrderChange, OrderStatus, Payment, PaymentStatus
from netshop.money import yen
from netshop.services.idempotency import run_once
from netshop.services.order_items import ItemRequest, order_line_find
from netshop.services.policy_checks import CAPTURED, PolicyCheck, raise_first_failure

MODIFIABLE: Final = (OrderStatus.PENDING,)


@dataclasses.dataclass(frozen=True)
class LineChange:
    """One line's quantity before and after; ``to == 0`` removes the line."""

    sku: str
    name: str
    name_en: str
    unit_price: int
    before: int
    to: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "sku": self.sku,
            "name": self.name,
            "name_en": self.name_en,
            "unit_price": self.unit_price,
            "from": self.before,
            "to": self.to,
        }


@dataclasses.dataclass(frozen=True)
class OrderChangeProposal:
    """The changes, the totals before and after, and the checks they passed."""

    changes: list[LineChange]
    previous_total: int
    new_total: int
    checks: list[PolicyCheck]


def line_changes(*, order: Order, items: list[ItemRequest]) -> list[LineChange]:
    """Each request as a change of one line (a request without a quantity removes it).

    An item the order does not hold, asked for in some quantity, is an addition: refused as
    one (``quantity_not_lowered``: a new order), not as an unknown item."""
    changes = []
    for request in items:
        try:
            line = order_line_find(order=order, item=request.item)
        except DomainError as error:
            if error.code == "item_not_in_order" and request.quantity:
                raise DomainError("quantity_not_lowered") from error
            raise
        product = line.product
        changes.append(
            LineChange(
                sku=product.sku,
                name=product.name,
                name_en=product.name_en or product.name,
                unit_price=line.unit_price,
                before=line.quantity,
                to=request.quantity or 0,
            )
        )
    return changes


def new_total(*, order: Order, changes: list[LineChange]) -> int:
    """The order's total once ``changes`` apply, from its lines."""
    wanted = {change.sku: change.to for change in changes}
    return sum(
        wanted.get(line.product.sku, line.quantity) * line.unit_price
        for line in order.lines.select_related("product")
    )


def order_change_checks(
    *, order: Order, changes: list[LineChange], total: int
) -> list[PolicyCheck]:
    """Rules for changing ``order``'s items to ``total`` yen."""
    modifiable = order.status in MODIFIABLE
    lowered = all(0 <= change.to < change.before for change in changes)
    return [
        PolicyCheck(
            name="order_modifiable",
            passed=modifiable,
            detail=f"order {order.number} is {order.status}"
            + ("" if modifiable else "; items can only change while the order is pending"),
            code="order_not_modifiable",
        ),
        PolicyCheck(
            name="quantity_lowered",
            passed=lowered,
            detail=", ".join(f"{c.sku} {c.before} -> {c.to}" for c in changes),
            code="quantity_not_lowered",
        ),
        PolicyCheck(
            name="items_remain",
            passed=total > 0,
            detail=f"new total {yen(total)} (was {yen(order.total)})",
            code="order_would_be_empty",
        ),
        _payment_check(Payment.objects.filter(order=order).first(), total),
    ]


def order_change_proposal(*, order: Order, items: list[ItemRequest]) -> OrderChangeProposal:
    """The change the rules allow now; raises ``DomainError`` on the first failing rule."""
    changes = line_changes(order=order, items=items)
    total = new_total(order=order, changes=changes)
    checks = order_change_checks(order=order, changes=changes, total=total)
    raise_first_failure(checks)
    return OrderChangeProposal(
        changes=changes, previous_total=order.total, new_total=total, checks=checks
    )


def order_items_change(
    *, order: Order, items: list[ItemRequest], operation_id: str, actor: str
) -> OrderChange:
    """Apply the change, recompute the total and lower the authorization, once per
    ``operation_id`` (also the gateway's idempotency key)."""
    return run_once(
        OrderChange,
        operation_id,
        same=lambda done: done.order_id == order.pk,
        lock=lambda: Order.objects.select_for_update().get(pk=order.pk),
        perform=lambda locked: _change(locked, items, operation_id, actor),
    )


def _change(order: Order, items: list[ItemRequest], operation_id: str, actor: str) -> OrderChange:
    proposal = order_change_proposal(order=order, items=items)
    adjusted = _adjust_authorization(order, proposal.new_total, operation_id)
    for change in proposal.changes:
        line = order.lines.get(product__sku=change.sku)
        if change.to == 0:
            line.delete()
        else:
            line.quantity = change.to
            line.save(update_fields=["quantity"])
    order.total = proposal.new_total
    order.save(update_fields=["total"])
    record = OrderChange.objects.create(
        order=order,
        operation_id=operation_id,
        lines=[change.as_dict() for change in proposal.changes],
        previous_total=proposal.previous_total,
        new_total=proposal.new_total,
        authorization_adjusted=adjusted,
        actor=actor,
    )
    audit_record(
        action=AuditAction.SIDE_EFFECT_ORDER_CHANGE,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": order.number,
            "order_change_id": record.pk,
            "changes": [{"sku": c.sku, "from": c.before, "to": c.to} for c in proposal.changes],
            "previous_total": proposal.previous_total,
            "new_total": proposal.new_total,
            "authorization_adjusted": adjusted,
        },
    )
    return record


def _adjust_authorization(order: Order, total: int, operation_id: str) -> bool:
    payment = Payment.objects.select_for_update().filter(order=order).first()
    if payment is None or payment.status != PaymentStatus.AUTHORIZED:
        return False
    get_gateway().adjust_authorization(
        payment_reference=payment.gateway_reference, amount=total, idempotency_key=operation_id
    )
    payment.authorized_amount = total
    payment.save(update_fields=["authorized_amount"])
    return True


def _payment_check(payment: Payment | None, total: int) -> PolicyCheck:
    # Informational, like a cancellation's: the operator sees what happens to the money.
    if payment is None:
        detail = "no payment on this order"
    elif payment.status == PaymentStatus.AUTHORIZED:
        detail = (
            f"the {yen(payment.authorized_amount)} authorization will be lowered to {yen(total)}"
        )
    elif payment.status in CAPTURED:
        detail = (
            f"payment already captured ({yen(payment.captured_amount)}); "
            "money back for the removed items needs a separate refund"
        )
    else:
        detail = f"payment is {payment.status}; nothing to adjust"
    return PolicyCheck(name="payment_authorization", passed=True, detail=detail)
