"""The customer beside the composer: their orders, what waits for the team about them, and
their earlier conversations, so a reply is written without leaving the page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.models import Escalation, EscalationStatus, Inquiry
from netshop.selectors import order_summary, orders_search
from operators.console.selectors import customer_earlier_inquiries
from operators.headlines import escalation_headline

# As many as the panel shows of each: the newest; the inbox and the admin have the rest.
SHOWN = 5


@dataclass(frozen=True)
class OpenWait:
    """An open escalation about the customer: what it asks, and where to decide it."""

    escalation_id: str
    kind: str
    headline: str
    here: bool  # about this conversation


@dataclass(frozen=True)
class CustomerPanel:
    orders: list[dict[str, Any]]
    waits: list[OpenWait]
    earlier: list[Inquiry]


def customer_panel(inquiry: Inquiry) -> CustomerPanel:
    """The panel for ``inquiry``'s customer, in a fixed number of queries (orders with their
    lines, payments and shipments; the open escalations; the earlier conversations)."""
    customer = inquiry.customer
    orders = orders_search(customer=customer, limit=SHOWN)
    open_waits = Escalation.objects.filter(
        inquiry__customer=customer, status=EscalationStatus.OPEN
    ).order_by("deadline")[:SHOWN]
    return CustomerPanel(
        orders=[order_summary(order=order) for order in orders],
        waits=[
            OpenWait(
                escalation_id=str(wait.pk),
                kind=wait.kind,
                headline=escalation_headline(wait),
                here=wait.inquiry_id == inquiry.pk,
            )
            for wait in open_waits
        ],
        earlier=customer_earlier_inquiries(inquiry=inquiry, limit=SHOWN),
    )
