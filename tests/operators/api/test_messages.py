"""The storefront's conversation API: the customer's messages and the thread it shows.

Given a customer's conversation, when the storefront posts their replies (good, repeated,
broken, to a long-closed conversation, to someone else's) and reads the thread, then good
ones are stored once and announced, broken ones store nothing, and notes never show.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from agents.models import Inquiry, InquiryStatus, Message
from agents.support.conversations.services import (
    conversation_take_over,
    note_add,
    operator_message_send,
)
from netshop.models import Customer
from netshop.roles import Role
from operators.api.schemas import IDEMPOTENCY_DESCRIPTION
from tests.factories import CustomerFactory
from tests.operators.api_helpers import (
    bearer,
    signed_in,
    staff_key,
    staff_user,
    storefront_key,
    submitted_by,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def key() -> str:
    return storefront_key()


@pytest.fixture
def customer() -> Customer:
    return CustomerFactory.create(code="C0101", language="en")


@pytest.fixture
def inquiry(customer: Customer, key: str) -> Inquiry:
    """The customer's conversation, submitted by the storefront with ``key``."""
    return submitted_by(key, customer, "Where is my parcel?")


def url(inquiry_id: object) -> str:
    return f"/api/v1/inquiries/{inquiry_id}/messages"


def post(client: Client, key: str, inquiry_id: object, body: Any, **headers: str) -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(
        url(inquiry_id), data, content_type="application/json", headers=bearer(key) | headers
    )


def texts(inquiry: Inquiry) -> list[tuple[str, str]]:
    return list(inquiry.messages.order_by("created_at").values_list("author_kind", "text"))


def closed(inquiry: Inquiry, *, days_ago: float) -> Inquiry:
    at = timezone.now() - timedelta(days=days_ago)
    Inquiry.objects.filter(pk=inquiry.pk).update(status=InquiryStatus.RESOLVED, resolved_at=at)
    inquiry.refresh_from_db()
    return inquiry


# --- Posting -----------------------------------------------------------------------------


def test_a_reply_is_stored_in_the_conversation_and_its_run_is_queued(
    client: Client, key: str, inquiry: Inquiry, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as after_commit:
        response = post(client, key, inquiry.pk, {"customer_id": "C0101", "text": "ORD-4002"})

    message = inquiry.messages.get(text="ORD-4002")
    assert response.status_code == 202
    assert response.json() == {
        "message": {
            "id": str(message.pk),
            "inquiry_id": str(inquiry.pk),
            "author_kind": "customer",
            "author": None,
            "text": "ORD-4002",
            "channel": "web",
            "language": "en",  # shows no language: the customer's
            "turn": None,
            "created_at": message.created_at.isoformat(),
        },
        "inquiry_id": str(inquiry.pk),
        "new_conversation": False,
    }
    assert response["Location"] == url(inquiry.pk)
    assert texts(inquiry) == [("customer", "Where is my parcel?"), ("customer", "ORD-4002")]
    assert len(after_commit) == 2  # the live event, and the run handed to a worker


def test_a_reply_within_the_reopen_window_reopens_the_conversation(
    client: Client, key: str, inquiry: Inquiry
) -> None:
    closed(inquiry, days_ago=settings.NETSHOP_REOPEN_DAYS - 1)

    response = post(client, key, inquiry.pk, {"customer_id": "C0101", "text": "One more thing"})

    inquiry.refresh_from_db()
    assert (response.status_code, response.json()["new_conversation"]) == (202, False)
    assert (inquiry.status, inquiry.resolved_at) == (InquiryStatus.QUEUED, None)
    assert texts(inquiry)[-1] == ("customer", "One more thing")


def test_a_reply_to_a_long_closed_conversation_starts_a_new_one_and_says_so(
    client: Client, key: str, inquiry: Inquiry
) -> None:
    closed(inquiry, days_ago=settings.NETSHOP_REOPEN_DAYS + 1)

    response = post(client, key, inquiry.pk, {"customer_id": "C0101", "text": "Again broken"})

    started = Inquiry.objects.exclude(pk=inquiry.pk).get()
    body = response.json()
    assert response.status_code == 202
    assert (body["inquiry_id"], body["new_conversation"]) == (str(started.pk), True)
    assert body["message"]["inquiry_id"] == str(started.pk)
    assert response["Location"] == url(started.pk)
    assert texts(started) == [("customer", "Again broken")]
    inquiry.refresh_from_db()
    assert inquiry.status == InquiryStatus.RESOLVED  # the old one stays closed, unchanged
    assert texts(inquiry) == [("customer", "Where is my parcel?")]


def test_a_reply_to_a_conversation_a_person_owns_waits_for_them(
    client: Client, key: str, inquiry: Inquiry, django_capture_on_commit_callbacks: Any
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=staff_user("op", Role.OPERATOR))

    with django_capture_on_commit_callbacks() as after_commit:
        response = post(client, key, inquiry.pk, {"customer_id": "C0101", "text": "Hello?"})

    assert response.status_code == 202
    assert texts(inquiry)[-1] == ("customer", "Hello?")
    assert len(after_commit) == 1  # the live event only: no run while a person owns it


def test_the_same_idempotency_key_returns_the_same_message(
    client: Client, key: str, inquiry: Inquiry, django_capture_on_commit_callbacks: Any
) -> None:
    body = {"customer_id": "C0101", "text": "ORD-4002"}
    first = post(client, key, inquiry.pk, body, **{"Idempotency-Key": "m-1"})

    with django_capture_on_commit_callbacks() as after_commit:
        again = post(client, key, inquiry.pk, body, **{"Idempotency-Key": "m-1"})

    assert (first.status_code, again.status_code) == (202, 202)
    assert again.json() == first.json()
    assert inquiry.messages.filter(text="ORD-4002").count() == 1
    assert inquiry.messages.get(text="ORD-4002").idempotency_key == "m-1"
    assert after_commit == []  # nothing announced, no second run


def test_an_idempotency_key_reused_for_another_text_is_a_conflict(
    client: Client, key: str, inquiry: Inquiry
) -> None:
    post(client, key, inquiry.pk, {"customer_id": "C0101", "text": "a"}, **{"Idempotency-Key": "k"})

    reused = post(
        client, key, inquiry.pk, {"customer_id": "C0101", "text": "b"}, **{"Idempotency-Key": "k"}
    )

    assert reused.status_code == 409
    assert reused.json()["code"] == "message_key_reused"
    assert texts(inquiry) == [("customer", "Where is my parcel?"), ("customer", "a")]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"customer_id": "C0101", "text": "   "}, "text: Value error, must not be blank"),
        ({"customer_id": "C0101", "text": ""}, "text: String should have at least 1 character"),
        (
            {"customer_id": "C0101", "text": "あ" * 4001},
            "text: String should have at most 4000 characters",
        ),
        ({"customer_id": "C0101"}, "text: Field required"),
    ],
    ids=["blank", "empty", "too-long", "missing"],
)
def test_a_broken_message_is_422_and_stores_nothing(
    client: Client, key: str, inquiry: Inquiry, body: dict[str, str], message: str
) -> None:
    response = post(client, key, inquiry.pk, body)

    assert response.status_code == 422
    assert (response.json()["code"], response.json()["message"]) == ("invalid_request", message)
    assert texts(inquiry) == [("customer", "Where is my parcel?")]


def test_an_oversized_body_is_413_and_stores_nothing(
    client: Client, key: str, inquiry: Inquiry
) -> None:
    body = json.dumps({"customer_id": "C0101", "text": "あ" * 1_000_000})

    response = post(client, key, inquiry.pk, body)

    assert response.status_code == 413
    assert response.json()["code"] == "payload_too_large"
    assert inquiry.messages.count() == 1


@pytest.mark.parametrize(
    "target", ["other", "missing", "malformed"], ids=["others", "no-such", "not-an-id"]
)
def test_another_customers_conversation_is_not_found_and_unchanged(
    client: Client, key: str, inquiry: Inquiry, target: str
) -> None:
    others = submitted_by(key, CustomerFactory.create(code="C0202"), "mine")
    inquiry_id = {
        "other": str(others.pk),
        "missing": "00000000-0000-0000-0000-000000000000",
        "malformed": "nope",
    }[target]

    response = post(client, key, inquiry_id, {"customer_id": "C0101", "text": "let me in"})

    assert response.status_code == 404
    assert response.json() == {
        "code": "inquiry_not_found",
        "message": f"No inquiry with id {inquiry_id}.",
    }
    assert not Message.objects.filter(text="let me in").exists()


@pytest.mark.parametrize("caller", ["anonymous", "staff_token", "operator_session"])
def test_only_a_storefront_posts_a_customers_message(
    client: Client, inquiry: Inquiry, caller: str
) -> None:
    operator = staff_user("op", Role.OPERATOR)

    clients = {
        "anonymous": (client, {}),
        "staff_token": (client, bearer(staff_key(operator))),
        "operator_session": (signed_in(operator), {}),
    }
    who, headers = clients[caller]

    response = who.post(
        url(inquiry.pk),
        json.dumps({"customer_id": "C0101", "text": "hi"}),
        content_type="application/json",
        headers=headers,
    )

    assert response.status_code == 401
    assert texts(inquiry) == [("customer", "Where is my parcel?")]


# --- Reading -----------------------------------------------------------------------------


def test_the_thread_shows_customer_ai_and_operator_messages_never_notes(
    client: Client, key: str, inquiry: Inquiry
) -> None:
    operator = staff_user("op", Role.OPERATOR)
    conversation_take_over(inquiry_id=inquiry.pk, user=operator)
    note_add(inquiry_id=inquiry.pk, user=operator, text="internal: VIP")

    operator_message_send(inquiry_id=inquiry.pk, user=operator, text="Checking now.")

    response = client.get(url(inquiry.pk), {"customer_id": "C0101"}, headers=bearer(key))

    body = response.json()
    assert response.status_code == 200
    assert [(m["author_kind"], m["author"], m["text"]) for m in body["messages"]] == [
        ("customer", None, "Where is my parcel?"),
        ("operator", "op", "Checking now."),
    ]
    assert body["last_id"] == body["messages"][-1]["id"]
    detail = client.get(f"/api/v1/inquiries/{inquiry.pk}", headers=bearer(key)).json()
    assert [m["text"] for m in detail["messages"]] == ["Where is my parcel?", "Checking now."]


def test_polling_after_a_message_returns_only_newer_ones(
    client: Client, key: str, inquiry: Inquiry
) -> None:
    first = client.get(url(inquiry.pk), {"customer_id": "C0101"}, headers=bearer(key)).json()
    post(client, key, inquiry.pk, {"customer_id": "C0101", "text": "second"})

    newer = client.get(
        url(inquiry.pk), {"customer_id": "C0101", "after": first["last_id"]}, headers=bearer(key)
    ).json()
    none_yet = client.get(
        url(inquiry.pk), {"customer_id": "C0101", "after": newer["last_id"]}, headers=bearer(key)
    ).json()

    assert [m["text"] for m in newer["messages"]] == ["second"]
    assert (none_yet["messages"], none_yet["last_id"]) == ([], None)


def test_the_thread_is_read_in_one_query_after_authentication(
    client: Client, key: str, inquiry: Inquiry, django_assert_num_queries: Any
) -> None:
    for n in range(5):
        post(client, key, inquiry.pk, {"customer_id": "C0101", "text": f"message {n}"})

    # the token, the conversation with its customer, and the thread (authors joined)
    with django_assert_num_queries(3):
        response = client.get(url(inquiry.pk), {"customer_id": "C0101"}, headers=bearer(key))

    assert len(response.json()["messages"]) == 6


def test_a_storefront_reads_only_the_named_customers_conversations(
    client: Client, key: str, inquiry: Inquiry
) -> None:
    CustomerFactory.create(code="C0202")

    others = client.get(url(inquiry.pk), {"customer_id": "C0202"}, headers=bearer(key))
    unnamed = client.get(url(inquiry.pk), headers=bearer(key))

    assert (others.status_code, others.json()["code"]) == (404, "inquiry_not_found")
    assert (unnamed.status_code, unnamed.json()) == (
        422,
        {"code": "invalid_request", "message": "customer_id: a storefront must name the customer"},
    )


def test_an_operator_reads_the_customers_view_and_a_customer_login_cannot(
    inquiry: Inquiry,
) -> None:
    operator = staff_user("op", Role.OPERATOR)
    note_add(inquiry_id=inquiry.pk, user=operator, text="internal")

    as_operator = signed_in(operator).get(url(inquiry.pk))
    as_customer = signed_in(staff_user("shopper", None)).get(url(inquiry.pk))

    assert [m["text"] for m in as_operator.json()["messages"]] == ["Where is my parcel?"]
    assert as_customer.status_code == 403


def test_the_message_endpoints_are_documented(client: Client) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    post_op = schema["paths"]["/api/v1/inquiries/{inquiry_id}/messages"]["post"]
    get_op = schema["paths"]["/api/v1/inquiries/{inquiry_id}/messages"]["get"]

    header = next(p for p in post_op["parameters"] if p["in"] == "header")
    assert (header["name"], header["required"]) == ("Idempotency-Key", False)
    assert header["description"] == IDEMPOTENCY_DESCRIPTION
    assert set(post_op["responses"]) == {
        "202",
        "400",
        "401",
        "404",
        "409",
        "413",
        "415",
        "422",
        "429",
    }
    assert post_op["summary"] == "Post the customer's message to a conversation (storefront)"
    assert "new_conversation" in post_op["description"]
    assert set(get_op["responses"]) == {"200", "401", "403", "404", "422"}
    assert {p["name"] for p in get_op["parameters"]} == {"inquiry_id", "customer_id", "after"}
    accepted = schema["components"]["schemas"]["MessageAccepted"]
    assert set(accepted["required"]) == {"message", "inquiry_id", "new_conversation"}
    author = schema["components"]["schemas"]["MessageOut"]["properties"]["author_kind"]
    assert author["enum"] == ["customer", "ai", "operator", "note"]
