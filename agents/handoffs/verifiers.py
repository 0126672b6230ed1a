"""Outcome verifiers: a task is complete only if the system of record shows it (seed 002).

A refund counts only if the gateway has it, a cancellation only if the order is cancelled,
a redelivery or date change only if the carrier has the booking. Each check records the
verifier's name, its result and when it looked (its freshness).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils import timezone

from agents.vocabulary import Skill
from netshop import selectors
from netshop.adapters.carrier import get_carrier
from netshop.adapters.gateway import get_gateway
from netshop.errors import DomainError, ExternalServiceError


def _check(verifier: str, result: bool | None) -> dict[str, Any]:
    return {"verifier": verifier, "result": result, "checked_at": timezone.now().isoformat()}


def _gateway_recorded(action_id: str, kind: str = "refund") -> bool | None:
    try:
        transaction = get_gateway().find_transaction(action_id)
    except ExternalServiceError:
        return None
    return transaction is not None and transaction.kind == kind


def _order_cancelled(customer_id: str, order_number: str) -> bool:
    try:
        customer = selectors.customer_get(code=customer_id)
        order = selectors.order_get_for_customer(customer=customer, number=order_number)
    except DomainError:
        return False
    return order.status == "cancelled"


def _booking_exists(booking_id: str) -> bool | None:
    try:
        return get_carrier().has_booking(booking_id)
    except ExternalServiceError:
        return None


def _order_total_is(customer_id: str, order_number: str, total: object) -> bool:
    try:
        customer = selectors.customer_get(code=customer_id)
        order = selectors.order_get_for_customer(customer=customer, number=order_number)
    except DomainError:
        return False
    return order.total == total


def _action_check(result: dict[str, Any], customer_id: str) -> dict[str, Any]:
    """The system of record's word on one executed gated action."""
    kind, action_id = result["kind"], result["action_id"]
    number = result["params"]["order_number"]
    if kind in (Skill.PROCESS_REFUND, Skill.RETURN_ITEMS):
        # A return's refund carries the return's operation id.
        return _check("gateway_refund", _gateway_recorded(action_id))
    if kind == Skill.EXCHANGE_ITEMS:
        return _check("carrier_replacement", _booking_exists(str(result.get("booking_id"))))
    if kind == Skill.MODIFY_ORDER_ITEMS:
        if result.get("authorization_adjusted"):
            return _check("gateway_authorization_adjusted", _gateway_recorded(action_id, "adjust"))
        return _check(
            "order_total_changed", _order_total_is(customer_id, number, result.get("new_total"))
        )
    return _check("order_cancelled", _order_cancelled(customer_id, number))


def outcome_checks(state: dict[str, Any], *, customer_id: str) -> dict[str, list[dict[str, Any]]]:
    """The checks for every side effect the run claims, by the agent that owns it."""
    checks: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for result in state.get("action_results", []):
        if result.get("outcome") != "executed":
            continue
        agent = "payment" if result["kind"] == Skill.PROCESS_REFUND else "order"
        checks[agent].append(_action_check(result, customer_id))
    shipping = (state.get("envelopes", {}).get("shipping") or {}).get("data", {})
    for tool, key in (
        ("arrange_redelivery", "redelivery"),
        ("change_delivery_date", "date_change"),
    ):
        booking = (shipping.get(tool) or {}).get(key)
        if booking:
            checks["shipping"].append(
                _check(f"carrier_{tool}", _booking_exists(booking["booking_id"]))
            )
    return dict(checks)
