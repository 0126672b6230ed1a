"""The help page's conversations: threads, a reply box in each, and the messages fallback.

Given customers with conversations the AI and operators wrote in (and staff noted), when a
customer opens ``/help/`` and replies, then they see their own threads without notes, a
reply lands in the conversation (or, long after it closed, in a new one the page points
to), and refused replies store nothing.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from agents.models import Inquiry, InquiryStatus, Message, MessageAuthor
from agents.support.conversations.messages import message_store
from agents.support.conversations.services import (
    conversation_take_over,
    note_add,
    operator_message_send,
)
from netshop.models import Customer
from netshop.roles import Role
from tests.factories import CustomerFactory
from tests.operators.api_helpers import inquiry_for, signed_in, staff_user

pytestmark = pytest.mark.django_db


def customer_with_login(username: str, *, language: str = "ja") -> tuple[User, Customer]:
    user = User.objects.create_user(username, password="x")
    return user, CustomerFactory.create(user=user, language=language)


def reply(client: Client, inquiry_id: object, text: str, key: str | None = None) -> Any:
    body = {"text": text, "key": key or str(uuid.uuid4())}
    return client.post(f"/help/inquiries/{inquiry_id}/reply", body)


def texts(inquiry: Inquiry) -> list[tuple[str, str, str]]:
    rows = inquiry.messages.order_by("created_at").values_list("author_kind", "text", "channel")
    return list(rows)


@pytest.fixture
def conversation() -> tuple[User, Inquiry]:
    """A Japanese customer's conversation the AI answered, an operator wrote in and noted."""
    user, customer = customer_with_login("c1")
    inquiry = inquiry_for(customer, text="届きません")
    message_store(
        inquiry=inquiry, author_kind=MessageAuthor.AI, text="どのご注文ですか?", channel="web"
    )
    operator = staff_user("op1", Role.OPERATOR)
    conversation_take_over(inquiry_id=inquiry.pk, user=operator)
    operator_message_send(inquiry_id=inquiry.pk, user=operator, text="担当の者です。")
    note_add(inquiry_id=inquiry.pk, user=operator, text="社内メモ: VIP")
    return user, inquiry


def test_a_customer_sees_their_thread_with_authors_and_never_a_note(
    conversation: tuple[User, Inquiry],
) -> None:
    user, inquiry = conversation

    text = signed_in(user).get("/help/").content.decode()

    assert text.index("届きません") < text.index("どのご注文ですか?") < text.index("担当の者です。")
    assert "社内メモ" not in text
    assert "op1" not in text  # staff names stay off the customer's page
    assert 'class="message author-customer"' in text
    assert 'class="message author-ai"' in text
    assert 'class="message author-operator"' in text
    assert f'action="/help/inquiries/{inquiry.pk}/reply"' in text
    assert f'data-messages-url="/help/inquiries/{inquiry.pk}/messages"' in text
    assert ">アシスタント<" in text  # the author labels are translated
    assert "返信" in text


def test_the_page_reads_in_the_same_queries_however_long_the_threads(
    conversation: tuple[User, Inquiry], django_assert_num_queries: Any
) -> None:
    user, inquiry = conversation
    client = signed_in(user)
    client.get("/help/")
    for n in range(5):
        message_store(
            inquiry=inquiry, author_kind=MessageAuthor.AI, text=f"更新 {n}", channel="web"
        )

    # the session, its user, the customer, the conversations, their visible messages, and
    # the receipts issued in them
    with django_assert_num_queries(6):
        response = client.get("/help/")

    assert response.content.decode().count('class="message author-ai"') == 6


def test_a_reply_lands_in_the_conversation(
    conversation: tuple[User, Inquiry], django_capture_on_commit_callbacks: Any
) -> None:
    user, inquiry = conversation

    with django_capture_on_commit_callbacks() as after_commit:
        response = reply(signed_in(user), inquiry.pk, "ORD-4002 です")

    assert response.status_code == 302
    assert response["Location"] == f"/help/?sent={inquiry.pk}#inquiry-{inquiry.pk}"
    assert texts(inquiry)[-1] == ("customer", "ORD-4002 です", "help")
    assert len(after_commit) == 1  # its live event; a person owns it, so no run


def test_a_double_submitted_reply_is_one_message(conversation: tuple[User, Inquiry]) -> None:
    user, inquiry = conversation
    client, key = signed_in(user), str(uuid.uuid4())

    reply(client, inquiry.pk, "二回押しました", key)
    reply(client, inquiry.pk, "二回押しました", key)

    assert inquiry.messages.filter(text="二回押しました").count() == 1


def test_a_reply_long_after_closing_starts_a_new_conversation_the_page_points_to() -> None:
    user, customer = customer_with_login("c1", language="en")
    old = inquiry_for(customer, text="first time")
    Inquiry.objects.filter(pk=old.pk).update(
        status=InquiryStatus.RESOLVED,
        resolved_at=timezone.now() - timedelta(days=settings.NETSHOP_REOPEN_DAYS + 1),
    )
    client = signed_in(user)

    response = reply(client, old.pk, "broken again")

    new = Inquiry.objects.exclude(pk=old.pk).get()
    assert response["Location"] == f"/help/?sent={new.pk}&moved={old.pk}#inquiry-{new.pk}"
    assert texts(new) == [("customer", "broken again", "help")]
    assert texts(old) == [("customer", "first time", "web")]
    page = client.get(response["Location"]).content.decode()
    notice = page.index("started this new conversation")
    assert page.index(f'id="inquiry-{new.pk}"') < notice < page.index(f'id="inquiry-{old.pk}"')


def test_a_reply_within_the_window_reopens_the_conversation() -> None:
    user, customer = customer_with_login("c1")
    inquiry = inquiry_for(customer, text="first time")
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=InquiryStatus.RESOLVED, resolved_at=timezone.now() - timedelta(days=1)
    )

    response = reply(signed_in(user), inquiry.pk, "もう一つ")

    inquiry.refresh_from_db()
    assert response["Location"] == f"/help/?sent={inquiry.pk}#inquiry-{inquiry.pk}"
    assert inquiry.status == InquiryStatus.QUEUED
    assert Inquiry.objects.count() == 1


def test_a_blank_reply_is_refused_beside_its_conversation(
    conversation: tuple[User, Inquiry],
) -> None:
    user, inquiry = conversation

    response = reply(signed_in(user), inquiry.pk, "\u200b")

    text = response.content.decode()
    assert response.status_code == 422
    box = text.index(f'action="/help/inquiries/{inquiry.pk}/reply"')
    assert text.index("お問い合わせ内容をご記入ください。", box) > box
    assert inquiry.messages.count() == 4


def test_a_reply_to_someone_elses_conversation_is_404_and_stores_nothing(
    conversation: tuple[User, Inquiry],
) -> None:
    _, inquiry = conversation
    other, _ = customer_with_login("c2")

    theirs = reply(signed_in(other), inquiry.pk, "let me in")
    unknown = reply(signed_in(other), uuid.uuid4(), "let me in")

    assert (theirs.status_code, unknown.status_code) == (404, 404)
    assert not Message.objects.filter(text="let me in").exists()


def test_staff_and_anonymous_visitors_cannot_reply(conversation: tuple[User, Inquiry]) -> None:
    _, inquiry = conversation

    staff = reply(signed_in(staff_user("op2", Role.OPERATOR)), inquiry.pk, "as staff")
    anonymous = reply(Client(), inquiry.pk, "anonymous")

    assert staff.status_code == 403
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
    assert inquiry.messages.count() == 4


def test_csrf_is_enforced_on_a_reply(conversation: tuple[User, Inquiry]) -> None:
    user, inquiry = conversation

    response = reply(signed_in(user, enforce_csrf=True), inquiry.pk, "no token")

    assert response.status_code == 403
    assert inquiry.messages.count() == 4


def test_a_reply_is_post_only(conversation: tuple[User, Inquiry]) -> None:
    user, inquiry = conversation

    assert signed_in(user).get(f"/help/inquiries/{inquiry.pk}/reply").status_code == 405


def test_the_messages_fallback_gives_the_owner_newer_messages_without_notes(
    conversation: tuple[User, Inquiry],
) -> None:
    user, inquiry = conversation
    url = f"/help/inquiries/{inquiry.pk}/messages"
    client = signed_in(user)
    first_id = str(inquiry.messages.order_by("created_at").first().pk)  # type: ignore[union-attr]

    everything = client.get(url).json()["messages"]
    newer = client.get(url, {"after": first_id}).json()["messages"]
    theirs = signed_in(customer_with_login("c2")[0]).get(url)
    broken = client.get(url, {"after": "nope"})

    assert [(m["author_kind"], m["text"], m["author"]) for m in everything] == [
        ("customer", "届きません", None),
        ("ai", "どのご注文ですか?", None),
        ("operator", "担当の者です。", None),
    ]
    assert [m["text"] for m in newer] == ["どのご注文ですか?", "担当の者です。"]
    assert (theirs.status_code, broken.status_code) == (404, 404)
