"""A storefront token reaches only the conversations it submitted, and its keys are its own.

Given two storefronts (two tokens) and a customer both serve, when one storefront reads,
follows, posts into or rates a conversation the other submitted (or one started on the help
page or in the console), then it is answered exactly as for an id that does not exist and
nothing is stored; and when both send the same idempotency key, each gets its own inquiry
while one storefront's retry still replays (or conflicts) as before. A message key is its
writer's too: an operator's token sending a key the customer or a colleague used is refused,
never answered with their message.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client

from agents.models import AnswerFeedback, Inquiry, Message, MessageAuthor
from agents.support.conversations.messages import message_store
from agents.support.conversations.services import conversation_take_over
from netshop.models import Customer
from netshop.roles import Role
from netshop.services.receipts import receipt_issue
from tests.factories import CustomerFactory, delivered_order
from tests.operators.api_helpers import (
    bearer,
    inquiry_for,
    staff_key,
    staff_user,
    storefront_key,
    submitted_by,
    token_of,
)
from tests.support.reviews import answer_grounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def ours() -> str:
    return storefront_key("our-shop")


@pytest.fixture
def theirs() -> str:
    return storefront_key("their-shop")


@pytest.fixture
def customer() -> Customer:
    return CustomerFactory.create(code="C0101", language="en")


@pytest.fixture
def their_conversation(theirs: str, customer: Customer) -> Inquiry:
    return submitted_by(theirs, customer, "Where is my parcel?")


def not_found(inquiry_id: object) -> dict[str, str]:
    return {"code": "inquiry_not_found", "message": f"No inquiry with id {inquiry_id}."}


def post_json(client: Client, key: str, url: str, body: Any, **headers: str) -> Any:
    return client.post(
        url, json.dumps(body), content_type="application/json", headers=bearer(key) | headers
    )


def reads(client: Client, key: str, inquiry_id: object) -> list[tuple[int, Any]]:
    """What the storefront with ``key`` gets from each way of reading the conversation."""
    answers = [
        client.get(f"/api/v1/inquiries/{inquiry_id}", headers=bearer(key)),
        client.get(
            f"/api/v1/inquiries/{inquiry_id}/messages",
            {"customer_id": "C0101"},
            headers=bearer(key),
        ),
    ]
    return [(a.status_code, a.json()) for a in answers]


# --- Reading and following -----------------------------------------------------------------


def test_another_storefronts_conversation_reads_exactly_like_one_that_does_not_exist(
    client: Client, ours: str, their_conversation: Inquiry
) -> None:
    nowhere = uuid.uuid4()

    foreign = reads(client, ours, their_conversation.pk)
    missing = reads(client, ours, nowhere)

    assert foreign == [(404, not_found(their_conversation.pk))] * 2
    assert missing == [(404, not_found(nowhere))] * 2


def test_the_storefront_that_submitted_a_conversation_still_reads_it(
    client: Client, theirs: str, their_conversation: Inquiry
) -> None:
    answers = reads(client, theirs, their_conversation.pk)

    assert [status for status, _ in answers] == [200, 200]
    assert answers[0][1]["id"] == str(their_conversation.pk)
    assert [m["text"] for m in answers[1][1]["messages"]] == ["Where is my parcel?"]


def test_a_conversation_started_without_a_storefront_is_no_storefronts(
    client: Client, ours: str, customer: Customer
) -> None:
    on_the_help_page = inquiry_for(customer, text="Where is my parcel?")

    answers = reads(client, ours, on_the_help_page.pk)

    assert answers == [(404, not_found(on_the_help_page.pk))] * 2


def test_another_storefronts_receipt_is_not_found(
    client: Client, ours: str, theirs: str, their_conversation: Inquiry, customer: Customer
) -> None:
    order = delivered_order(number="ORD-770001", customer=customer, captured=3980)
    issue = receipt_issue(
        order=order,
        addressee="",
        operation_id=f"{their_conversation.pk}:issue_receipt:1",
        actor="test",
        inquiry_ref=str(their_conversation.pk),
    )
    url = f"/api/v1/inquiries/{their_conversation.pk}/receipts/{issue.receipt.number}"

    foreign = client.get(url, {"customer_id": "C0101"}, headers=bearer(ours))
    own = client.get(url, {"customer_id": "C0101"}, headers=bearer(theirs))

    assert (foreign.status_code, foreign.json()) == (404, not_found(their_conversation.pk))
    assert (own.status_code, own["Content-Type"]) == (200, "application/pdf")


# --- Writing -------------------------------------------------------------------------------


def test_posting_into_another_storefronts_conversation_is_not_found_and_stores_nothing(
    client: Client,
    ours: str,
    their_conversation: Inquiry,
    django_capture_on_commit_callbacks: Any,
) -> None:
    url = f"/api/v1/inquiries/{their_conversation.pk}/messages"

    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = post_json(client, ours, url, {"customer_id": "C0101", "text": "Cancel it"})

    assert (response.status_code, response.json()) == (404, not_found(their_conversation.pk))
    assert list(their_conversation.messages.values_list("text", flat=True)) == [
        "Where is my parcel?"
    ]
    assert Inquiry.objects.count() == 1
    assert queued == []


def test_the_submitting_storefront_still_posts_into_its_conversation(
    client: Client, theirs: str, their_conversation: Inquiry
) -> None:
    url = f"/api/v1/inquiries/{their_conversation.pk}/messages"

    response = post_json(client, theirs, url, {"customer_id": "C0101", "text": "Any news?"})

    assert response.status_code == 202
    assert response.json()["inquiry_id"] == str(their_conversation.pk)
    assert their_conversation.messages.filter(text="Any news?").count() == 1


def test_rating_an_answer_in_another_storefronts_conversation_is_not_found(
    client: Client, ours: str, their_conversation: Inquiry
) -> None:
    answer = message_store(
        inquiry=their_conversation,
        author_kind=MessageAuthor.AI,
        text="It arrives tomorrow.",
        channel="web",
        grounds=answer_grounds("track_order"),
    )
    url = f"/api/v1/inquiries/{their_conversation.pk}/messages/{answer.pk}/feedback"

    response = post_json(client, ours, url, {"customer_id": "C0101", "solved": False})

    assert (response.status_code, response.json()) == (404, not_found(their_conversation.pk))
    assert not AnswerFeedback.objects.exists()


def test_a_message_that_starts_a_new_conversation_keeps_it_the_storefronts(
    client: Client, ours: str, theirs: str, their_conversation: Inquiry
) -> None:
    Inquiry.objects.filter(pk=their_conversation.pk).update(
        status="resolved", resolved_at=their_conversation.created_at.replace(year=2020)
    )
    url = f"/api/v1/inquiries/{their_conversation.pk}/messages"

    landed = post_json(client, theirs, url, {"customer_id": "C0101", "text": "Again?"}).json()

    started = landed["inquiry_id"]
    assert landed["new_conversation"] is True
    assert Inquiry.objects.get(pk=started).storefront_token == token_of(theirs)
    assert reads(client, ours, started) == [(404, not_found(started))] * 2


# --- Idempotency keys are the token's own --------------------------------------------------


def submit(client: Client, key: str, text: str = "Where is it?") -> Any:
    body = {"customer_id": "C0101", "text": text, "idempotency_key": "k-1"}
    return post_json(client, key, "/api/v1/inquiries", body)


@pytest.mark.usefixtures("customer")
def test_the_same_key_from_two_storefronts_makes_two_independent_inquiries(
    client: Client, ours: str, theirs: str
) -> None:
    first, second = submit(client, ours), submit(client, theirs)

    assert (first.status_code, second.status_code) == (202, 202)
    assert first.json()["id"] != second.json()["id"]
    made = Inquiry.objects.order_by("created_at")
    assert [i.storefront_token for i in made] == [token_of(ours), token_of(theirs)]
    assert [i.idempotency_key for i in made] == ["k-1", "k-1"]


@pytest.mark.usefixtures("customer")
def test_another_storefronts_key_neither_replays_nor_conflicts_with_ours(
    client: Client, ours: str, theirs: str
) -> None:
    submit(client, theirs, "Cancel my order")

    mine = submit(client, ours, "Where is it?")

    assert mine.status_code == 202
    assert Inquiry.objects.get(pk=mine.json()["id"]).text == "Where is it?"


@pytest.mark.usefixtures("customer")
def test_one_storefronts_retry_still_replays_and_another_text_still_conflicts(
    client: Client, ours: str, theirs: str
) -> None:
    first = submit(client, ours)
    submit(client, theirs)

    again = submit(client, ours)
    reused = submit(client, ours, "Something else")

    assert (again.status_code, again.json()) == (202, first.json())
    assert reused.status_code == 409
    assert reused.json()["code"] == "idempotency_key_reused"
    assert Inquiry.objects.filter(storefront_token=token_of(ours)).count() == 1


def test_a_message_key_another_storefront_used_elsewhere_is_independent(
    client: Client, ours: str, theirs: str, customer: Customer
) -> None:
    mine, yours = submitted_by(ours, customer, "Mine"), submitted_by(theirs, customer, "Yours")
    headers = {"Idempotency-Key": "m-1"}

    answers = [
        post_json(client, key, f"/api/v1/inquiries/{inquiry.pk}/messages", body, **headers)
        for key, inquiry, body in (
            (ours, mine, {"customer_id": "C0101", "text": "One"}),
            (theirs, yours, {"customer_id": "C0101", "text": "Two"}),
        )
    ]

    assert [a.status_code for a in answers] == [202, 202]
    assert sorted(Message.objects.filter(idempotency_key="m-1").values_list("text", flat=True)) == [
        "One",
        "Two",
    ]


def test_an_operator_sending_the_customers_message_key_is_refused_not_replayed(
    client: Client, theirs: str, their_conversation: Inquiry
) -> None:
    operator = staff_user("op1", Role.OPERATOR)
    conversation_take_over(inquiry_id=their_conversation.pk, user=operator)
    url = f"/api/v1/inquiries/{their_conversation.pk}/messages"
    post_json(
        client, theirs, url, {"customer_id": "C0101", "text": "Hello"}, **{"Idempotency-Key": "m-1"}
    )

    response = post_json(
        client,
        staff_key(operator),
        f"/api/v1/conversations/{their_conversation.pk}/messages",
        {"text": "Hello"},
        **{"Idempotency-Key": "m-1"},
    )

    assert response.status_code == 409
    assert response.json()["code"] == "message_key_reused"
    assert not their_conversation.messages.filter(author_kind=MessageAuthor.OPERATOR).exists()


def test_a_colleagues_message_key_is_refused_not_replayed(
    client: Client, their_conversation: Inquiry
) -> None:
    owner, colleague = staff_user("op1", Role.OPERATOR), staff_user("op2", Role.OPERATOR)
    conversation_take_over(inquiry_id=their_conversation.pk, user=owner)
    url = f"/api/v1/conversations/{their_conversation.pk}/messages"
    first = post_json(
        client, staff_key(owner), url, {"text": "On it"}, **{"Idempotency-Key": "o-1"}
    )

    again = post_json(
        client, staff_key(colleague), url, {"text": "On it"}, **{"Idempotency-Key": "o-1"}
    )

    assert first.status_code == 201
    assert (again.status_code, again.json()["code"]) == (409, "message_key_reused")
    assert their_conversation.messages.filter(author_kind=MessageAuthor.OPERATOR).count() == 1
