"""Carrying out an operator's decision on a prepared gated action, exactly once.

The action's id is its operation id: the shop's services refuse to act twice on one id, so
re-running this after a crash, a retried task or a resumed node finds the first result.
Rules are re-checked at execution time by the services (the order may have changed since
the action was prepared), and the approvals against the policy in force at execution: one
that falls short (a limit lowered after the approval) does not run, it waits again. Errors
are never retried here: a person decides (SPEC 4.4).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from agents.support.escalations.approvals import (
    action_amount,
    approval_policy,
    approvals_complete,
    approvals_that_count,
    approved_by,
    effective_params,
)
from agents.support.shapes import Decision, PendingAction
from agents.support.vocabulary import OperatorDecision, Skill
from netshop import selectors
from netshop.errors import DomainError, ExternalServiceError
from netshop.models import Order
from netshop.policy import Policy, policy_in_force
from netshop.services.exchanges import exchange_create
from netshop.services.order_changes import order_items_change
from netshop.services.order_items import ItemRequest
from netshop.services.orders import order_cancel
from netshop.services.refunds import refund_create
from netshop.services.returns import return_create

logger = logging.getLogger(__name__)


def carry_out(*, action: PendingAction, decision: Decision, customer_id: str) -> dict[str, Any]:
    """Run (or decline) one action; returns a JSON-safe outcome for the run's state."""
    verdict = decision["decision"]
    base: dict[str, Any] = {
        "action_id": action["action_id"],
        "kind": action["kind"],
        "decision": verdict,
        "operator": decision.get("operator", ""),
    }
    if verdict in (OperatorDecision.REJECT, OperatorDecision.TAKE_OVER):
        return {**base, "outcome": "declined", "reason": decision.get("reason", "")}
    params = effective_params(action, decision)
    policy = policy_in_force()  # the version in force now, not the one it was approved under
    base["policy_version"] = policy.version
    amount, approvals = action_amount(action, params), decision.get("approvals", [])
    if not approvals_complete(amount=amount, approvals=approvals, policy=policy):
        return _short_of_approvals(base, params, decision, amount=amount, policy=policy)
    try:
        detail = _execute(
            action=action, params=params, customer_id=customer_id, actor=approved_by(decision)
        )
    except DomainError as refusal:
        return _refused(base, params, refusal)
    except ExternalServiceError as exc:
        logger.warning("%s %s failed: %s", action["kind"], action["action_id"], exc)
        return {
            **base,
            "outcome": "failed",
            "params": params,
            "code": f"{exc.service}_{exc.kind}",
            "reason": exc.message,
        }
    return {**base, "outcome": "executed", "params": params, **detail}


def _short_of_approvals(
    base: dict[str, Any], params: dict[str, Any], decision: Decision, *, amount: int, policy: Policy
) -> dict[str, Any]:
    """The approvals do not meet the policy in force (a limit was lowered since they were
    given, or the record never came through four eyes): nothing runs, and the action waits
    for a person again, carrying the approvals that still count (``approval_nodes``)."""
    approvals = decision.get("approvals", [])
    carried = approvals_that_count(amount=amount, approvals=approvals, policy=policy)
    refusal = DomainError("approvals_missing")
    return {
        **base,
        "outcome": "awaiting_approval",
        "params": params,
        "code": refusal.code,
        "reason": refusal.message,
        "carried": {**decision, "approvals": carried, **approval_policy(policy)}
        if carried
        else None,
    }


def _refused(base: dict[str, Any], params: dict[str, Any], refusal: DomainError) -> dict[str, Any]:
    return {
        **base,
        "outcome": "refused",
        "params": params,
        "code": refusal.code,
        "reason": refusal.message,
    }


def _execute(
    *, action: PendingAction, params: dict[str, Any], customer_id: str, actor: str
) -> dict[str, Any]:
    customer = selectors.customer_get(code=customer_id)
    order = selectors.order_get_for_customer(customer=customer, number=params["order_number"])
    executor = EXECUTORS.get(action["kind"])
    if executor is None:
        raise DomainError("unknown_action", kind=action["kind"])
    return executor(order, params, action["action_id"], actor)


def _cancel(order: Order, params: dict[str, Any], operation_id: str, actor: str) -> dict[str, Any]:
    cancellation = order_cancel(
        order=order, operation_id=operation_id, actor=actor, reason=params["reason"]
    )
    return {"authorization_released": cancellation.authorization_released}


def _refund(order: Order, params: dict[str, Any], operation_id: str, actor: str) -> dict[str, Any]:
    refund = refund_create(
        order=order,
        amount=int(params["amount"]),
        reason=params["reason"],
        operation_id=operation_id,
        actor=actor,
    )
    return {"refund_amount": refund.amount, "gateway_refund_id": refund.gateway_refund_id}


def _return(order: Order, params: dict[str, Any], operation_id: str, actor: str) -> dict[str, Any]:
    item_return = return_create(
        order=order,
        items=_items(params),
        reason=params["reason"],
        amount=int(params["amount"]),
        defective=bool(params.get("defective")),
        operation_id=operation_id,
        actor=actor,
    )
    refund = item_return.refund
    return {
        "return_id": item_return.pk,
        "refund_amount": item_return.amount,
        "gateway_refund_id": refund.gateway_refund_id if refund else "",
    }


def _exchange(
    order: Order, params: dict[str, Any], operation_id: str, actor: str
) -> dict[str, Any]:
    exchange = exchange_create(
        order=order,
        item=ItemRequest(params["item"]),
        variant=params["new_sku"],
        reason=params["reason"],
        operation_id=operation_id,
        actor=actor,
    )
    return {
        "exchange_id": exchange.pk,
        "replacement_tracking_number": exchange.replacement_tracking_number,
        "booking_id": exchange.carrier_booking_id,
    }


def _change(order: Order, params: dict[str, Any], operation_id: str, actor: str) -> dict[str, Any]:
    change = order_items_change(
        order=order, items=_items(params), operation_id=operation_id, actor=actor
    )
    return {
        "order_change_id": change.pk,
        "new_total": change.new_total,
        "authorization_adjusted": change.authorization_adjusted,
    }


def _items(params: dict[str, Any]) -> list[ItemRequest]:
    return [ItemRequest(item["sku"], item.get("quantity")) for item in params["items"]]


Executor = Callable[[Order, dict[str, Any], str, str], dict[str, Any]]
EXECUTORS: dict[str, Executor] = {
    Skill.CANCEL_ORDER: _cancel,
    Skill.PROCESS_REFUND: _refund,
    Skill.RETURN_ITEMS: _return,
    Skill.EXCHANGE_ITEMS: _exchange,
    Skill.MODIFY_ORDER_ITEMS: _change,
}
