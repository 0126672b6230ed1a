"""The outbox: a delivery is written with the change it reports, sent only after commit.

Given a storefront token with a callback URL, when a delivery is enqueued in a transaction,
then the row exists and a worker is handed it only once the transaction commits; a rollback
leaves neither.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import transaction

from netshop.models import ApiToken, WebhookDelivery
from netshop.webhooks.models import DeliveryStatus, WebhookEvent
from netshop.webhooks.services import (
    delivery_body,
    delivery_enqueue,
    retry_delay_s,
    subject_status_changed,
)
from tests.netshop.webhooks.conftest import Handed

pytestmark = pytest.mark.django_db(transaction=True)


def enqueue(token: ApiToken, **extra: Any) -> WebhookDelivery | None:
    return delivery_enqueue(
        token_id=token.pk, event=WebhookEvent.REPLIED, data={"inquiry_id": "i-1"}, **extra
    )


def test_a_delivery_is_handed_to_a_worker_only_after_commit(
    token: ApiToken, handed: list[Handed]
) -> None:
    with transaction.atomic():
        delivery = enqueue(token)
        assert delivery is not None
        assert handed == []

    assert handed == [Handed(str(delivery.pk), 0.0)]
    row = WebhookDelivery.objects.get()
    assert (row.status, row.attempts, row.event) == (
        DeliveryStatus.PENDING,
        0,
        "conversation.replied",
    )


def test_a_rolled_back_change_leaves_no_delivery_and_sends_nothing(
    token: ApiToken, handed: list[Handed]
) -> None:
    def failing_change() -> None:
        with transaction.atomic():
            enqueue(token)
            raise RuntimeError("the state change failed")

    with pytest.raises(RuntimeError, match="state change failed"):
        failing_change()

    assert WebhookDelivery.objects.count() == 0
    assert handed == []


def test_the_same_occurrence_recorded_twice_is_one_delivery(
    token: ApiToken, handed: list[Handed]
) -> None:
    first = enqueue(token, dedupe_key="message:m-1")
    again = enqueue(token, dedupe_key="message:m-1")

    assert first is not None
    assert again is None
    assert WebhookDelivery.objects.count() == 1
    assert len(handed) == 1


def test_the_body_names_the_delivery_and_carries_the_data(
    token: ApiToken, handed: list[Handed]
) -> None:
    delivery = enqueue(token)
    assert delivery is not None

    assert delivery_body(delivery) == {
        "id": str(delivery.pk),
        "event": "conversation.replied",
        "created_at": delivery.created_at.isoformat(),
        "data": {"inquiry_id": "i-1"},
    }


def test_the_back_off_doubles_from_the_first_delay_up_to_the_cap(settings: Any) -> None:
    settings.NETSHOP_WEBHOOK_BACKOFF_S = 10
    settings.NETSHOP_WEBHOOK_BACKOFF_MAX_S = 3600

    delays = [retry_delay_s(attempts) for attempts in range(1, 11)]

    assert delays == [10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600]


def test_a_status_is_news_only_when_it_changes(token: ApiToken) -> None:
    subject = uuid.uuid4()

    seen = [
        subject_status_changed(token_id=token.pk, subject_id=subject, status=status)
        for status in (
            "running",
            "awaiting_approval",
            "awaiting_approval",
            "running",
            "awaiting_approval",
        )
    ]

    assert seen == [True, True, False, True, True]
