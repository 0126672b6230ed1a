"""The customer help page: a customer writes an inquiry and sees its status and reply.

Given customers with logins, when they use ``/help/``, then an inquiry is always theirs (the
identity comes from the login, never the form), they see only their own inquiries, and staff
or anonymous visitors cannot act as a customer.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agents.models import Inquiry, InquiryStatus, MessageAuthor
from agents.support.conversations.messages import message_store
from netshop.models import Customer
from netshop.roles import Role
from tests.factories import CustomerFactory
from tests.operators.api_helpers import inquiry_for, signed_in, staff_user

pytestmark = pytest.mark.django_db

HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>"
HOSTILE_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"


def customer_with_login(username: str, *, language: str = "ja") -> tuple[User, Customer]:
    user = User.objects.create_user(username, password="x")
    return user, CustomerFactory.create(user=user, language=language)


def send(client: Client, text: str, **extra: Any) -> Any:
    return client.post("/help/", {"text": text, "key": str(uuid.uuid4()), **extra})


def test_anonymous_visitors_are_sent_to_log_in() -> None:
    for url in ("/help/", f"/help/inquiries/{uuid.uuid4()}/status"):
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=/help/")


@pytest.mark.parametrize("role", [Role.OPERATOR, Role.MANAGER])
def test_staff_without_a_customer_cannot_use_the_help_page(role: Role) -> None:
    client = signed_in(staff_user("staff1", role))

    assert client.get("/help/").status_code == 403
    assert send(client, "refund please").status_code == 403
    assert not Inquiry.objects.exists()


def test_a_customer_sees_the_form_and_their_recent_inquiries_only() -> None:
    user, customer = customer_with_login("c1")
    mine = inquiry_for(customer, text="私の問い合わせ")
    _, other = customer_with_login("c2")
    inquiry_for(other, text="他人の問い合わせ")

    response = signed_in(user).get("/help/")

    assert response.status_code == 200
    text = response.content.decode()
    assert 'id="inquiry-form"' in text
    assert f'id="inquiry-{mine.pk}"' in text
    assert "私の問い合わせ" in text
    assert "他人の問い合わせ" not in text
    assert f'data-socket-path="/ws/help/{mine.pk}/"' in text
    assert "受け付けました" in text  # a Japanese customer reads the page in Japanese


def test_an_english_customer_reads_the_page_in_english() -> None:
    user, customer = customer_with_login("c1", language="en")
    inquiry_for(customer)

    text = signed_in(user).get("/help/").content.decode()

    assert "How can we help?" in text
    assert ">Received<" in text


def test_a_new_inquiry_is_the_logged_in_customers_whatever_the_form_says(
    django_capture_on_commit_callbacks: Any,
) -> None:
    user, customer = customer_with_login("c1")
    _, other = customer_with_login("c2")

    with django_capture_on_commit_callbacks() as after_commit:
        response = send(
            signed_in(user), "ORD-4003を返金してください", customer=other.pk, customer_id=other.code
        )

    inquiry = Inquiry.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/help/?sent={inquiry.pk}"
    assert (inquiry.customer, inquiry.text, inquiry.channel) == (
        customer,
        "ORD-4003を返金してください",
        "help",
    )
    assert len(after_commit) == 2  # the message's live event, and the run handed to a worker


def test_a_double_submitted_form_makes_one_inquiry() -> None:
    user, _ = customer_with_login("c1")
    client = signed_in(user)
    key = str(uuid.uuid4())

    client.post("/help/", {"text": "返金してください", "key": key})
    client.post("/help/", {"text": "返金してください", "key": key})

    assert Inquiry.objects.count() == 1


def test_an_empty_inquiry_is_refused() -> None:
    user, _ = customer_with_login("c1")

    response = send(signed_in(user), "")

    assert response.status_code == 422
    assert not Inquiry.objects.exists()


@pytest.mark.parametrize("text", ["\u200b\u200b", "\ufe0f", "\u3164 \u2800"])
def test_a_message_that_shows_nothing_is_refused_beside_the_field(text: str) -> None:
    user, _ = customer_with_login("c1")

    response = send(signed_in(user), text)

    assert response.status_code == 422
    assert "お問い合わせ内容をご記入ください。" in response.content.decode()  # c1 reads Japanese
    assert not Inquiry.objects.exists()


def test_csrf_is_enforced_on_the_form() -> None:
    user, _ = customer_with_login("c1")

    response = send(signed_in(user, enforce_csrf=True), "返金してください")

    assert response.status_code == 403
    assert not Inquiry.objects.exists()


def test_the_status_and_thread_are_shown_inert() -> None:
    user, customer = customer_with_login("c1")
    inquiry = inquiry_for(customer, text=HOSTILE)
    message_store(
        inquiry=inquiry, author_kind=MessageAuthor.AI, text=f"reply {HOSTILE}", channel="web"
    )
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=InquiryStatus.RESOLVED, reply=f"reply {HOSTILE}"
    )

    text = signed_in(user).get("/help/").content.decode()

    assert text.count(HOSTILE_ESCAPED) == 2  # the customer's message and the AI's
    assert "<script>alert(1)" not in text
    assert 'data-final="1"' in text
    assert "回答済み" in text


def test_the_status_fallback_answers_the_owner_only() -> None:
    user, customer = customer_with_login("c1")
    inquiry = inquiry_for(customer)
    Inquiry.objects.filter(pk=inquiry.pk).update(status=InquiryStatus.RESOLVED, reply="done")
    other_user, _ = customer_with_login("c2")
    url = f"/help/inquiries/{inquiry.pk}/status"

    mine = signed_in(user).get(url)
    theirs = signed_in(other_user).get(url)
    unknown = signed_in(user).get(f"/help/inquiries/{uuid.uuid4()}/status")

    assert mine.status_code == 200
    body = mine.json()
    assert (body["id"], body["status"], body["reply"]) == (str(inquiry.pk), "resolved", "done")
    assert set(body) == {"id", "status", "reply", "human_owned", "updated_at"}
    assert (theirs.status_code, unknown.status_code) == (404, 404)
