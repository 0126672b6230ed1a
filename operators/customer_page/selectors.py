"""Reads for the customer help page, always scoped to the signed-in customer."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Prefetch, QuerySet

from agents.models import CUSTOMER_VISIBLE_AUTHORS, Inquiry, Message
from netshop.errors import DomainError
from netshop.models import Customer, ReceiptIssue

RECENT = 10


def customer_for_user(*, user: Any) -> Customer | None:
    """The shop customer this login belongs to, if any."""
    if not user.is_authenticated:
        return None
    return Customer.objects.filter(user=user).first()


def customer_inquiries(*, customer: Customer, limit: int = RECENT) -> list[Inquiry]:
    """The customer's latest conversations, each with the thread they may see
    (``visible_messages``: never an internal note), in two queries."""
    visible = (
        Message.objects.filter(author_kind__in=CUSTOMER_VISIBLE_AUTHORS)
        .select_related("feedback")  # the customer's word on each AI answer, in the same query
        .order_by("created_at", "id")
    )
    found = Inquiry.objects.filter(customer=customer).order_by("-created_at")
    found = found.prefetch_related(
        Prefetch("messages", queryset=visible, to_attr="visible_messages")
    )
    return list(found[:limit])


def customer_inquiry_get(*, customer: Customer, inquiry_id: object) -> Inquiry:
    """One of the customer's own inquiries; anyone else's is "not found", like a bad id."""
    found = _owned(inquiry_id).filter(customer=customer).first()
    if found is None:
        raise DomainError("inquiry_not_found")
    return found


def customer_owns_inquiry(*, user: Any, inquiry_id: object) -> bool:
    if not user.is_authenticated:
        return False
    return _owned(inquiry_id).filter(customer__user=user).exists()


def _owned(inquiry_id: object) -> QuerySet[Inquiry]:
    try:
        pk = uuid.UUID(str(inquiry_id))
    except ValueError:
        return Inquiry.objects.none()
    return Inquiry.objects.filter(pk=pk)


def customer_receipts(
    *, customer: Customer, inquiry_ids: list[str]
) -> dict[str, list[ReceiptIssue]]:
    """The receipts issued in each of these conversations, on the customer's own orders
    only, latest issue of each number (one query for the whole page)."""
    issues = (
        ReceiptIssue.objects.select_related("receipt__order")
        .filter(inquiry_ref__in=inquiry_ids, receipt__order__customer=customer)
        .order_by("inquiry_ref", "receipt__number", "-issued_at", "-id")
    )
    shown: dict[str, list[ReceiptIssue]] = {}
    seen: set[tuple[str, str]] = set()
    for issue in issues:
        key = (issue.inquiry_ref, issue.receipt.number)
        if key not in seen:
            seen.add(key)
            shown.setdefault(issue.inquiry_ref, []).append(issue)
    return shown
