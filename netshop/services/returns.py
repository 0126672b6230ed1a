"""Returns: delivered items sent back within the return window, refunded for those items only.

The FAQ's returns policy is the rule: unused items within the policy's return window
(``netshop.policy``) of delivery. ``return_proposal`` is what the Order agent asks approval
for; ``return_create`` is what runs once a person approves, re-checking everything on the
locked order.
"""

from __future__ import annotations

import dataclasses

from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.models import Order, OrderStatus, Return, ReturnLine
from netshop.money import yen
from netshop.policy import policy_in_force
from netshop.services.idempotency import run_once
from netshop.services.order_items import (
    ChosenLine,
    ItemRequest,
    choose_lines,
    returned_quantity,
    window_check,
)
from netshop.services.policy_checks import PolicyCheck, raise_first_failure, refund_checks
from netshop.services.refunds import refund_create


@dataclasses.dataclass(frozen=True)
class ReturnProposal:
    """The items to take back, the refund for them, and the checks they passed."""

    lines: list[ChosenLine]
    amount: int
    items_value: int
    checks: list[PolicyCheck]


def return_checks(
    *, order: Order, lines: list[ChosenLine], amount: int, defective: bool = False
) -> list[PolicyCheck]:
    """Rules for returning ``lines`` of ``order`` and refunding ``amount`` yen for them
    (``defective``: the items arrived damaged or faulty, so even food comes back)."""
    delivered = order.status == OrderStatus.DELIVERED
    value = sum(chosen.amount for chosen in lines)
    return [
        PolicyCheck(
            name="order_delivered",
            passed=delivered,
            detail=f"order {order.number} is {order.status}"
            + ("" if delivered else "; only delivered orders can be returned"),
            code="order_not_delivered",
        ),
        window_check(
            order=order,
            days=policy_in_force().return_window_days,
            name="within_return_window",
            code="return_window_passed",
        ),
        *[_not_returned_check(chosen) for chosen in lines],
        *[_returnable_check(chosen, defective) for chosen in lines],
        PolicyCheck(
            name="amount_within_items",
            passed=amount <= value,
            detail=f"refund of {yen(amount)} for returned items worth {yen(value)}",
            code="return_amount_exceeds_items",
        ),
        *refund_checks(order=order, amount=amount, reason="return"),
    ]


def return_proposal(
    *, order: Order, items: list[ItemRequest], amount: int | None = None, defective: bool = False
) -> ReturnProposal:
    """The return of ``items`` the rules allow now; the refund is their value unless ``amount``
    (an operator's edit) names less. Raises ``DomainError`` on the first failing rule."""
    lines = choose_lines(order=order, items=items)
    value = sum(chosen.amount for chosen in lines)
    refund = value if amount is None else amount
    checks = return_checks(order=order, lines=lines, amount=refund, defective=defective)
    raise_first_failure(checks)
    return ReturnProposal(lines=lines, amount=refund, items_value=value, checks=checks)


def return_create(
    *,
    order: Order,
    items: list[ItemRequest],
    reason: str,
    operation_id: str,
    actor: str,
    amount: int | None = None,
    defective: bool = False,
) -> Return:
    """Record the return of ``items`` and refund them, once per ``operation_id``.

    The refund carries the same operation id (the gateway's idempotency key), inside the
    same transaction: a return is never recorded without its money, nor the money twice.
    """
    return run_once(
        Return,
        operation_id,
        same=lambda done: done.order_id == order.pk,
        lock=lambda: Order.objects.select_for_update().get(pk=order.pk),
        perform=lambda locked: _return(
            locked, items, reason, operation_id, actor, amount, defective=defective
        ),
    )


def _return(
    order: Order,
    items: list[ItemRequest],
    reason: str,
    operation_id: str,
    actor: str,
    amount: int | None,
    *,
    defective: bool,
) -> Return:
    proposal = return_proposal(order=order, items=items, amount=amount, defective=defective)
    refund = refund_create(
        order=order,
        amount=proposal.amount,
        reason=reason or "return",
        operation_id=operation_id,
        actor=actor,
    )
    item_return = Return.objects.create(
        order=order,
        operation_id=operation_id,
        reason=reason,
        amount=proposal.amount,
        refund=refund,
        actor=actor,
    )
    ReturnLine.objects.bulk_create(
        ReturnLine(item_return=item_return, order_line=chosen.line, quantity=chosen.quantity)
        for chosen in proposal.lines
    )
    audit_record(
        action=AuditAction.SIDE_EFFECT_RETURN,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": order.number,
            "return_id": item_return.pk,
            "items": [_audited(chosen) for chosen in proposal.lines],
            "amount": proposal.amount,
            "refund_id": refund.pk,
        },
    )
    return item_return


def _not_returned_check(chosen: ChosenLine) -> PolicyCheck:
    sku = chosen.line.product.sku
    left = chosen.line.quantity - returned_quantity(chosen.line)
    passed = 0 < chosen.quantity <= left
    return PolicyCheck(
        name="not_already_returned",
        passed=passed,
        detail=f"{chosen.quantity} × {sku} asked; "
        f"{left} of {chosen.line.quantity} not yet returned",
        code="already_returned",
    )


def _returnable_check(chosen: ChosenLine, defective: bool) -> PolicyCheck:
    product = chosen.line.product
    passed = product.returnable or defective
    detail = f"{product.sku} " + (
        "can be returned"
        if product.returnable
        else "is not returned unless defective" + ("; reported defective" if defective else "")
    )
    return PolicyCheck(
        name="item_returnable", passed=passed, detail=detail, code="item_not_returnable"
    )


def _audited(chosen: ChosenLine) -> dict[str, object]:
    return {"sku": chosen.line.product.sku, "quantity": chosen.quantity}
