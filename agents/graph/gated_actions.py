"""Carrying out an operator's decision on a prepared refund or cancellation, exactly once.

The action's id is its operation id: the shop's services refuse to act twice on one id, so
re-running this after a crash, a retried task or a resumed node finds the first result.
Rules are re-checked at execution time by the services (the order may have changed since
the action was prepared). Errors are never retried here: a person decides (SPEC 4.4).
"""

from __future__ import annotations

import logging
from typing import Any

from agents.shapes import Decision, PendingAction
from agents.vocabulary import OperatorDecision, Skill
from netshop import selectors
from netshop.errors import DomainError, ExternalServiceError
from netshop.services.orders import order_cancel
from netshop.services.refunds import refund_create

logger = logging.getLogger(__name__)

EDITABLE_PARAMS: dict[str, set[str]] = {
    Skill.PROCESS_REFUND: {"amount", "reason"},
    Skill.CANCEL_ORDER: {"reason"},
}


def effective_params(action: PendingAction, decision: Decision) -> dict[str, Any]:
    """The recommended parameters, with an edit's allowed changes applied."""
    params = dict(action["params"])
    if decision["decision"] == OperatorDecision.EDIT:
        allowed = EDITABLE_PARAMS.get(action["kind"], set())
        params.update({k: v for k, v in (decision.get("params") or {}).items() if k in allowed})
    return params


def carry_out(*, action: PendingAction, decision: Decision, customer_id: str) -> dict[str, Any]:
    """Run (or decline) one action; returns a JSON-safe outcome for the run's state."""
    verdict = decision["decision"]
    base = {
        "action_id": action["action_id"],
        "kind": action["kind"],
        "decision": verdict,
        "operator": decision.get("operator", ""),
    }
    if verdict in (OperatorDecision.REJECT, OperatorDecision.TAKE_OVER):
        return {**base, "outcome": "declined", "reason": decision.get("reason", "")}
    params = effective_params(action, decision)
    try:
        detail = _execute(
            action=action, params=params, customer_id=customer_id, actor=base["operator"]
        )
    except DomainError as refusal:
        return {
            **base,
            "outcome": "refused",
            "params": params,
            "code": refusal.code,
            "reason": refusal.message,
        }
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


def _execute(
    *, action: PendingAction, params: dict[str, Any], customer_id: str, actor: str
) -> dict[str, Any]:
    customer = selectors.customer_get(code=customer_id)
    order = selectors.order_get_for_customer(customer=customer, number=params["order_number"])
    if action["kind"] == Skill.CANCEL_ORDER:
        cancellation = order_cancel(
            order=order, operation_id=action["action_id"], actor=actor, reason=params["reason"]
        )
        return {"authorization_released": cancellation.authorization_released}
    if action["kind"] == Skill.PROCESS_REFUND:
        refund = refund_create(
            order=order,
            amount=int(params["amount"]),
            reason=params["reason"],
            operation_id=action["action_id"],
            actor=actor,
        )
        return {"refund_amount": refund.amount, "gateway_refund_id": refund.gateway_refund_id}
    raise DomainError("unknown_action", kind=action["kind"])
