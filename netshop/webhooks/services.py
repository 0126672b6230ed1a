"""The webhooks' rules: what is written to the outbox, and how one attempt is claimed,
sent and recorded.

An attempt is claimed in a short transaction (the row locked with ``SKIP LOCKED``, its attempt
counted and its next attempt pushed past the send's timeout), sent with no transaction open,
then recorded only if no one claimed the row again meanwhile. Two workers therefore never send
the same attempt, and a worker killed mid-send leaves a row the sweep sends again once the
claim lapses: delivery is at least once, and the receiver deduplicates on the delivery id.
"""

from __future__ import annotations

import functools
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from netshop.models import ApiToken
from netshop.transactions import after_commit
from netshop.webhooks.delivery import AttemptResult, post_signed
from netshop.webhooks.dispatch import delivery_dispatch
from netshop.webhooks.models import (
    DeliveryStatus,
    WebhookDelivery,
    WebhookEvent,
    WebhookSubjectStatus,
)
from netshop.webhooks.receivers import new_signing_secret

logger = logging.getLogger(__name__)

# Beyond the send's own timeout, how long a claimed attempt is left to its worker.
CLAIM_MARGIN_S = 30
SWEEP_BATCH = 200


def token_hears_webhooks(token: ApiToken) -> bool:
    """A live storefront token with a callback URL and a secret to sign with."""
    return bool(token.callback_url and token.webhook_secret) and token.revoked_at is None


def delivery_enqueue(
    *,
    token_id: int,
    event: WebhookEvent,
    data: dict[str, Any],
    subject_id: uuid.UUID | str | None = None,
    dedupe_key: str | None = None,
) -> WebhookDelivery | None:
    """Write a delivery in the caller's transaction; its first attempt leaves after commit.

    The same ``dedupe_key`` for the same token is one delivery (``None`` when it was there).
    """
    fields = {"event": event, "payload": data, "subject_id": subject_id}
    if dedupe_key is None:
        delivery = WebhookDelivery.objects.create(token_id=token_id, **fields)
    else:
        delivery, created = WebhookDelivery.objects.get_or_create(
            token_id=token_id, dedupe_key=dedupe_key, defaults=fields
        )
        if not created:
            return None
    after_commit(lambda: delivery_dispatch(delivery.pk))
    return delivery


def subject_status_changed(*, token_id: int, subject_id: uuid.UUID | str, status: str) -> bool:
    """Note that the token's subscriber now sees ``subject_id`` in ``status``; whether that
    is a change (a repeated save of the same status is not)."""
    subjects = WebhookSubjectStatus.objects.filter(token_id=token_id, subject_id=subject_id)
    if subjects.exclude(status=status).update(status=status):
        return True
    _, created = WebhookSubjectStatus.objects.get_or_create(
        token_id=token_id, subject_id=subject_id, defaults={"status": status}
    )
    return created


def delivery_body(delivery: WebhookDelivery) -> dict[str, Any]:
    """What the receiver gets: the same bytes on every attempt (``signing.body_bytes``)."""
    return {
        "id": str(delivery.pk),
        "event": delivery.event,
        "created_at": delivery.created_at.isoformat(),
        "data": delivery.payload,
    }


def retry_delay_s(attempts: int) -> float:
    """The back-off after ``attempts`` failed attempts: doubling from the first, capped."""
    first, cap = settings.NETSHOP_WEBHOOK_BACKOFF_S, settings.NETSHOP_WEBHOOK_BACKOFF_MAX_S
    return float(min(first * 2 ** max(attempts - 1, 0), cap))


@dataclass(frozen=True)
class Claim:
    """One attempt a worker holds: what to send and where."""

    delivery_id: uuid.UUID
    attempt: int
    url: str
    secret: str
    event: str
    body: dict[str, Any]


def delivery_send(*, delivery_id: uuid.UUID | str) -> str:
    """Make the delivery's attempt if it is due and nobody holds it; returns its status.

    A failed attempt schedules the next one after the back-off, until the retry window
    closes; then the delivery has failed (given up). An attempt refused because the host is
    not a public address fails it at once: retrying would only knock at that address again.
    """
    claim = _claim(delivery_id)
    if claim is None:
        return "not_due"
    result = post_signed(
        url=claim.url,
        secret=claim.secret,
        delivery_id=str(claim.delivery_id),
        event=claim.event,
        payload=claim.body,
    )
    status, retry_in = _record(claim, result)
    if retry_in is not None:
        delivery_dispatch(claim.delivery_id, countdown=retry_in)
    return status


@transaction.atomic
def _claim(delivery_id: uuid.UUID | str) -> Claim | None:
    now = timezone.now()
    delivery = (
        WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("token")
        .filter(pk=delivery_id, status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
        .first()
    )
    if delivery is None:
        return None
    if not token_hears_webhooks(delivery.token):
        _give_up(delivery, error="the token has no callback URL any more, or was revoked")
        return None
    delivery.attempts += 1
    lease = settings.NETSHOP_WEBHOOK_TIMEOUT_S + CLAIM_MARGIN_S
    delivery.next_attempt_at = now + timedelta(seconds=lease)
    delivery.save(update_fields=["attempts", "next_attempt_at"])
    return Claim(
        delivery_id=delivery.pk,
        attempt=delivery.attempts,
        url=delivery.token.callback_url,
        secret=delivery.token.webhook_secret,
        event=delivery.event,
        body=delivery_body(delivery),
    )


@transaction.atomic
def _record(claim: Claim, result: AttemptResult) -> tuple[str, float | None]:
    """Write the attempt's outcome; the status, and the seconds until a retry (if any)."""
    delivery = WebhookDelivery.objects.select_for_update().get(pk=claim.delivery_id)
    if delivery.status != DeliveryStatus.PENDING or delivery.attempts != claim.attempt:
        return delivery.status, None  # the claim lapsed and another attempt owns the row
    now = timezone.now()
    delivery.last_status_code, delivery.last_error = result.status_code, result.error
    retry_in = None
    if result.ok:
        delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED, now
    elif result.refused:
        delivery.status = DeliveryStatus.FAILED
        logger.warning("webhook %s refused: %s", delivery.pk, result.error)
    elif _window_closes(delivery, now + timedelta(seconds=retry_delay_s(delivery.attempts))):
        delivery.status = DeliveryStatus.FAILED
        logger.warning("webhook %s given up after %d attempts", delivery.pk, delivery.attempts)
    else:
        retry_in = retry_delay_s(delivery.attempts)
        delivery.next_attempt_at = now + timedelta(seconds=retry_in)
    delivery.save()
    return delivery.status, retry_in


def _window_closes(delivery: WebhookDelivery, next_attempt: datetime) -> bool:
    return next_attempt > delivery.created_at + timedelta(
        seconds=settings.NETSHOP_WEBHOOK_RETRY_FOR_S
    )


def _give_up(delivery: WebhookDelivery, *, error: str) -> None:
    delivery.status, delivery.last_error = DeliveryStatus.FAILED, error
    delivery.save(update_fields=["status", "last_error"])


def deliveries_dispatch_due(*, limit: int = SWEEP_BATCH) -> list[uuid.UUID]:
    """Hand every due pending delivery to a worker (the sweep); returns their ids.

    A delivery whose task was lost (a worker killed, a broker restarted) or whose claim
    lapsed is due again; one whose task is still queued is sent once, whoever claims first.
    """
    due = list(
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.PENDING, next_attempt_at__lte=timezone.now()
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
    for delivery_id in due:
        delivery_dispatch(delivery_id)
    return due


def deliveries_retry_now(*, delivery_ids: list[uuid.UUID]) -> int:
    """An admin's "retry now": one more attempt at once, failed deliveries included (one
    that fails again past its window is given up again)."""
    retried = WebhookDelivery.objects.filter(pk__in=delivery_ids).exclude(
        status=DeliveryStatus.DELIVERED
    )
    ids = list(retried.values_list("pk", flat=True))
    retried.update(status=DeliveryStatus.PENDING, next_attempt_at=timezone.now())
    for delivery_id in ids:
        after_commit(functools.partial(delivery_dispatch, delivery_id))
    return len(ids)


def webhook_secret_rotate(*, token: ApiToken) -> str:
    """A new signing secret for ``token``, returned once; the old one stops signing at once."""
    token.webhook_secret = new_signing_secret()
    token.save(update_fields=["webhook_secret"])
    return token.webhook_secret
