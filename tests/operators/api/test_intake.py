"""The storefront's API: submitting inquiries, following them, reading the agent cards.

Given a storefront token and a customer, when the storefront posts inquiries (good, repeated
and broken ones), then good ones are accepted once and broken ones change nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from agents.contract.cards import cards_document
from agents.models import Inquiry
from agents.support.conversations.intake import inquiry_create
from netshop.errors import DomainError
from netshop.models import ApiToken, Customer
from netshop.roles import Role
from tests.factories import CustomerFactory
from tests.operators.api_helpers import (
    bearer,
    inquiry_for,
    signed_in,
    staff_user,
    storefront_key,
    submitted_by,
)

pytestmark = pytest.mark.django_db

URL = "/api/v1/inquiries"


@pytest.fixture
def key() -> str:
    return storefront_key()


@pytest.fixture
def customer() -> Customer:
    return CustomerFactory.create(code="C0101")


def post(client: Client, key: str, body: Any) -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(URL, data, content_type="application/json", headers=bearer(key))


def test_an_inquiry_is_accepted_and_its_run_is_queued(
    client: Client, key: str, customer: Customer, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as queued:
        response = post(client, key, {"customer_id": "C0101", "text": "届いていません"})

    inquiry = Inquiry.objects.get()
    assert response.status_code == 202
    assert response.json() == {"id": str(inquiry.pk), "status": "queued"}
    assert response["Location"] == f"/api/v1/inquiries/{inquiry.pk}"
    assert (inquiry.customer, inquiry.text, inquiry.channel) == (customer, "届いていません", "web")
    assert inquiry.idempotency_key is None
    assert len(queued) == 2  # the opening message's live event, and the run for a worker


def test_the_same_idempotency_key_returns_the_same_inquiry(
    client: Client, key: str, customer: Customer, django_capture_on_commit_callbacks: Any
) -> None:
    body = {"customer_id": "C0101", "text": "返金?", "channel": "email", "idempotency_key": "k-1"}
    first = post(client, key, body)

    with django_capture_on_commit_callbacks() as queued:
        again = post(client, key, body)

    assert (first.status_code, again.status_code) == (202, 202)
    assert again.json() == first.json()
    inquiry = Inquiry.objects.get()
    assert (inquiry.text, inquiry.channel, inquiry.idempotency_key) == ("返金?", "email", "k-1")
    assert queued == []  # no second run


@pytest.mark.parametrize(
    "change", [{"text": "a retry with other words"}, {"channel": "chat"}], ids=["text", "channel"]
)
def test_an_idempotency_key_reused_for_another_body_is_a_conflict(
    client: Client,
    key: str,
    customer: Customer,
    change: dict[str, str],
    django_capture_on_commit_callbacks: Any,
) -> None:
    body = {"customer_id": "C0101", "text": "返金?", "channel": "email", "idempotency_key": "k-1"}
    first = post(client, key, body)

    with django_capture_on_commit_callbacks() as queued:
        reused = post(client, key, {**body, **change})

    assert reused.status_code == 409
    assert reused.json() == {
        "code": "idempotency_key_reused",
        "message": f"Idempotency key 'k-1' was already used for another inquiry "
        f"({first.json()['id']}); send a new key for a new inquiry.",
    }
    inquiry = Inquiry.objects.get()
    assert (inquiry.text, inquiry.channel) == ("返金?", "email")
    assert queued == []


def test_an_idempotency_key_binds_only_its_own_customer(
    client: Client, key: str, customer: Customer
) -> None:
    CustomerFactory.create(code="C0102")
    first = post(client, key, {"customer_id": "C0101", "text": "a", "idempotency_key": "k"})
    other = post(client, key, {"customer_id": "C0102", "text": "b", "idempotency_key": "k"})

    assert first.json()["id"] != other.json()["id"]
    assert Inquiry.objects.count() == 2


def test_the_longest_allowed_text_is_accepted(client: Client, key: str, customer: Customer) -> None:
    response = post(client, key, {"customer_id": "C0101", "text": "あ" * 4000})

    assert response.status_code == 202
    assert len(Inquiry.objects.get().text) == 4000


def test_a_text_with_a_zero_width_character_among_words_is_kept_as_written(
    client: Client, key: str, customer: Customer
) -> None:
    response = post(client, key, {"customer_id": "C0101", "text": "届いて\u200bいません"})

    assert response.status_code == 202
    assert Inquiry.objects.get().text == "届いて\u200bいません"


GOOD = {"customer_id": "C0101", "text": "届いていません"}


@pytest.mark.parametrize(
    ("body", "status", "code", "message_part"),
    [
        ({"customer_id": "C0101"}, 422, "invalid_request", "text: Field required"),
        ({**GOOD, "text": ""}, 422, "invalid_request", "text: String should have at least 1"),
        (
            {**GOOD, "text": " \n\t "},
            422,
            "invalid_request",
            "text: Value error, must not be blank",
        ),
        (
            {**GOOD, "text": "\u200b\u200c\u200d\u2060\ufeff \u3164"},
            422,
            "invalid_request",
            "text: Value error, must not be blank",
        ),
        ({**GOOD, "text": "x" * 4001}, 422, "invalid_request", "text: String should have at most"),
        ({**GOOD, "text": 123}, 422, "invalid_request", "text: Input should be a valid string"),
        ({**GOOD, "text": "a\x00b"}, 422, "invalid_request", "text: Value error, must not contain"),
        ({**GOOD, "customer_id": 101}, 422, "invalid_request", "customer_id: Input should be"),
        ({"text": "hi"}, 422, "invalid_request", "customer_id: Field required"),
        ({**GOOD, "channel": "Web Site!"}, 422, "invalid_request", "channel: String should match"),
        ({**GOOD, "channel": None}, 422, "invalid_request", "channel: Input should be"),
        (
            {**GOOD, "idempotency_key": "k" * 101},
            422,
            "invalid_request",
            "idempotency_key: String should have at most 100",
        ),
        ([GOOD], 422, "invalid_request", "customer_id: Field required"),
        ("", 422, "invalid_request", "body: Field required"),
        ('{"customer_id": "C0101", "text": ', 400, "invalid_json", "not valid JSON"),
        ({**GOOD, "customer_id": "C9999"}, 404, "unknown_customer", "C9999"),
    ],
    ids=[
        "missing-text",
        "empty-text",
        "blank-text",
        "zero-width-text",
        "too-long",
        "text-not-string",
        "nul-in-text",
        "customer-not-string",
        "missing-customer",
        "bad-channel",
        "null-channel",
        "long-key",
        "list-body",
        "empty-body",
        "malformed-json",
        "unknown-customer",
    ],
)
def test_a_bad_payload_is_refused_with_a_message_and_creates_nothing(
    client: Client,
    key: str,
    customer: Customer,
    body: Any,
    status: int,
    code: str,
    message_part: str,
) -> None:
    response = post(client, key, body)

    assert response.status_code == status
    assert response.json()["code"] == code
    assert message_part in response.json()["message"]
    assert Inquiry.objects.count() == 0


# --- Who may call what ----------------------------------------------------------------------


def test_intake_needs_a_live_storefront_token(client: Client, customer: Customer) -> None:
    revoked = storefront_key("old", revoked=True)
    operator = signed_in(staff_user("op1", Role.OPERATOR))
    body = json.dumps(GOOD)

    anonymous = client.post(URL, body, content_type="application/json")
    with_revoked = post(client, revoked, GOOD)
    with_junk = post(client, "not-a-key", GOOD)
    as_staff = operator.post(URL, body, content_type="application/json")

    for response in (anonymous, with_revoked, with_junk, as_staff):
        assert response.status_code == 401
        assert response.json()["code"] == "unauthenticated"
    assert anonymous["WWW-Authenticate"] == 'Bearer realm="netshop"'
    assert Inquiry.objects.count() == 0


def test_a_token_request_needs_no_csrf_token(key: str, customer: Customer) -> None:
    strict = Client(enforce_csrf_checks=True)

    response = post(strict, key, GOOD)

    assert response.status_code == 202


@pytest.mark.parametrize(
    ("caller", "status"),
    [
        ("anonymous", 401),
        ("revoked", 401),
        ("storefront", 200),
        ("signed_in_customer", 403),
        ("operator", 200),
        ("manager", 200),
    ],
)
@pytest.mark.parametrize("path", ["inquiry", "/api/v1/agents"])
def test_reading_an_inquiry_or_the_cards(caller: str, status: int, path: str) -> None:
    client = call_as(caller)
    inquiry = submitted_as(caller, inquiry_for())
    url = f"{URL}/{inquiry.pk}" if path == "inquiry" else path

    response = client.get(url)

    assert response.status_code == status


def call_as(caller: str) -> Client:
    """A client for ``caller``; token callers send their bearer header on every request."""
    if caller in {"storefront", "revoked"}:
        return Client(headers=bearer(storefront_key(caller, revoked=caller == "revoked")))
    roles = {"signed_in_customer": None, "operator": Role.OPERATOR, "manager": Role.MANAGER}
    if caller in roles:
        return signed_in(staff_user(caller, roles[caller]))
    return Client()


def submitted_as(caller: str, inquiry: Inquiry) -> Inquiry:
    """``inquiry`` as submitted by ``caller``'s storefront token, if it has one (a storefront
    reads only the conversations it submitted); staff read any."""
    if caller in {"storefront", "revoked"}:
        token = ApiToken.objects.get(name=caller)
        Inquiry.objects.filter(pk=inquiry.pk).update(storefront_token=token)
    return inquiry


# --- Following an inquiry -------------------------------------------------------------------


def test_an_inquiry_reads_back_with_its_state(client: Client, key: str) -> None:
    inquiry = submitted_by(key, CustomerFactory.create(code="C0103"), "返金して")
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status="escalated",
        intent="refund",
        agents=["payment"],
        language="ja",
        reply="担当者が確認します。",
        escalation={"kind": "failure", "reason": "tool_failure", "summary": "gateway down"},
    )
    inquiry.refresh_from_db()

    response = client.get(f"{URL}/{inquiry.pk}", headers=bearer(key))

    opening = inquiry.messages.get()
    assert response.status_code == 200
    assert response.json() == {
        "id": str(inquiry.pk),
        "customer_id": "C0103",
        "status": "escalated",
        "intent": "refund",
        "agents": ["payment"],
        "reply": "担当者が確認します。",
        "language": "ja",
        "escalation": {"kind": "failure", "reason": "tool_failure", "summary": "gateway down"},
        "created_at": inquiry.created_at.isoformat(),
        "updated_at": inquiry.updated_at.isoformat(),
        "messages": [
            {
                "id": str(opening.pk),
                "inquiry_id": str(inquiry.pk),
                "author_kind": "customer",
                "author": None,
                "text": "返金して",
                "channel": "web",
                "language": "ja",
                "turn": None,
                "created_at": opening.created_at.isoformat(),
            }
        ],
    }


@pytest.mark.parametrize(
    ("caller", "reply"),
    [
        ("storefront", "お詫びのクーポン SORRY-ABCD2345EF をお送りします。"),
        ("operator", "お詫びのクーポン SORRY-•••• をお送りします。"),
        ("manager", "お詫びのクーポン SORRY-•••• をお送りします。"),
    ],
)
def test_a_coupon_code_in_a_reply_is_read_by_the_storefront_only(caller: str, reply: str) -> None:
    # Given a reply that carries the customer's coupon code (a redeemable secret)
    client = call_as(caller)
    inquiry = submitted_as(caller, inquiry_for())
    Inquiry.objects.filter(pk=inquiry.pk).update(
        reply="お詫びのクーポン SORRY-ABCD2345EF をお送りします。"
    )

    # When the storefront (which relays it to the customer) or a member of staff reads it
    response = client.get(f"{URL}/{inquiry.pk}")

    # Then staff read the code withheld
    assert (response.status_code, response.json()["reply"]) == (200, reply)


@pytest.mark.django_db
def test_the_intake_service_itself_refuses_a_text_that_shows_nothing(customer: Customer) -> None:
    with pytest.raises(DomainError) as refused:
        inquiry_create(customer=customer, text="\u200b\ufe0f", start=False)

    assert (refused.value.code, refused.value.status) == ("blank_text", 422)
    assert not Inquiry.objects.exists()


def test_a_new_inquiry_has_no_escalation(client: Client, key: str) -> None:
    inquiry = submitted_by(key)

    body = client.get(f"{URL}/{inquiry.pk}", headers=bearer(key)).json()

    assert (body["status"], body["escalation"], body["reply"]) == ("queued", None, "")


@pytest.mark.parametrize(
    "inquiry_id", ["not-a-uuid", "00000000-0000-0000-0000-000000000000", "1' OR '1'='1"]
)
def test_an_unknown_or_malformed_inquiry_id_is_not_found(
    client: Client, key: str, inquiry_id: str
) -> None:
    response = client.get(f"{URL}/{inquiry_id}", headers=bearer(key))

    assert response.status_code == 404
    assert response.json()["code"] == "inquiry_not_found"


def test_the_agent_cards_are_served_as_they_are(client: Client, key: str) -> None:
    response = client.get("/api/v1/agents", headers=bearer(key))

    assert response.json() == cards_document()
