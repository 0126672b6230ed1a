"""Finding conversations for the console's inbox: every conversation, not only escalations.

A search reads the customer (code or name), an order number (one the customer holds, or one
any message names) and the messages' text; a filter narrows to one standing of the
conversation. The API's inbox (``agents.support.conversations.inbox``) answers the same question for
its callers; the two are to be reconciled into one selector.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from agents.models import (
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from agents.support.vocabulary import FLAGGED_FOR_REVIEW
from netshop.models import Order

StatusFilter = Literal[
    "",
    "ai_resolved",
    "awaiting_customer",
    "human_owned",
    "flagged",
    "escalated",
    "failed",
    "waiting_on_us",
]
STATUS_FILTERS: Final[tuple[str, ...]] = tuple(f for f in get_args(StatusFilter) if f)


def conversation_search(*, text: str = "", status_filter: str = "") -> QuerySet[Inquiry]:
    """Conversations matching ``text`` and ``status_filter``, the latest activity first.

    An unknown filter matches nothing (a typo must not look like "all"). "AI-resolved" is
    the same test ``conversation_flag`` applies: resolved, and no operator wrote in it.
    """
    found = Inquiry.objects.select_related("customer", "human_owner")
    terms = text.strip()
    if terms:
        found = found.filter(_matching(terms))
    if status_filter:
        found = found.filter(_standing(status_filter))
    return found.order_by("-updated_at", "-pk")


def _matching(terms: str) -> Q:
    """The customer, an order number or the text: one of them contains ``terms``."""
    in_messages = Message.objects.filter(inquiry=OuterRef("pk"), text__icontains=terms)
    holds_order = Order.objects.filter(customer=OuterRef("customer"), number__iexact=terms)
    return (
        Q(customer__code__iexact=terms)
        | Q(customer__name__icontains=terms)
        | Q(text__icontains=terms)
        | Q(Exists(in_messages))
        | Q(Exists(holds_order))
    )


def _standing(status_filter: str) -> Q:
    if status_filter == "ai_resolved":
        by_operator = Message.objects.filter(
            inquiry=OuterRef("pk"), author_kind=MessageAuthor.OPERATOR
        )
        return Q(status=InquiryStatus.RESOLVED) & ~Q(Exists(by_operator))
    if status_filter == "awaiting_customer":
        return Q(status=InquiryStatus.AWAITING_CUSTOMER)
    if status_filter == "human_owned":
        return Q(human_owner__isnull=False)
    if status_filter == "flagged":
        return Q(flagged_expression())
    if status_filter == "escalated":
        return Q(status__in=WITH_A_PERSON)
    if status_filter == "failed":
        return Q(status=InquiryStatus.FAILED)
    if status_filter == "waiting_on_us":
        return _waiting_on_us()
    return Q(pk__in=[])


# Where a conversation waits for a person of the team, not for the AI or the customer.
WITH_A_PERSON: Final = (InquiryStatus.ESCALATED, InquiryStatus.AWAITING_APPROVAL)


def _waiting_on_us() -> Q:
    """The customer wrote last (notes aside) and a person of the team is to answer: the
    conversation is taken over, handed to a person, waiting for a decision, or failed."""
    newest = (
        Message.objects.filter(inquiry=OuterRef("inquiry"))
        .exclude(author_kind=MessageAuthor.NOTE)
        .order_by("-created_at", "-pk")
        .values("pk")[:1]
    )
    customer_wrote_last = Message.objects.filter(
        inquiry=OuterRef("pk"), author_kind=MessageAuthor.CUSTOMER, pk=Subquery(newest)
    )
    ours = Q(human_owner__isnull=False) | Q(status__in=[*WITH_A_PERSON, InquiryStatus.FAILED])
    return ours & Q(Exists(customer_wrote_last))


def flagged_expression() -> Exists:
    """An open flag: a lead asked for a second look (a sampled review is no flag)."""
    return Exists(
        Escalation.objects.filter(
            inquiry=OuterRef("pk"),
            kind=EscalationKind.REVIEW,
            reason=FLAGGED_FOR_REVIEW,
            status=EscalationStatus.OPEN,
        )
    )
