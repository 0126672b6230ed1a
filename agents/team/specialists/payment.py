"""The Payment agent: payment status, refunds (prepared for approval) and what became of them,
apology coupons, receipts."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from agents.support.audit_trail import agent_actor
from agents.support.escalations.selectors import refunds_awaiting_approval
from agents.support.vocabulary import Skill
from agents.team.prompts import SHARED_RULES
from agents.team.run_context import run_context, run_customer, stable_operation_id
from agents.team.specialists.asking import ASKING_RULES, ASKING_TOOLS
from agents.team.specialists.faq import search_faq
from agents.team.specialists.item_args import OrderItem
from agents.team.specialists.spec import ApprovalRequired, Specialist
from netshop import selectors
from netshop.adapters.gateway import get_gateway
from netshop.errors import DomainError
from netshop.policy import policy_in_force
from netshop.services.coupons import coupon_issue
from netshop.services.order_items import choose_lines, parse_items, within_lines
from netshop.services.receipts import receipt_issue
from netshop.services.refund_status import refund_status_read
from netshop.services.refunds import refund_proposal

PROMPT = f"""{SHARED_RULES}
{ASKING_RULES}

You are the Payment agent. The order's facts are in the context when the Order agent found
them. Check payments with check_payment_status. Refunds go through process_refund, which
prepares the refund for an operator and never exceeds what was captured and not yet
refunded. Offer an apology coupon with apply_coupon only when the shop caused trouble with a
delivery; name the order it was with. The shop checks its own records before issuing one.
When the customer asks whether a refund was made, call refund_status: it only reads, so
never offer or prepare a refund there. Issue a receipt (領収書) for a paid order with
issue_receipt, to the name the customer asks for (宛名), else leave the name empty.
When a coupon would not apply, look its conditions up in the shop's help with search_faq
(category coupons) and give them: the conditions are the shop's, not yours."""


def _order(config: RunnableConfig, order_number: str) -> Any:
    return selectors.order_get_for_customer(customer=run_customer(config), number=order_number)


@tool
def check_payment_status(order_number: str, config: RunnableConfig) -> dict[str, Any]:
    """Check how an order was paid, what was captured and refunded, as the gateway sees it.

    Args:
        order_number: the order number, e.g. ORD-1003.
    """
    order = _order(config, order_number)
    facts = selectors.order_facts(order=order, reload=False)
    payment = facts.get("payment")
    if payment is None:
        raise DomainError("no_payment", order=order.number)
    gateway = get_gateway().status(order.payment.gateway_reference)
    return {"payment": payment, "gateway": gateway.as_dict(), "order_number": order.number}


@tool
def process_refund(
    order_number: str,
    reason: str,
    config: RunnableConfig,
    amount: int | None = None,
    items: list[OrderItem] | None = None,
) -> dict[str, Any]:
    """Prepare a refund for an operator's approval. Nothing is paid until a person approves.

    The amount is capped at what was captured and not yet refunded, whatever is asked. When
    the complaint is about some items of the order only (one broken item of several), name
    them in ``items``: the refund is their price, not the whole order.

    Args:
        order_number: the order number, e.g. ORD-1003.
        reason: why the customer should be refunded, in a few words.
        amount: yen to refund, when the customer asks for a part; leave empty for the whole
            refundable amount. With ``items``, never more than their price.
        items: the items the refund is for, by SKU, e.g. [{"sku": "MUG-ARITA-AI"}].
    """
    context = run_context(config)
    order = _order(config, order_number)
    facts = selectors.order_facts(order=order, reload=False)
    chosen = within_lines(choose_lines(order=order, items=parse_items(items))) if items else []
    requested = amount
    if chosen:  # the items' price comes from the order's lines: a model's figure only lowers it
        priced = sum(line.amount for line in chosen)
        amount = priced if amount is None else min(amount, priced)
    proposal = refund_proposal(
        order=order, amount=amount, reason=reason.strip() or "customer request"
    )
    raise ApprovalRequired(
        {
            "action_id": stable_operation_id(
                context.inquiry_id, Skill.PROCESS_REFUND, order.number
            ),
            "kind": Skill.PROCESS_REFUND,
            "agent": "payment",
            "params": {
                "order_number": order.number,
                "amount": proposal.amount,
                "reason": proposal.reason,
                **({"items": [line.as_dict() for line in chosen]} if chosen else {}),
            },
            "requested_amount": requested if requested is not None else amount,
            "capped": proposal.capped,
            "amount_at_risk": proposal.amount,
            "checks": [check.as_dict() for check in proposal.checks],
            "facts": facts,
        }
    )


@tool
def apply_coupon(
    reason: str,
    config: RunnableConfig,
    order_number: str | None = None,
    value: int | None = None,
    replaces_expired: bool = False,
) -> dict[str, Any]:
    """Give the customer one apology coupon for trouble the shop's records show.

    Only for a late delivery, a parcel taken back to the depot or a missed redelivery, as
    recorded for the customer's order: what the customer says is not enough, and the shop
    refuses when its records show no such trouble, when the customer already had a coupon
    recently, or when they ask to replace an expired one (expired coupons are not reissued).

    Args:
        reason: what went wrong, in a few words.
        order_number: the order the trouble was with, e.g. ORD-1004, if the inquiry names one.
        value: yen off the next order; leave empty for the standard apology value.
        replaces_expired: true when the customer asks for a coupon instead of one that
            expired (a reissue): the shop refuses it.
    """
    context = run_context(config)
    cap = policy_in_force().coupon_cap_yen
    customer = run_customer(config)
    coupon = coupon_issue(
        customer=customer,
        value=min(value or cap, cap),
        inquiry_ref=context.inquiry_id,
        operation_id=stable_operation_id(context.inquiry_id, "apply_coupon"),
        actor=agent_actor("payment"),
        order_number=order_number or None,
        replaces_expired=replaces_expired,
    )
    return {
        "coupon": {
            "code": coupon.code,
            "value": coupon.value,
            "expires_at": coupon.expires_at.date().isoformat(),
            "reason": reason,
        }
    }


@tool
def refund_status(order_number: str, config: RunnableConfig) -> dict[str, Any]:
    """Read what was refunded on an order and when, and any refund still waiting for a
    person's approval. Reads only: it never creates a refund.

    Args:
        order_number: the order number, e.g. ORD-1003.
    """
    order = _order(config, order_number)
    waiting = refunds_awaiting_approval(
        customer_code=run_context(config).customer_id, order_number=order.number
    )
    return {"refund_status": refund_status_read(order=order) | {"awaiting_approval": waiting}}


@tool
def issue_receipt(order_number: str, config: RunnableConfig, addressee: str = "") -> dict[str, Any]:
    """Issue the receipt (領収書) of a paid order as a PDF the customer downloads.

    Issuing again for the same order gives the same receipt number, marked as a reissue.
    The amount is what was paid less any refund (``refunded``); a fully refunded order gets
    none. The shop refuses an addressee that is not a name (an amount, a currency, tax
    wording, control characters): tell the customer why and ask for the name only; never
    rewrite it yourself. Tell the customer the addressee the result says will be printed.

    Args:
        order_number: the order number, e.g. ORD-1003.
        addressee: the name to address it to (宛名), exactly as the customer wrote it, e.g.
            株式会社サンプル or Acme Trading Ltd.; leave empty for the customer's own name.
    """
    context = run_context(config)
    order = _order(config, order_number)
    name = addressee.strip()
    issue = receipt_issue(
        order=order,
        addressee=name,
        operation_id=stable_operation_id(
            context.inquiry_id, Skill.ISSUE_RECEIPT, order.number, name
        ),
        actor=agent_actor("payment"),
        inquiry_ref=context.inquiry_id,
    )
    return {
        "receipt": {
            "number": issue.receipt.number,
            "order_number": order.number,
            "addressee": issue.addressee,
            "amount": issue.amount,
            # Paid and refunded before this issue: why the amount is less than the order's.
            "refunded": max(order.payment.captured_amount - issue.amount, 0),
            "reissue": issue.reissue,
        }
    }


SPECIALIST = Specialist(
    agent="payment",
    prompt=PROMPT,
    tools=(
        check_payment_status,
        process_refund,
        apply_coupon,
        refund_status,
        issue_receipt,
        search_faq,  # the shop's own conditions for a problem it checks (a coupon)
        *ASKING_TOOLS,
    ),
    approval_required=frozenset({Skill.PROCESS_REFUND}),
    side_effects=frozenset({"apply_coupon", Skill.ISSUE_RECEIPT}),
)
