"""The staff conversation API: the inbox, the whole thread, and what a person does in it.

Given conversations in every state, when operators and managers take over, write, note, hand
back, close and flag over HTTP, then each change is the owner's alone, refusals change
nothing, and the inbox finds conversations by customer, order number and text.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from agents.models import Escalation, EscalationKind, Inquiry, InquiryStatus, Message
from agents.support.conversations.services import (
    conversation_take_over,
    note_add,
    operator_message_send,
)
from agents.support.escalations.review_flags import conversation_flag
from netshop.roles import Role
from tests.factories import CustomerFactory, delivered_order
from tests.operators.api_helpers import (
    bearer,
    inquiry_for,
    signed_in,
    staff_key,
    staff_user,
    storefront_key,
)

pytestmark = pytest.mark.django_db

BASE = "/api/v1/conversations"


def post(client: Client, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def resolved(inquiry: Inquiry) -> Inquiry:
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=InquiryStatus.RESOLVED, resolved_at=timezone.now()
    )
    inquiry.refresh_from_db()
    return inquiry


@pytest.fixture
def manager() -> User:
    return staff_user("lead", Role.MANAGER)


@pytest.fixture
def inquiry() -> Inquiry:
    return inquiry_for(CustomerFactory.create(code="C0101"), text="届いていません")


# --- Who may call what --------------------------------------------------------------------

CALLS = [
    ("get", ""),
    ("get", "/{id}"),
    ("post", "/{id}/take-over"),
    ("post", "/{id}/hand-back"),
    ("post", "/{id}/close"),
    ("post", "/{id}/messages"),
    ("post", "/{id}/notes"),
    ("post", "/{id}/flag"),
]


@pytest.mark.parametrize(("method", "path"), CALLS)
@pytest.mark.parametrize(
    ("caller", "status"),
    [("anonymous", 401), ("storefront_token", 401), ("signed_in_customer", 403)],
)
def test_only_staff_reach_the_conversation_api(
    client: Client, inquiry: Inquiry, method: str, path: str, caller: str, status: int
) -> None:
    headers = bearer(storefront_key()) if caller == "storefront_token" else {}
    who = signed_in(staff_user("shopper", None)) if caller == "signed_in_customer" else client
    url = BASE + path.format(id=inquiry.pk)
    body = {"text": "hi", "reason": "why"}

    if method == "get":
        response = who.get(url, headers=headers)
    else:
        response = who.post(url, json.dumps(body), content_type="application/json", headers=headers)

    assert response.status_code == status
    inquiry.refresh_from_db()
    assert (inquiry.human_owner_id, inquiry.status) == (None, InquiryStatus.QUEUED)
    assert inquiry.messages.count() == 1


def test_an_operator_cannot_flag_a_manager_can(op1: User, manager: User, inquiry: Inquiry) -> None:
    resolved(inquiry)

    refused = post(signed_in(op1), f"{BASE}/{inquiry.pk}/flag", {"reason": "wrong order"})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert not Escalation.objects.filter(inquiry=inquiry).exists()

    flagged = post(signed_in(manager), f"{BASE}/{inquiry.pk}/flag", {"reason": "wrong order"})
    assert (flagged.status_code, flagged.json()["flagged"]) == (200, True)
    review = Escalation.objects.get(inquiry=inquiry)
    assert (review.kind, review.summary) == (
        EscalationKind.REVIEW,
        "flagged for review by lead: wrong order",
    )


def test_flagging_twice_is_409_and_an_unresolved_one_422(manager: User, inquiry: Inquiry) -> None:
    lead = signed_in(manager)
    unresolved = post(lead, f"{BASE}/{inquiry.pk}/flag", {"reason": "look"})
    resolved(inquiry)
    post(lead, f"{BASE}/{inquiry.pk}/flag", {"reason": "look"})
    again = post(lead, f"{BASE}/{inquiry.pk}/flag", {"reason": "look again"})

    assert (unresolved.status_code, unresolved.json()["code"]) == (422, "not_ai_resolved")
    assert (again.status_code, again.json()["code"]) == (409, "already_flagged")
    assert Escalation.objects.filter(inquiry=inquiry).count() == 1


# --- Taking over, writing, handing back, closing --------------------------------------------


def test_an_operator_takes_over_writes_notes_and_sees_the_whole_thread(
    op1: User, inquiry: Inquiry
) -> None:
    operator = signed_in(op1)

    taken = post(operator, f"{BASE}/{inquiry.pk}/take-over")
    sent = post(operator, f"{BASE}/{inquiry.pk}/messages", {"text": "お調べします。"})
    noted = post(operator, f"{BASE}/{inquiry.pk}/notes", {"text": "VIP のお客様"})
    detail = operator.get(f"{BASE}/{inquiry.pk}").json()

    assert (taken.status_code, taken.json()["human_owner"]) == (200, "op1")
    assert taken.json()["status"] == InquiryStatus.HANDLED_BY_HUMAN
    assert (sent.status_code, sent.json()["author_kind"], sent.json()["author"]) == (
        201,
        "operator",
        "op1",
    )
    assert (noted.status_code, noted.json()["author_kind"]) == (201, "note")
    assert [(m["author_kind"], m["text"]) for m in detail["messages"]] == [
        ("customer", "届いていません"),
        ("operator", "お調べします。"),
        ("note", "VIP のお客様"),
    ]
    assert (detail["reply"], detail["customer_id"]) == ("お調べします。", "C0101")


def test_a_second_operator_can_neither_take_over_nor_write(
    op1: User, op2: User, inquiry: Inquiry
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)
    other = signed_in(op2)

    taken = post(other, f"{BASE}/{inquiry.pk}/take-over")
    written = post(other, f"{BASE}/{inquiry.pk}/messages", {"text": "me too"})
    handed = post(other, f"{BASE}/{inquiry.pk}/hand-back")

    assert (taken.status_code, taken.json()) == (
        409,
        {"code": "already_human_owned", "message": "Already taken over by op1."},
    )
    assert (written.status_code, written.json()["code"]) == (409, "owned_by_other")
    assert (handed.status_code, handed.json()["code"]) == (409, "owned_by_other")
    inquiry.refresh_from_db()
    assert inquiry.human_owner == op1
    assert not Message.objects.filter(text="me too").exists()


def test_writing_before_taking_over_is_409_and_stores_nothing(op1: User, inquiry: Inquiry) -> None:
    response = post(signed_in(op1), f"{BASE}/{inquiry.pk}/messages", {"text": "hello"})

    assert (response.status_code, response.json()["code"]) == (409, "not_human_owned")
    assert inquiry.messages.count() == 1


@pytest.mark.parametrize("path", ["messages", "notes"])
def test_blank_text_is_422_and_stores_nothing(op1: User, inquiry: Inquiry, path: str) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    response = post(signed_in(op1), f"{BASE}/{inquiry.pk}/{path}", {"text": " \u3000 "})

    assert (response.status_code, response.json()["code"]) == (422, "invalid_request")
    assert response.json()["message"] == "text: Value error, must not be blank"
    assert inquiry.messages.count() == 1


def test_hand_back_gives_the_conversation_to_the_ai_and_close_resolves_it(
    op1: User, inquiry: Inquiry, django_capture_on_commit_callbacks: Any
) -> None:
    operator = signed_in(op1)
    post(operator, f"{BASE}/{inquiry.pk}/take-over")

    with django_capture_on_commit_callbacks() as after_commit:
        handed = post(operator, f"{BASE}/{inquiry.pk}/hand-back")
    post(operator, f"{BASE}/{inquiry.pk}/take-over")
    closed = post(operator, f"{BASE}/{inquiry.pk}/close")

    assert (handed.status_code, handed.json()["human_owner"], handed.json()["status"]) == (
        200,
        None,
        InquiryStatus.AWAITING_CUSTOMER,
    )
    assert len(after_commit) == 2  # the status event, and the run for a waiting message
    assert (closed.status_code, closed.json()["status"], closed.json()["human_owner"]) == (
        200,
        InquiryStatus.RESOLVED,
        None,
    )


@pytest.mark.parametrize("inquiry_id", ["00000000-0000-0000-0000-000000000000", "nope"])
def test_an_unknown_conversation_is_404(op1: User, inquiry_id: str) -> None:
    operator = signed_in(op1)

    read = operator.get(f"{BASE}/{inquiry_id}")
    taken = post(operator, f"{BASE}/{inquiry_id}/take-over")

    assert (read.status_code, read.json()) == (
        404,
        {"code": "inquiry_not_found", "message": f"No inquiry with id {inquiry_id}."},
    )
    assert (taken.status_code, taken.json()["code"]) == (404, "inquiry_not_found")


def test_a_staff_token_acts_as_its_person(op1: User, client: Client, inquiry: Inquiry) -> None:
    response = client.post(f"{BASE}/{inquiry.pk}/take-over", headers=bearer(staff_key(op1)))

    assert (response.status_code, response.json()["human_owner"]) == (200, "op1")


# --- The inbox ----------------------------------------------------------------------------


@pytest.fixture
def inbox(op1: User, manager: User) -> dict[str, Inquiry]:
    """One conversation in each state the inbox filters on, oldest first."""
    shopper = CustomerFactory.create(code="C0303")
    delivered_order(number="ORD-7001", customer=shopper)
    found = {
        "ai_resolved": resolved(
            inquiry_for(CustomerFactory.create(code="C0301"), text="ありがとう")
        ),
        "awaiting": inquiry_for(CustomerFactory.create(code="C0302"), text="Which order?"),
        "owned": inquiry_for(shopper, text="where is it"),
        "flagged": resolved(inquiry_for(CustomerFactory.create(code="C0304"), text="coupon")),
        "mentions": inquiry_for(CustomerFactory.create(code="C0305"), text="about ORD-7001"),
    }
    Inquiry.objects.filter(pk=found["awaiting"].pk).update(status=InquiryStatus.AWAITING_CUSTOMER)
    conversation_take_over(inquiry_id=found["owned"].pk, user=op1)
    operator_message_send(inquiry_id=found["owned"].pk, user=op1, text="調べます")
    note_add(inquiry_id=found["owned"].pk, user=op1, text="secret-word")
    conversation_flag(inquiry_id=found["flagged"].pk, user=manager, reason="check")
    return found


def listed(client: Client, **params: str) -> list[str]:
    response = client.get(BASE, params)
    assert response.status_code == 200, response.content
    return [item["id"] for item in response.json()["items"]]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"filter": "ai_resolved"}, ["ai_resolved"]),  # flagged is resolved too, see below
        ({"filter": "awaiting_customer"}, ["awaiting"]),
        ({"filter": "human_owned"}, ["owned"]),
        ({"filter": "flagged"}, ["flagged"]),
        ({"q": "c0302"}, ["awaiting"]),  # a customer code, any case
        ({"q": "ORD-7001"}, ["owned", "mentions"]),  # its customer's, or mentioned
        ({"q": "調べます"}, ["owned"]),  # an operator's message
        ({"q": "secret-word"}, ["owned"]),  # staff search notes too
        ({"q": "which"}, ["awaiting"]),
        ({"q": "ORD-7001", "filter": "human_owned"}, ["owned"]),
    ],
)
def test_the_inbox_searches_and_filters(
    op1: User, inbox: dict[str, Inquiry], params: dict[str, str], expected: list[str]
) -> None:
    found = listed(signed_in(op1), **params)

    if params == {"filter": "ai_resolved"}:
        expected = ["flagged", "ai_resolved"]  # most recently active first
    assert found == [str(inbox[name].pk) for name in expected]


def test_an_unknown_filter_is_422(op1: User) -> None:
    response = signed_in(op1).get(BASE, {"filter": "everything"})

    assert (response.status_code, response.json()["code"]) == (422, "invalid_request")


def test_the_inbox_pages_with_a_cursor_in_four_queries_a_page(
    op1: User, django_assert_num_queries: Any
) -> None:
    made = [inquiry_for(text=f"question {n}") for n in range(25)]
    for inquiry in made[:10]:
        note_add(inquiry_id=inquiry.pk, user=op1, text="seen")
    expected = [
        str(pk)
        for pk in Inquiry.objects.order_by("-updated_at", "-id").values_list("pk", flat=True)
    ]
    client = signed_in(op1)
    client.get(BASE)  # the session's first read warms nothing we count on

    pages, cursor = [], ""
    for _ in range(3):
        # the session, its user, the user's role groups, and one page of conversations
        with django_assert_num_queries(4):
            response = client.get(BASE, {"limit": "10", "cursor": cursor})
        pages.append([item["id"] for item in response.json()["items"]])
        cursor = response.json()["next_cursor"] or ""

    assert [len(page) for page in pages] == [10, 10, 5]
    assert [pk for page in pages for pk in page] == expected
    assert cursor == ""


def test_a_conversation_reads_in_five_queries_whatever_its_length(
    op1: User, inquiry: Inquiry, django_assert_num_queries: Any
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)
    for n in range(6):
        operator_message_send(inquiry_id=inquiry.pk, user=op1, text=f"reply {n}")
    client = signed_in(op1)

    # the session, its user, its groups, the annotated conversation, its thread
    with django_assert_num_queries(5):
        response = client.get(f"{BASE}/{inquiry.pk}")

    assert len(response.json()["messages"]) == 7


def test_the_conversation_endpoints_are_documented(client: Client) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    paths = schema["paths"]

    for suffix in ("take-over", "hand-back", "close"):
        operation = paths[f"/api/v1/conversations/{{inquiry_id}}/{suffix}"]["post"]
        assert set(operation["responses"]) == {"200", "401", "403", "404", "409", "422"}
        assert operation["description"]
    for suffix in ("messages", "notes"):
        operation = paths[f"/api/v1/conversations/{{inquiry_id}}/{suffix}"]["post"]
        assert set(operation["responses"]) == {
            "201",
            "400",
            "401",
            "403",
            "404",
            "409",
            "413",
            "415",
            "422",
        }
    inbox = paths["/api/v1/conversations"]["get"]
    filter_param = next(p for p in inbox["parameters"] if p["name"] == "filter")
    assert filter_param["schema"]["anyOf"][0]["enum"] == [
        "ai_resolved",
        "awaiting_customer",
        "human_owned",
        "flagged",
        "escalated",
        "failed",
        "waiting_on_us",
    ]
    assert paths["/api/v1/conversations/{inquiry_id}/flag"]["post"]["summary"] == (
        "Flag an AI-resolved conversation for review (managers)"
    )
