"""The Order agent: finds the customer's orders and prepares cancellations, returns,
exchanges and item changes (each waits for an operator's approval)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from agents.support.grounding.described import DescribedState, OrderReference
from agents.support.grounding.orders import REQUESTS, ground_order
from agents.support.vocabulary import Skill
from agents.team.prompts import SHARED_RULES
from agents.team.run_context import run_context, run_customer, stable_operation_id
from agents.team.specialists.asking import ASKING_RULES, ASKING_TOOLS
from agents.team.specialists.item_args import OrderItem
from agents.team.specialists.spec import ApprovalRequired, Specialist
from netshop import selectors
from netshop.errors import DomainError
from netshop.models import Order
from netshop.services.exchanges import exchange_proposal
from netshop.services.order_changes import order_change_proposal
from netshop.services.order_items import ItemRequest, order_items_facts, parse_items
from netshop.services.policy_checks import PolicyCheck, cancel_checks, raise_first_failure
from netshop.services.returns import return_proposal

PROMPT = f"""{SHARED_RULES}
{ASKING_RULES}

You are the Order agent. Find the order the customer means: use the order number they give
(get_order_details), otherwise search their orders (search_orders) with what the customer
said about the order (request, words, item, states, numbers, amounts): take the order it
matches, and ask the customer when it returns candidates instead. To cancel, call
cancel_order: it only prepares the cancellation for an operator's approval and refuses orders
that can no longer be cancelled. A delivered item the customer sends back is return_items;
the same item in another size or colour is exchange_items; removing an item or lowering a
quantity before the order is confirmed is modify_order_items. Look the items up first with
get_order_items and name them by SKU. Each only prepares the action for an operator and
refuses what the shop's rules do not allow."""


def _iso_date(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


@tool
def search_orders(
    config: RunnableConfig,
    status: str | None = None,
    placed_from: str | None = None,
    placed_to: str | None = None,
    request: str | None = None,
    words: str | None = None,
    item: str | None = None,
    states: list[DescribedState] | None = None,
    numbers: list[int] | None = None,
    amounts: list[int] | None = None,
    tracking_numbers: list[str] | None = None,
) -> dict[str, Any]:
    """Search the customer's orders, newest first. Given ``request``, also find the order the
    customer means from what they said: ``grounding.match`` is that order; with
    ``grounding.candidates`` instead, ask the customer which (ask_customer), never pick one.

    Args:
        status: only orders in this status (pending, confirmed, shipped, delivered, cancelled).
        placed_from: ISO date (YYYY-MM-DD); only orders placed on or after it.
        placed_to: ISO date (YYYY-MM-DD); only orders placed on or before it.
        request: what the customer wants, a skill id (track_shipment, cancel_order,
            process_refund, get_order_details, ...) or "charged twice".
        words: the customer's own words about the order ("the bath towel arriving today").
        item: the item they name in a complaint ("towel", 「扇風機」).
        states: the states they say they see it in.
        numbers: numbers they wrote without the ORD- prefix ("3022").
        amounts: amounts in yen they wrote.
        tracking_numbers: tracking numbers they wrote.
    """
    customer = run_customer(config)
    since, until = _iso_date(placed_from), _iso_date(placed_to)
    summaries = _summaries(
        selectors.orders_search(
            customer=customer, status=status, placed_from=since, placed_to=until
        )
    )
    if request is None:
        return {"orders": summaries}
    if request not in REQUESTS:
        allowed = ", ".join(sorted(REQUESTS))
        raise DomainError("unknown_request", request=repr(request), allowed=allowed)
    reference = OrderReference(
        states=frozenset(states or ()),
        item=" ".join(re.findall(r"[\w-]+", (item or "").lower())),  # "Towel!" is "towel"
        words=(words or "").lower(),
        numbers=frozenset(numbers or ()),
        amounts=frozenset(amounts or ()),
    )
    # Grounded among all their orders, not only the page a filter or the newest twenty show
    # (the page is all of them when it is unfiltered and not full).
    whole = not (status or since or until) and len(summaries) < selectors.ORDERS_LISTED
    everything = (
        summaries
        if whole
        else _summaries(selectors.orders_search(customer=customer, limit=selectors.MAX_ORDERS))
    )
    grounding = ground_order(everything, request, tracking_numbers or (), reference)
    named = {grounding.number, *(order["number"] for order in grounding.candidates)}
    listed = {summary["number"] for summary in summaries}
    summaries += [s for s in everything if s["number"] in named and s["number"] not in listed]
    return {"orders": summaries, "grounding": grounding.as_result()}


def _summaries(orders: list[Order]) -> list[dict[str, Any]]:
    return [selectors.order_summary(order=order) for order in orders]


@tool
def get_order_details(order_number: str, config: RunnableConfig) -> dict[str, Any]:
    """Get one order of the customer's: items, status, payment and shipment facts.

    Args:
        order_number: the order number, e.g. ORD-1003.
    """
    order = selectors.order_get_for_customer(customer=run_customer(config), number=order_number)
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
    order = selectors.order_get_for_customer(customer=run_customer(config), number=order_number)
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


@tool
def get_order_items(order_number: str, config: RunnableConfig) -> dict[str, Any]:
    """List an order's items before a return, exchange or item change: each item's SKU,
    quantity, price, how many were already returned, and the product's other sizes or
    colours with whether they are in stock.

    Args:
        order_number: the order number, e.g. ORD-1101.
    """
    order = _order(config, order_number)
    return {
        "order_number": order.number,
        "status": order.status,
        "items": order_items_facts(order=order),
    }


@tool
def return_items(
    order_number: str,
    items: list[OrderItem],
    reason: str,
    config: RunnableConfig,
    defective: bool = False,
) -> dict[str, Any]:
    """Prepare the return of delivered items, and the refund of those items only, for an
    operator's approval. Nothing is refunded until a person approves.

    Refused when the order is not delivered, the return window has passed, an item is not
    on the order or was already returned, or is food or personalised and not defective.

    Args:
        order_number: the order number, e.g. ORD-1101.
        items: the items sent back, e.g. [{"sku": "MUG-ARITA-AI"}]; quantity defaults to all.
        reason: why the customer returns them, in a few words.
        defective: true when the items arrived damaged or faulty.
    """
    order = _order(config, order_number)
    requested = parse_items(items)
    proposal = return_proposal(order=order, items=requested, defective=defective)
    params = {
        "order_number": order.number,
        "items": [_item_param(chosen.as_dict()) for chosen in proposal.lines],
        "amount": proposal.amount,
        "reason": reason or "customer request",
        "defective": defective,
    }
    lines = [chosen.as_dict() for chosen in proposal.lines]
    raise _approval(
        config, Skill.RETURN_ITEMS, order, params, proposal.amount, proposal.checks, lines
    )


@tool
def exchange_items(
    order_number: str, item: str, new_variant: str, reason: str, config: RunnableConfig
) -> dict[str, Any]:
    """Prepare the exchange of a delivered item for another size or colour of the same
    product, for an operator's approval (it ships a replacement). Nothing ships until then.

    Refused when the order is not delivered, the exchange window has passed, the item was
    already exchanged, or the variant does not exist or is out of stock.

    Args:
        order_number: the order number, e.g. ORD-1103.
        item: the item's SKU, e.g. TSH-LOGO-M.
        new_variant: the size or colour wanted, e.g. L.
        reason: why, in a few words.
    """
    order = _order(config, order_number)
    proposal = exchange_proposal(order=order, item=ItemRequest(item), variant=new_variant)
    line = proposal.line.as_dict()
    target = proposal.to_product
    params = {
        "order_number": order.number,
        "item": line["sku"],
        "new_variant": target.variant or target.sku,
        "new_sku": target.sku,
        "reason": reason or "customer request",
    }
    detail = {**line, "new_name": target.name, "new_name_en": target.name_en or target.name}
    raise _approval(config, Skill.EXCHANGE_ITEMS, order, params, 0, proposal.checks, [detail])


@tool
def modify_order_items(
    order_number: str, items: list[OrderItem], config: RunnableConfig
) -> dict[str, Any]:
    """Prepare removing items or lowering quantities on a pending order for an operator's
    approval; the total is recomputed and the card authorization lowered to it.

    Refused once the order is confirmed, for additions (a new order) and for removing
    every item (a cancellation).

    Args:
        order_number: the order number, e.g. ORD-1104.
        items: each changed item with its new quantity, 0 to remove it,
            e.g. [{"sku": "CHP-WAKASA", "quantity": 0}].
    """
    order = _order(config, order_number)
    requested = [ItemRequest(r.item, r.quantity or 0) for r in parse_items(items)]
    proposal = order_change_proposal(order=order, items=requested)
    params = {
        "order_number": order.number,
        "items": [{"sku": c.sku, "quantity": c.to} for c in proposal.changes],
        "new_total": proposal.new_total,
    }
    changes = [change.as_dict() for change in proposal.changes]
    at_risk = proposal.previous_total - proposal.new_total
    raise _approval(
        config, Skill.MODIFY_ORDER_ITEMS, order, params, at_risk, proposal.checks, changes
    )


def _order(config: RunnableConfig, order_number: str) -> Any:
    return selectors.order_get_for_customer(customer=run_customer(config), number=order_number)


def _item_param(line: dict[str, Any]) -> dict[str, Any]:
    return {"sku": line["sku"], "quantity": line["quantity"]}


def _approval(
    config: RunnableConfig,
    kind: Skill,
    order: Any,
    params: dict[str, Any],
    at_risk: int,
    checks: list[PolicyCheck],
    items: list[dict[str, Any]],
) -> ApprovalRequired:
    """The prepared action an operator approves, keyed by one operation id per order."""
    context = run_context(config)
    return ApprovalRequired(
        {
            "action_id": stable_operation_id(context.inquiry_id, kind, order.number),
            "kind": kind,
            "agent": "order",
            "params": {**params, "item_details": items},
            "amount_at_risk": at_risk,
            "checks": [check.as_dict() for check in checks],
            "facts": selectors.order_facts(order=order),
        }
    )


SPECIALIST = Specialist(
    agent="order",
    prompt=PROMPT,
    tools=(
        search_orders,
        get_order_details,
        cancel_order,
        get_order_items,
        return_items,
        exchange_items,
        modify_order_items,
        *ASKING_TOOLS,
    ),
    approval_required=frozenset(
        {Skill.CANCEL_ORDER, Skill.RETURN_ITEMS, Skill.EXCHANGE_ITEMS, Skill.MODIFY_ORDER_ITEMS}
    ),
    direct_tools=frozenset({"get_order_details"}),
)
