"""Webhook fixtures: a real local receiver, a storefront token pointed at it, the attempts
handed to workers recorded instead of sent (tests make them in process), and a resolver that
knows only the names a test gives it (tests have no DNS)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from netshop.models import ApiToken
from netshop.webhooks.receivers import new_signing_secret
from tests.support.fake_dns import FakeDns
from tests.support.webhook_receiver import Received, WebhookReceiver


@pytest.fixture(autouse=True)
def dns(monkeypatch: pytest.MonkeyPatch) -> FakeDns:
    fake = FakeDns()
    monkeypatch.setattr("socket.getaddrinfo", fake.getaddrinfo)
    return fake


@pytest.fixture
def receiver(settings: Any) -> Iterator[WebhookReceiver]:
    """A receiver on 127.0.0.1: reachable only with private destinations allowed, as on a
    developer's machine (a test of the refusal turns the setting off again)."""
    settings.NETSHOP_WEBHOOK_ALLOW_PRIVATE = True
    server = WebhookReceiver()
    yield server
    server.close()


def storefront_token(url: str, name: str = "shop") -> tuple[ApiToken, str]:
    """A storefront token with webhooks to ``url``, and its bearer key."""
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        name=name,
        key_digest=ApiToken.digest(key),
        prefix=key[:8],
        callback_url=url,
        webhook_secret=new_signing_secret() if url else "",
    )
    return token, key


@pytest.fixture
def token(receiver: WebhookReceiver) -> ApiToken:
    return storefront_token(receiver.url)[0]


@dataclass(frozen=True)
class Handed:
    delivery_id: str
    countdown: float


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> list[Handed]:
    """The attempts given to workers (with their countdowns); nothing reaches the broker."""
    given: list[Handed] = []

    def record(delivery_id: object, *, countdown: float = 0.0) -> None:
        given.append(Handed(str(delivery_id), countdown))

    monkeypatch.setattr("netshop.webhooks.services.delivery_dispatch", record)
    return given


@pytest.fixture
def fast_webhooks(settings: Any) -> None:
    settings.NETSHOP_WEBHOOK_TIMEOUT_S = 0.5
    settings.NETSHOP_WEBHOOK_BACKOFF_S = 10
    settings.NETSHOP_WEBHOOK_BACKOFF_MAX_S = 40
    settings.NETSHOP_WEBHOOK_RETRY_FOR_S = 3600


def receiver_verifies(received: Received, secret: str) -> bool:
    """What a storefront's receiver does (the README's example), written independently of the
    product's signing module: HMAC-SHA256 over "{timestamp}.{body}" with the secret."""
    timestamp = received.header("NetShop-Webhook-Timestamp")
    signed = timestamp.encode() + b"." + received.body
    expected = "v1=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, received.header("NetShop-Webhook-Signature"))
