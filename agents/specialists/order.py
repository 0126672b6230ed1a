"""The Order agent: finds the customer's orders and prepares cancellations."""

from __future__ import annotations

from datetime import date
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from agents.graph.prompts import SHARED_RULES
from agents.graph.run_context import run_context, stable_operation_id
from agents.specialists.asking import ASKING_RULES, ASKING_TOOLS
from agents.specialists.spec import ApprovalRequired, Specialist
from agents.vocabulary import Skill
from netshop import selectors
from netshop.services.policy_checks import cancel_checks, raise_first_failure

PROMPT = f"""{SHARED_RULES}
{ASKING_RULES}

You are the Order agent. Find the order the customer means: use the order number they give
(get_order_details), otherwise search their orders (search_orders) and pick the one that fits
what they ask about. To cancel, call cancel_order: it only prepares the cancellation for an
operator's approval and refuses orders that can no longer be cancelled."""


def _customer(config: RunnableConfig) -> Any:
    return selectors.customer_get(code=run_context(config).customer_id)


def _iso_date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


@tool
def search_orders(
    config: RunnableConfig,
    status: str | None = None,
    placed_from: str | None = None,
    placed_to: str | None = None,
) -> dict[str, Any]:
    """Search the customer's orders, newest first.

    Args:
        status: only orders in this status (pending, confirmed, shipped, delivered, cancelled).
        placed_from: ISO date (YYYY-MM-DD); only orders placed on or after it.
        placed_to: ISO date (YYYY-MM-DD); only orders placed on or before it.
    """
    orders = selectors.orders_search(
        customer=_customer(config),
        status=status,
        placed_from=_iso_date(placed_from),
        placed_to=_iso_date(placed_to),
    )
    return {"orders": [selectors.order_summary(order=order) for order in orders]}


@tool
def get_order_details(order_number: str, config: RunnableConfig) -> dict[str, Any]:
    """Get one order of the customer's: items, status, payment and shipment facts.

    Args:
        order_number: the order number, e.g. ORD-1003.
    """
    order = selectors.order_get_for_customer(customer=_customer(config), number=order_number)
    return {"order": selectors.order_facts(order=order, reload=False)}


@tool
def cancel_order(order_number: str, reason: str, config: RunnableConfig) -> dict[str, Any]:
    """Prepare the cancellation of a pending or confirmed order for an operator's approval.

    Nothing is cancelled until a person approves. Orders already shipped, delivered or
    cancelled are refused with the reason.

    Args:
        order_number: the order number, e.g. ORD-1001.
        reason: why the customer wants to cancel, in a few words.
    """
    context = run_context(config)
    order = selectors.order_get_for_customer(customer=_customer(config), number=order_number)
    checks = cancel_checks(order=order)
    raise_first_failure(checks)
    facts = selectors.order_facts(order=order, reload=False)
    raise ApprovalRequired(
        {
            "action_id": stable_operation_id(context.inquiry_id, Skill.CANCEL_ORDER, order.number),
            "kind": Skill.CANCEL_ORDER,
            "agent": "order",
            "params": {"order_number": order.number, "reason": reason or "customer request"},
            "amount_at_risk": facts["total"],
            "checks": [check.as_dict() for check in checks],
            "facts": facts,
        }
    )


SPECIALIST = Specialist(
    agent="order",
    prompt=PROMPT,
    tools=(search_orders, get_order_details, cancel_order, *ASKING_TOOLS),
    approval_required=frozenset({Skill.CANCEL_ORDER}),
    direct_tools=frozenset({"get_order_details"}),
)
