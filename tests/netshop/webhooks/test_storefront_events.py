"""End to end: what a storefront's receiver hears of the conversations it submitted.

The storefront submits over the API; the run is advanced here as a worker would; every
delivery the run wrote is then sent to the real local receiver. The mapping from what
happened to webhook events is ``agents.support.conversations.storefront_events``.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from agents.models import Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.services import (
    conversation_hand_back,
    conversation_take_over,
    customer_message_post,
    operator_message_send,
)
from agents.support.conversations.storefront_intake import storefront_inquiry_create
from agents.team.runs.driver import inquiry_advance
from netshop.models import ApiToken, WebhookDelivery
from netshop.roles import Role
from netshop.webhooks.services import delivery_send
from tests.netshop.webhooks.conftest import Handed, receiver_verifies, storefront_token
from tests.operators.api_helpers import bearer, signed_in, staff_user
from tests.support.scenarios import SupportShop, support_shop
from tests.support.webhook_receiver import WebhookReceiver

pytestmark = pytest.mark.django_db(transaction=True)

REFUND_TEXT = "届いた商品（{delivered}）が壊れていました。返金をお願いします。"


@pytest.fixture
def runs_handed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Runs given to workers; the test advances them itself."""
    given: list[str] = []
    monkeypatch.setattr("agents.support.run_requests._submit", lambda task, pk: given.append(pk))
    return given


@pytest.fixture
def shop(settings: Any) -> SupportShop:
    """Hanako's and Emily's orders, and the operator who answers them."""
    settings.NETSHOP_RETRY_BACKOFF_S = 0
    staff_user("operator", Role.OPERATOR)
    return support_shop()


def events_of(inquiry_id: str) -> list[str]:
    rows = WebhookDelivery.objects.filter(subject_id=inquiry_id).order_by("created_at")
    return [row.event for row in rows]


def send_all(handed: list[Handed]) -> None:
    for delivery in handed:
        delivery_send(delivery_id=delivery.delivery_id)


@pytest.mark.usefixtures("shop", "runs_handed")
def test_a_refund_submitted_over_the_api_is_heard_waiting_and_then_resolved(
    shop: SupportShop, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    token, key = storefront_token(receiver.url)
    storefront = Client(headers=bearer(key))
    hanako = shop.hanako
    body = {"customer_id": hanako.customer.code, "text": REFUND_TEXT.format(**hanako.numbers())}
    inquiry_id = storefront.post("/api/v1/inquiries", json.dumps(body), "application/json").json()[
        "id"
    ]
    assert Inquiry.objects.get(pk=inquiry_id).storefront_token == token

    inquiry_advance(inquiry_id=inquiry_id)
    waiting = events_of(inquiry_id)
    operator = signed_in(User.objects.get(username="operator"))
    [escalation] = operator.get("/api/v1/escalations").json()["items"]
    operator.post(
        f"/api/v1/escalations/{escalation['id']}/decide",
        json.dumps({"decision": "approve"}),
        "application/json",
    )
    inquiry_advance(inquiry_id=inquiry_id)
    inquiry_advance(inquiry_id=inquiry_id)  # a redelivered task announces nothing twice
    send_all(handed)

    requests = receiver.wait_for(len(handed))
    assert waiting == ["conversation.awaiting_approval", "conversation.replied"]
    assert events_of(inquiry_id) == [*waiting, "conversation.resolved", "conversation.replied"]
    assert all(receiver_verifies(r, token.webhook_secret) for r in requests)
    by_event = {r.json["event"]: r.json["data"] for r in requests}
    assert {d["inquiry_id"] for d in by_event.values()} == {inquiry_id}
    assert {d["customer_id"] for d in by_event.values()} == {hanako.customer.code}
    assert by_event["conversation.awaiting_approval"]["status"] == "awaiting_approval"
    assert by_event["conversation.resolved"]["status"] == "resolved"
    assert "12,800" in by_event["conversation.resolved"]["reply"]
    replies = [r.json["data"] for r in requests if r.json["event"] == "conversation.replied"]
    assert [r["message"]["author_kind"] for r in replies] == ["ai", "ai"]
    assert [r["status"] for r in replies] == ["awaiting_approval", "resolved"]
    assert "12,800" in replies[-1]["message"]["text"]
    assert WebhookDelivery.objects.filter(status="delivered").count() == len(handed) == 4


@pytest.mark.usefixtures("shop", "runs_handed")
def test_a_person_taking_over_is_heard_once_and_each_of_their_messages_as_a_reply(
    shop: SupportShop, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    token, _ = storefront_token(receiver.url)
    inquiry = storefront_inquiry_create(
        token=token, customer=shop.emily.customer, text="I need a person."
    )
    operator = User.objects.get(username="operator")

    conversation_take_over(inquiry_id=inquiry.pk, user=operator)
    operator_message_send(inquiry_id=inquiry.pk, user=operator, text="Hello, Emily here.")
    operator_message_send(inquiry_id=inquiry.pk, user=operator, text="Your order ships today.")
    conversation_hand_back(inquiry_id=inquiry.pk, user=operator)
    conversation_take_over(inquiry_id=inquiry.pk, user=operator)

    assert events_of(str(inquiry.pk)) == [
        "conversation.handed_to_person",
        "conversation.replied",
        "conversation.replied",
        "conversation.handed_to_person",
    ]
    replies = WebhookDelivery.objects.filter(event="conversation.replied").order_by("created_at")
    assert [r.payload["message"]["text"] for r in replies] == [
        "Hello, Emily here.",
        "Your order ships today.",
    ]
    assert all("author" not in r.payload["message"] for r in replies)  # staff's to know


@pytest.mark.usefixtures("shop", "runs_handed")
def test_conversations_not_started_by_a_listening_storefront_send_nothing(
    shop: SupportShop, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    silent, _ = storefront_token("", name="no-webhooks")
    revoked, _ = storefront_token(receiver.url, name="revoked")
    ApiToken.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    customer = shop.emily.customer
    operator = User.objects.get(username="operator")
    inquiries = [
        inquiry_create(customer=customer, text="From the help page."),
        storefront_inquiry_create(token=silent, customer=customer, text="No callback."),
        storefront_inquiry_create(token=revoked, customer=customer, text="Revoked token."),
    ]

    for inquiry in inquiries:
        conversation_take_over(inquiry_id=inquiry.pk, user=operator)
        operator_message_send(inquiry_id=inquiry.pk, user=operator, text="Hello.")

    assert WebhookDelivery.objects.count() == 0
    assert handed == []


@pytest.mark.usefixtures("shop", "runs_handed")
def test_the_same_idempotency_key_from_two_storefronts_makes_one_inquiry_each(
    shop: SupportShop,
    receiver: WebhookReceiver,
) -> None:
    first, _ = storefront_token(receiver.url, name="first")
    second, _ = storefront_token(receiver.url, name="second")
    customer = shop.emily.customer

    made = [
        storefront_inquiry_create(token=t, customer=customer, text="Hi", idempotency_key="k-1")
        for t in (first, second)
    ]

    assert made[0].pk != made[1].pk
    assert [Inquiry.objects.get(pk=i.pk).storefront_token for i in made] == [first, second]


@pytest.mark.usefixtures("shop", "runs_handed")
def test_a_message_that_starts_a_new_conversation_keeps_the_storefronts_webhooks(
    shop: SupportShop, receiver: WebhookReceiver, handed: list[Handed]
) -> None:
    token, _ = storefront_token(receiver.url)
    customer = shop.emily.customer
    closed = storefront_inquiry_create(token=token, customer=customer, text="Where is it?")
    long_ago = timezone.now() - timedelta(days=30)
    Inquiry.objects.filter(pk=closed.pk).update(status="resolved", resolved_at=long_ago)

    message = customer_message_post(customer=customer, inquiry_id=closed.pk, text="Again?")
    conversation_take_over(
        inquiry_id=message.inquiry_id, user=User.objects.get(username="operator")
    )

    assert message.inquiry_id != closed.pk
    assert Inquiry.objects.get(pk=message.inquiry_id).storefront_token == token
    assert events_of(str(message.inquiry_id)) == ["conversation.handed_to_person"]
