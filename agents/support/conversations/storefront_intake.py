"""A conversation a storefront starts over the API belongs to the token that started it: that
token alone reads it and writes in it (``storefront_conversation_get``, ``customer_message_post``),
its idempotency keys are that token's own, and its webhooks hear of it (``storefront_events``).

The token is set in the same transaction that creates the inquiry, before the run is handed to
a worker (after commit), so no event of the run can miss it.
"""

from __future__ import annotations

from agents.models import Inquiry
from agents.support.conversations.intake import inquiry_create
from netshop.models import ApiToken, Customer


def storefront_inquiry_create(
    *,
    token: ApiToken,
    customer: Customer,
    text: str,
    channel: str = "web",
    idempotency_key: str | None = None,
) -> Inquiry:
    """``inquiry_create`` for a storefront token: the inquiry is the token's, and so is the
    idempotency key (another token's same key makes another inquiry)."""
    return inquiry_create(
        customer=customer,
        text=text,
        channel=channel,
        idempotency_key=idempotency_key,
        storefront_token=token,
    )
