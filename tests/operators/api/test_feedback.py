"""The storefront says whether an AI answer solved the customer's problem (issue 25, part 3).

Given a conversation the AI answered, when the storefront posts the customer's word on the
answer, then it is recorded once (201, the same again 200, a different one 409), heard by the
storefront's webhook, and "not solved" queues the conversation; someone else's conversation,
a message that is no AI answer, and bad input are refused with a clear 4xx and store nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from agents.models import AnswerFeedback, Escalation, Inquiry, InquiryStatus, MessageAuthor
from agents.support.vocabulary import NOT_SOLVED, Skill
from netshop.models import Customer, WebhookDelivery
from netshop.roles import Role
from tests.factories import CustomerFactory
from tests.netshop.webhooks.conftest import storefront_token
from tests.operators.api_helpers import (
    bearer,
    signed_in,
    staff_key,
    staff_user,
    storefront_key,
    token_of,
)
from tests.support.reviews import AI_REPLY, ai_resolved

pytestmark = pytest.mark.django_db


@pytest.fixture
def customer() -> Customer:
    return CustomerFactory.create(code="C0201", language="en")


@pytest.fixture
def key() -> str:
    return storefront_key()


@pytest.fixture
def answered(customer: Customer, key: str) -> Inquiry:
    """A conversation the storefront with ``key`` submitted, which the AI answered."""
    return submitted(ai_resolved(Skill.TRACK_SHIPMENT, customer), key)


def submitted(inquiry: Inquiry, key: str) -> Inquiry:
    Inquiry.objects.filter(pk=inquiry.pk).update(storefront_token=token_of(key))
    inquiry.refresh_from_db()
    return inquiry


def answer_id(inquiry: Inquiry) -> str:
    return str(inquiry.messages.get(author_kind=MessageAuthor.AI).pk)


def url(inquiry: Inquiry, message_id: str | None = None) -> str:
    return f"/api/v1/inquiries/{inquiry.pk}/messages/{message_id or answer_id(inquiry)}/feedback"


def post(client: Client, key: str, target: str, body: dict[str, Any]) -> Any:
    return client.post(target, body, content_type="application/json", headers=bearer(key))


def test_solved_is_recorded_once_and_the_same_again_is_the_same(
    answered: Inquiry, key: str
) -> None:
    body = {"customer_id": "C0201", "solved": True, "rating": 4, "comment": "<b>thanks</b>"}

    first = post(Client(), key, url(answered), body)
    again = post(Client(), key, url(answered), body)

    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json() == first.json()
    shown = first.json()
    assert (shown["solved"], shown["rating"], shown["comment"], shown["source"]) == (
        True,
        4,
        "<b>thanks</b>",  # data: the storefront escapes it where it shows it
        "buttons",
    )
    assert (shown["message_id"], shown["intent"]) == (answer_id(answered), "track_shipment")
    assert AnswerFeedback.objects.count() == 1


def test_a_different_second_answer_is_409_and_changes_nothing(answered: Inquiry, key: str) -> None:
    post(Client(), key, url(answered), {"customer_id": "C0201", "solved": True})

    refused = post(Client(), key, url(answered), {"customer_id": "C0201", "solved": False})

    assert refused.status_code == 409
    assert refused.json()["code"] == "feedback_already_given"
    assert list(AnswerFeedback.objects.values_list("solved", flat=True)) == [True]
    assert not Escalation.objects.exists()


def test_not_solved_queues_the_conversation_and_tells_the_storefronts_webhook(
    answered: Inquiry,
) -> None:
    token, key = storefront_token("https://shop.example/hooks/netshop")
    Inquiry.objects.filter(pk=answered.pk).update(storefront_token=token)
    body = {"customer_id": "C0201", "solved": False, "rating": 2, "comment": "Wrong parcel"}

    response = post(Client(), key, url(answered), body)

    assert response.status_code == 201
    review = Escalation.objects.get(reason=NOT_SOLVED)
    assert (review.package["review"]["reply"], review.package["review"]["comment"]) == (
        AI_REPLY,
        "Wrong parcel",
    )
    assert Inquiry.objects.get(pk=answered.pk).status == InquiryStatus.ESCALATED
    heard = WebhookDelivery.objects.get(event="conversation.feedback")
    assert heard.payload["feedback"] == {
        "message_id": answer_id(answered),
        "solved": False,
        "rating": 2,
        "comment": "Wrong parcel",
        "source": "buttons",
        "created_at": response.json()["created_at"],
    }
    assert heard.payload["customer_id"] == "C0201"
    statuses = WebhookDelivery.objects.filter(event="conversation.handed_to_person")
    assert statuses.count() == 1  # the conversation went to a person: the storefront hears it


def assert_nothing_stored() -> None:
    assert not AnswerFeedback.objects.exists()
    assert not Escalation.objects.exists()


def test_another_customers_conversation_is_404(answered: Inquiry, key: str) -> None:
    CustomerFactory.create(code="C0999")

    response = post(Client(), key, url(answered), {"customer_id": "C0999", "solved": False})

    assert response.status_code == 404
    assert response.json()["code"] == "inquiry_not_found"
    assert_nothing_stored()


def test_an_unknown_message_is_404_and_a_customer_message_is_422(
    answered: Inquiry, key: str
) -> None:
    own = str(answered.messages.get(author_kind=MessageAuthor.CUSTOMER).pk)
    body = {"customer_id": "C0201", "solved": False}

    unknown = post(Client(), key, url(answered, "00000000-0000-0000-0000-000000000001"), body)
    garbage = post(Client(), key, url(answered, "nope"), body)
    not_ai = post(Client(), key, url(answered, own), body)

    assert (unknown.status_code, unknown.json()["code"]) == (404, "message_not_found")
    assert (garbage.status_code, garbage.json()["code"]) == (404, "message_not_found")
    assert (not_ai.status_code, not_ai.json()["code"]) == (422, "not_an_ai_reply")
    assert_nothing_stored()


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"rating": 0}, "invalid_rating"),
        ({"rating": 6}, "invalid_rating"),
        ({"rating": "5"}, "invalid_request"),
        ({"solved": "no"}, "invalid_request"),
        ({"comment": "x" * 1001}, "comment_too_long"),
        ({"comment": "a\x00b"}, "invalid_request"),
    ],
)
def test_bad_input_is_422_and_stores_nothing(
    answered: Inquiry, key: str, extra: dict[str, Any], code: str
) -> None:
    body = {"customer_id": "C0201", "solved": False} | extra

    response = post(Client(), key, url(answered), body)

    assert (response.status_code, response.json()["code"]) == (422, code)
    assert_nothing_stored()


def test_staff_cannot_answer_for_a_customer(answered: Inquiry) -> None:
    operator = staff_user("op", Role.OPERATOR)
    body = {"customer_id": "C0201", "solved": False}

    by_session = signed_in(operator).post(url(answered), body, content_type="application/json")
    by_token = post(Client(), staff_key(operator), url(answered), body)

    assert by_session.status_code == 401
    assert by_token.status_code == 401
    assert_nothing_stored()
