"""Sending to a real local receiver: signed, retried after 500s and timeouts with back-off,
given up after the retry window, never sent twice for one attempt; and, with private
destinations no longer allowed, nothing sent to it however its address is reached (a name
rebound to loopback, another spelling of 127.0.0.1), the connection made to the address checked.

Each attempt is made here as a worker would make it (``delivery_send``); the next attempt's
hand-off to a worker is recorded with its countdown instead of sent.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import httpcore
import pytest
from django.db import connection
from django.utils import timezone

from netshop.models import ApiToken, WebhookDelivery
from netshop.webhooks.models import DeliveryStatus, WebhookEvent
from netshop.webhooks.receivers import validate_callback_url
from netshop.webhooks.services import delivery_enqueue, delivery_send
from tests.netshop.webhooks.conftest import Handed, receiver_verifies, storefront_token
from tests.support.fake_dns import FakeDns
from tests.support.webhook_receiver import Slow, WebhookReceiver

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_webhooks")]

PUBLIC = "93.184.215.14"
TEXT = '返金をお願いします "}<b>ORD-4003</b>'


def enqueued(token: ApiToken) -> WebhookDelivery:
    delivery = delivery_enqueue(
        token_id=token.pk,
        event=WebhookEvent.REPLIED,
        data={"inquiry_id": "i-1", "message": {"text": TEXT}},
    )
    assert delivery is not None
    return delivery


def attempt_due(delivery: WebhookDelivery) -> str:
    """The next attempt, now (as if its back-off had passed)."""
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    return delivery_send(delivery_id=delivery.pk)


def test_a_delivery_is_signed_with_the_tokens_secret_and_marked_delivered(
    token: ApiToken, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    delivery = enqueued(token)

    status = delivery_send(delivery_id=delivery.pk)

    [request] = receiver.wait_for(1)
    row = WebhookDelivery.objects.get()
    assert status == "delivered"
    assert receiver_verifies(request, token.webhook_secret)
    assert request.header("NetShop-Webhook-Id") == str(delivery.pk)
    assert request.header("NetShop-Webhook-Event") == "conversation.replied"
    assert request.header("Content-Type") == "application/json"
    assert request.json["id"] == str(delivery.pk)
    assert request.json["data"]["message"]["text"] == TEXT
    assert (row.status, row.attempts, row.last_status_code, row.last_error) == (
        "delivered",
        1,
        200,
        "",
    )
    assert row.delivered_at is not None
    assert handed == [Handed(str(delivery.pk), 0.0)]  # only the first hand-off, no retry


def test_a_500_is_retried_after_the_back_off_with_the_same_delivery_id(
    token: ApiToken, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    receiver.script(500, 503)
    delivery = enqueued(token)

    statuses = [
        delivery_send(delivery_id=delivery.pk),
        attempt_due(delivery),
        attempt_due(delivery),
    ]

    requests = receiver.wait_for(3)
    row = WebhookDelivery.objects.get()
    assert statuses == ["pending", "pending", "delivered"]
    assert [r.answered for r in requests] == [500, 503, 200]
    assert {r.header("NetShop-Webhook-Id") for r in requests} == {str(delivery.pk)}
    assert {r.body for r in requests} == {requests[0].body}
    assert all(receiver_verifies(r, token.webhook_secret) for r in requests)
    assert [h.countdown for h in handed] == [0.0, 10.0, 20.0]
    assert (row.status, row.attempts, row.last_status_code) == ("delivered", 3, 200)


def test_a_failed_attempt_waits_for_its_back_off(
    token: ApiToken, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    receiver.script(500)
    delivery = enqueued(token)
    delivery_send(delivery_id=delivery.pk)

    early = delivery_send(delivery_id=delivery.pk)  # a redelivered task, before the back-off

    row = WebhookDelivery.objects.get()
    assert early == "not_due"
    assert len(receiver.requests) == 1
    assert (row.status, row.attempts, row.last_status_code, row.last_error) == (
        "pending",
        1,
        500,
        "HTTP 500",
    )
    assert timedelta(seconds=9) < row.next_attempt_at - timezone.now() <= timedelta(seconds=10)


def test_a_receiver_slower_than_the_timeout_is_retried(
    token: ApiToken, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    receiver.script(Slow(2))
    delivery = enqueued(token)

    first = delivery_send(delivery_id=delivery.pk)
    timed_out = WebhookDelivery.objects.get()
    second = attempt_due(delivery)

    assert first == "pending"
    assert (timed_out.last_status_code, timed_out.last_error) == (None, "timed out after 0.5 s")
    assert second == "delivered"
    assert [r.header("NetShop-Webhook-Id") for r in receiver.wait_for(2)] == [str(delivery.pk)] * 2


def test_a_redirect_is_not_followed_but_retried(
    token: ApiToken, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    receiver.script(302)
    delivery = enqueued(token)

    assert delivery_send(delivery_id=delivery.pk) == "pending"
    assert len(receiver.wait_for(1)) == 1
    assert WebhookDelivery.objects.get().last_error == "HTTP 302"


def test_the_delivery_is_given_up_once_the_retry_window_closes(
    token: ApiToken, receiver: WebhookReceiver, handed: list[Handed], settings: Any
) -> None:
    settings.NETSHOP_WEBHOOK_RETRY_FOR_S = 35  # room for the retries after 10 and 20 s only
    receiver.script(500, 500, 500, 500)
    delivery = enqueued(token)

    statuses = [
        delivery_send(delivery_id=delivery.pk),
        attempt_due(delivery),
        attempt_due(delivery),
    ]
    after = attempt_due(delivery)

    row = WebhookDelivery.objects.get()
    assert statuses == ["pending", "pending", "failed"]
    assert after == "not_due"
    assert len(receiver.requests) == 3
    assert (row.status, row.attempts, row.last_error) == ("failed", 3, "HTTP 500")
    assert [h.countdown for h in handed] == [0.0, 10.0, 20.0]  # no retry after giving up


def test_a_revoked_token_gets_nothing_more(
    token: ApiToken, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    delivery = enqueued(token)
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())

    assert delivery_send(delivery_id=delivery.pk) == "not_due"
    assert receiver.requests == []
    assert WebhookDelivery.objects.get().status == DeliveryStatus.FAILED


def test_two_workers_with_the_same_attempt_send_it_once(
    token: ApiToken, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    receiver.script(Slow(0.3))  # holds the first attempt open while the other tries
    delivery = enqueued(token)
    results: list[str] = []

    def worker() -> None:
        try:
            results.append(delivery_send(delivery_id=delivery.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(results) == ["delivered", "not_due"]
    assert len(receiver.requests) == 1


# --- only to public addresses ---------------------------------------------------------------


def test_a_name_rebound_to_loopback_after_it_was_saved_is_not_sent_to(
    receiver: WebhookReceiver, handed: list[Handed], dns: FakeDns, settings: Any
) -> None:
    settings.NETSHOP_WEBHOOK_ALLOW_PRIVATE = False
    dns.answer("hooks.shop.test", PUBLIC)
    url = receiver.url.replace("127.0.0.1", "hooks.shop.test")
    validate_callback_url(url)  # public when saved...
    token, _ = storefront_token(url)
    dns.answer("hooks.shop.test", "127.0.0.1")  # ...loopback when sent
    delivery = enqueued(token)

    status = delivery_send(delivery_id=delivery.pk)

    row = WebhookDelivery.objects.get()
    assert status == "failed"
    assert receiver.requests == []
    assert (row.status, row.attempts, row.last_status_code, row.last_error) == (
        "failed",
        1,
        None,
        "not sent: hooks.shop.test resolves to 127.0.0.1, which is not a public address",
    )
    assert handed == [Handed(str(delivery.pk), 0.0)]  # given up at once: no retry


@pytest.mark.parametrize(
    ("host", "error"),
    [
        ("2130706433", "2130706433 resolves to 127.0.0.1"),
        ("0x7f.1", "0x7f.1 resolves to 127.0.0.1"),
        ("0177.0.0.1", "Invalid IPv4 address: '0177.0.0.1'"),  # httpx will not read it
        ("127.1", "127.1 resolves to 127.0.0.1"),
        ("127.0.0.1", "127.0.0.1 is not a public address"),
        ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1 resolves to ::ffff:7f00:1"),
    ],
)
def test_a_callback_url_saved_before_the_check_to_loopback_is_not_sent_to(
    host: str,
    error: str,
    receiver: WebhookReceiver,
    handed: list[Handed],
    settings: Any,
) -> None:
    settings.NETSHOP_WEBHOOK_ALLOW_PRIVATE = False
    token, _ = storefront_token(receiver.url.replace("127.0.0.1", host))  # not validated
    delivery = enqueued(token)

    status = delivery_send(delivery_id=delivery.pk)

    row = WebhookDelivery.objects.get()
    assert status == "failed"
    assert receiver.requests == []
    assert row.last_error.startswith(f"not sent: {error}")
    assert handed == [Handed(str(delivery.pk), 0.0)]


def test_an_attempt_connects_to_the_address_it_checked(
    receiver: WebhookReceiver,
    handed: list[Handed],
    dns: FakeDns,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.NETSHOP_WEBHOOK_ALLOW_PRIVATE = False
    connected: list[str] = []

    def connect_tcp(self: object, host: str, port: int, *args: object, **kwargs: object) -> None:
        connected.append(host)  # no network in tests: the connection is refused after noting it
        raise httpcore.ConnectError("[Errno 111] Connection refused")

    monkeypatch.setattr(httpcore.SyncBackend, "connect_tcp", connect_tcp)
    dns.rebind("hooks.shop.test", first=PUBLIC, later="127.0.0.1")  # rebound after one answer
    token, _ = storefront_token(receiver.url.replace("127.0.0.1", "hooks.shop.test"))
    delivery = enqueued(token)

    status = delivery_send(delivery_id=delivery.pk)

    assert status == "pending"  # a refused connection is retried, as ever
    assert connected == [PUBLIC]
    assert dns.calls == ["hooks.shop.test"]
    assert receiver.requests == []
