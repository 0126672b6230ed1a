"""A conversation a storefront starts over the API remembers the token that started it, so
that token's webhooks hear of it (``storefront_events``).

A wrapper around ``agents.support.conversations.intake.inquiry_create`` in one transaction: the
token is set
before the run is handed to a worker (after commit), so no event of the run can miss it.
"""

from __future__ import annotations

from django.db import transaction

from agents.models import Inquiry
from agents.support.conversations.intake import inquiry_create
from netshop.models import ApiToken, Customer
from netshop.transactions import retry_conflicts


@retry_conflicts
@transaction.atomic
def storefront_inquiry_create(
    *,
    token: ApiToken,
    customer: Customer,
    text: str,
    channel: str = "web",
    idempotency_key: str | None = None,
) -> Inquiry:
    """``inquiry_create`` for a storefront token; a replayed idempotency key keeps the token
    that first submitted the inquiry."""
    inquiry = inquiry_create(
        customer=customer, text=text, channel=channel, idempotency_key=idempotency_key
    )
    if inquiry.storefront_token_id is None:
        Inquiry.objects.filter(pk=inquiry.pk).update(storefront_token=token)
        inquiry.storefront_token = token
    return inquiry


def storefront_token_carry(*, earlier: Inquiry, started: Inquiry) -> None:
    """A conversation started by a message to a long-closed one keeps the storefront that
    submitted the first, so its webhooks still hear of it."""
    if earlier.storefront_token_id is not None and started.storefront_token_id is None:
        Inquiry.objects.filter(pk=started.pk).update(storefront_token=earlier.storefront_token_id)
        started.storefront_token_id = earlier.storefront_token_id
