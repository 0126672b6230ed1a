"""Exchanges: a delivered item for another variant (size, colour) of the same product.

The FAQ's size-exchange policy is the rule: once per item, unworn, within
the policy's exchange window (``netshop.policy``) of delivery, and only while the variant is
in stock (out of stock, the customer is refunded instead: a refund, approved on its own).
``exchange_create`` takes the unit from stock and books the replacement parcel with the
carrier, once.
"""

from __future__ import annotations

import dataclasses
import unicodedata

from netshop.adapters.carrier import get_carrier
from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.errors import DomainError
from netshop.models import Exchange, Order, OrderStatus, Product
from netshop.policy import policy_in_force
from netshop.services.idempotency import run_once
from netshop.services.order_items import ChosenLine, ItemRequest, choose_lines, window_check
from netshop.services.policy_checks import PolicyCheck, raise_first_failure


@dataclasses.dataclass(frozen=True)
class ExchangeProposal:
    """The line to exchange, the variant it becomes, and the checks they passed."""

    line: ChosenLine
    to_product: Product
    checks: list[PolicyCheck]


def variant_find(*, product: Product, variant: str) -> Product:
    """The product of ``product``'s family that is ``variant`` (its SKU, or its size/colour)."""
    wanted = _folded(variant)
    family = Product.objects.filter(family=product.family).exclude(pk=product.pk).order_by("sku")
    if product.family:
        for candidate in family:
            if wanted in (_folded(candidate.sku), _folded(candidate.variant)):
                return candidate
        named = [c for c in family if c.variant and _folded(c.variant) in _tokens(wanted)]
        if len(named) == 1:
            return named[0]
    raise DomainError("no_such_variant", product=product.sku, wanted=variant)


def exchange_checks(*, order: Order, line: ChosenLine, to_product: Product) -> list[PolicyCheck]:
    """Rules for exchanging ``line`` of ``order`` for ``to_product``."""
    delivered = order.status == OrderStatus.DELIVERED
    first = not Exchange.objects.filter(order_line=line.line).exists()
    in_stock = to_product.stock >= line.quantity
    return [
        PolicyCheck(
            name="order_delivered",
            passed=delivered,
            detail=f"order {order.number} is {order.status}"
            + ("" if delivered else "; only delivered items can be exchanged"),
            code="order_not_delivered",
        ),
        window_check(
            order=order,
            days=policy_in_force().exchange_window_days,
            name="within_exchange_window",
            code="exchange_window_passed",
        ),
        PolicyCheck(
            name="first_exchange",
            passed=first,
            detail=f"{line.line.product.sku} on {order.number} "
            + ("has not been exchanged" if first else "was already exchanged once"),
            code="already_exchanged",
        ),
        PolicyCheck(
            name="variant_in_stock",
            passed=in_stock,
            detail=f"{to_product.stock} × {to_product.sku} in stock, {line.quantity} needed",
            code="variant_out_of_stock",
        ),
    ]


def exchange_proposal(*, order: Order, item: ItemRequest, variant: str) -> ExchangeProposal:
    """The exchange the rules allow now; raises ``DomainError`` on the first failing rule."""
    line = choose_lines(order=order, items=[item])[0]
    to_product = variant_find(product=line.line.product, variant=variant)
    checks = exchange_checks(order=order, line=line, to_product=to_product)
    raise_first_failure(checks)
    return ExchangeProposal(line=line, to_product=to_product, checks=checks)


def exchange_create(
    *,
    order: Order,
    item: ItemRequest,
    variant: str,
    reason: str,
    operation_id: str,
    actor: str,
) -> Exchange:
    """Take the new variant from stock and ship it, once per ``operation_id`` (also the
    carrier's idempotency key, so a retry books no second parcel)."""
    return run_once(
        Exchange,
        operation_id,
        same=lambda done: done.order_id == order.pk,
        lock=lambda: Order.objects.select_for_update().get(pk=order.pk),
        perform=lambda locked: _exchange(locked, item, variant, reason, operation_id, actor),
    )


def _exchange(
    order: Order, item: ItemRequest, variant: str, reason: str, operation_id: str, actor: str
) -> Exchange:
    proposal = exchange_proposal(order=order, item=item, variant=variant)
    to_product = Product.objects.select_for_update().get(pk=proposal.to_product.pk)
    raise_first_failure(exchange_checks(order=order, line=proposal.line, to_product=to_product))
    parcel = get_carrier().ship_parcel(order_number=order.number, idempotency_key=operation_id)
    to_product.stock -= proposal.line.quantity
    to_product.save(update_fields=["stock"])
    exchange = Exchange.objects.create(
        order=order,
        order_line=proposal.line.line,
        quantity=proposal.line.quantity,
        from_product=proposal.line.line.product,
        to_product=to_product,
        operation_id=operation_id,
        reason=reason,
        replacement_tracking_number=parcel.tracking_number,
        carrier_booking_id=parcel.booking_id,
        actor=actor,
    )
    audit_record(
        action=AuditAction.SIDE_EFFECT_EXCHANGE,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": order.number,
            "exchange_id": exchange.pk,
            "from_sku": exchange.from_product.sku,
            "to_sku": to_product.sku,
            "quantity": exchange.quantity,
            "tracking_number": parcel.tracking_number,
            "booking_id": parcel.booking_id,
        },
    )
    return exchange


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text or "").casefold().strip()


def _tokens(text: str) -> set[str]:
    """ "size l", "lサイズ", "L size" -> the words a variant label could be."""
    words = text.replace("サイズ", " ").replace("size", " ").split()
    return {word.strip(",.、。") for word in words}
