"""Taking in a customer's inquiry (a new conversation): its row and first message, and its
run handed to a worker.

Apart from the driver because intake runs in the web process on every storefront request and
needs none of the graph: the API, the customer page and the ``run_inquiry`` command create
inquiries here; only workers (or a caller that runs in-process) drive them.
"""

from __future__ import annotations

from django.db import transaction

from agents.models import Inquiry, MessageAuthor
from agents.support import audit_trail
from agents.support.conversations.messages import message_store
from agents.support.run_requests import enqueue_run
from netshop.audit import audit_batch
from netshop.errors import DomainError
from netshop.models import ApiToken, Customer
from netshop.text import shows_nothing
from netshop.transactions import retry_conflicts


@retry_conflicts
def inquiry_create(
    *,
    customer: Customer,
    text: str,
    channel: str = "web",
    idempotency_key: str | None = None,
    start: bool = True,
    storefront_token: ApiToken | None = None,
) -> Inquiry:
    """Record a new inquiry (or return the one this idempotency key already made).

    ``storefront_token`` is the storefront submitting it (None: the help page, the console, a
    command). A key is the caller's own: the same key from another storefront, or from none,
    makes another inquiry; from the same caller for the same customer it answers with the
    inquiry it first made.

    A text that shows nothing (``netshop.text.shows_nothing``) is refused (``blank_text``);
    the same key with a different text or channel is refused (``idempotency_key_reused``).
    The run is handed to a worker after commit; the caller never waits for it. A deadlock or
    serialization failure runs the transaction again (``retry_conflicts``), so a storefront
    sees 202 or a refusal, never a 500 for another writer's timing.
    """
    if shows_nothing(text):
        raise DomainError("blank_text")
    with transaction.atomic():
        if idempotency_key:
            inquiry, created = Inquiry.objects.get_or_create(
                customer=customer,
                idempotency_key=idempotency_key,
                storefront_token=storefront_token,
                defaults={"text": text, "channel": channel},
            )
            if not created and (inquiry.text, inquiry.channel) != (text, channel):
                # As payment APIs do: a key names one request; a different one is a bug.
                raise DomainError(
                    "idempotency_key_reused", key=repr(idempotency_key), inquiry=inquiry.pk
                )
        else:
            inquiry, created = (
                Inquiry.objects.create(
                    customer=customer,
                    text=text,
                    channel=channel,
                    storefront_token=storefront_token,
                ),
                True,
            )
        if created:
            with audit_batch():  # the inquiry and its first message: one append to the chain
                audit_trail.inquiry_received(
                    inquiry_id=inquiry.pk,
                    customer_id=customer.code,
                    channel=channel,
                    length=len(text),
                )
                message_store(
                    inquiry=inquiry, author_kind=MessageAuthor.CUSTOMER, text=text, channel=channel
                )
        if created and start:
            enqueue_run(inquiry.pk)
    return inquiry
