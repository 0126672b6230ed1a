"""Outcome verifiers: a task is complete only if the system of record shows it (seed 002).

A refund counts only if the gateway has it, a cancellation only if the order is cancelled,
a redelivery or date change only if the carrier has the booking. Each check records the
verifier's name, its result and when it looked (its freshness).

A read of the gateway or the carrier that fails is tried again, a bounded number of times with
a doubling back-off (``NETSHOP_VERIFY_ATTEMPTS``, ``NETSHOP_VERIFY_BACKOFF_S``): under 30%
gateway faults one failed read made a refund that had happened look unconfirmed.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.utils import timezone

from agents.support.vocabulary import Skill
from netshop import selectors
from netshop.adapters.carrier import get_carrier
from netshop.adapters.gateway import get_gateway
from netshop.errors import DomainError, ExternalServiceError

logger = logging.getLogger(__name__)
T = TypeVar("T")


def _check(verifier: str, result: bool | None) -> dict[str, Any]:
    return {"verifier": verifier, "result": result, "checked_at": timezone.now().isoformat()}


def read_with_retries(read: Callable[[], T]) -> T | None:
    """``read()``, tried again after an ``ExternalServiceError``; None if every attempt failed."""
    attempts = max(1, settings.NETSHOP_VERIFY_ATTEMPTS)
    delay = settings.NETSHOP_VERIFY_BACKOFF_S
    for attempt in range(1, attempts + 1):
        try:
            return read()
        except ExternalServiceError as error:
            logger.warning(
                "verification read failed (%s), attempt %d of %d", error, attempt, attempts
            )
            if attempt < attempts:
                time.sleep(delay)
                delay *= 2
    return None


def _gateway_recorded(action_id: str, kind: str = "refund") -> bool | None:
    found = read_with_retries(lambda: (get_gateway().find_transaction(action_id),))
    if found is None:  # every read failed (a tuple wraps the gateway's own None: not found)
        return None
    transaction = found[0]
    return transaction is not None and transaction.kind == kind


def _order_cancelled(customer_id: str, order_number: str) -> bool:
    try:
        customer = selectors.customer_get(code=customer_id)
        order = selectors.order_get_for_customer(customer=customer, number=order_number)
    except DomainError:
        return False
    return order.status == "cancelled"


def _booking_exists(booking_id: str) -> bool | None:
    return read_with_retries(lambda: get_carrier().has_booking(booking_id))


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
