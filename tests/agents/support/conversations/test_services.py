"""Conversation services: customers write, people take over, converse, note and hand back.

Given a demo customer's conversation, when customers and operators act on it, then every
message is stored once with its author, the AI stays silent while a person owns it, and every
refusal leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agents.models import Escalation, Inquiry, Message
from agents.support.conversations import services
from agents.support.conversations.selectors import thread_messages
from agents.support.escalations.review_flags import conversation_flag
from agents.support.vocabulary import FLAGGED_FOR_REVIEW
from agents.team.runs.driver import inquiry_advance
from netshop.errors import DomainError
from netshop.models import Customer
from netshop.roles import Role
from tests.agents.support.conversations.conftest import fresh, staff, thread
from tests.support.scenarios import SupportShop

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def follow_up(shop: SupportShop) -> str:
    """Hanako asks next how her parcel in transit was paid."""
    return f"{shop.hanako.in_transit.number}の支払い状況も教えてください。"


@pytest.fixture
def answered(where_is_it: str, conversation: Callable[[str], Inquiry]) -> Inquiry:
    return conversation(where_is_it)


def post(customer: Customer, inquiry: Inquiry, text: str, key: str | None = None) -> Message:
    return services.customer_message_post(
        customer=customer, inquiry_id=inquiry.pk, text=text, idempotency_key=key
    )


def test_an_idempotency_key_replayed_returns_the_same_message(
    follow_up: str, answered: Inquiry, customer: Customer
) -> None:
    first = post(customer, answered, follow_up, key="k-1")
    again = post(customer, answered, follow_up, key="k-1")

    assert again.pk == first.pk
    assert answered.messages.filter(author_kind="customer").count() == 2


def test_a_key_reused_for_another_text_is_refused_and_stores_nothing(
    follow_up: str, answered: Inquiry, customer: Customer
) -> None:
    post(customer, answered, follow_up, key="k-1")

    with pytest.raises(DomainError) as refused:
        post(customer, answered, "something else", key="k-1")

    assert refused.value.code == "message_key_reused"
    assert answered.messages.filter(author_kind="customer").count() == 2


@pytest.mark.parametrize("text", ["", "   ", "\u200b\n"])
def test_a_blank_message_is_refused_and_stores_nothing(
    answered: Inquiry, customer: Customer, text: str
) -> None:
    with pytest.raises(DomainError) as refused:
        post(customer, answered, text)

    assert refused.value.code == "blank_text"
    assert answered.messages.count() == 2


def test_another_customers_conversation_is_not_found(
    shop: SupportShop, follow_up: str, answered: Inquiry
) -> None:
    stranger = shop.emily.customer

    with pytest.raises(DomainError) as refused:
        post(stranger, answered, follow_up)

    assert refused.value.code == "inquiry_not_found"
    assert answered.messages.count() == 2


def test_a_reply_within_the_reopen_window_reopens_the_conversation(
    follow_up: str, answered: Inquiry, customer: Customer, settings: object
) -> None:
    Inquiry.objects.filter(pk=answered.pk).update(resolved_at=timezone.now() - timedelta(days=6))

    message = post(customer, answered, follow_up)

    assert message.inquiry_id == answered.pk
    assert fresh(answered).status == "queued"


def test_a_reply_after_the_reopen_window_starts_a_new_conversation(
    follow_up: str, answered: Inquiry, customer: Customer
) -> None:
    Inquiry.objects.filter(pk=answered.pk).update(resolved_at=timezone.now() - timedelta(days=8))

    message = post(customer, answered, follow_up)

    assert message.inquiry_id != answered.pk
    started = message.inquiry
    assert (started.text, started.customer_id, started.status) == (follow_up, customer.pk, "queued")
    assert fresh(answered).status == "resolved"
    assert answered.messages.count() == 2


def test_while_a_person_owns_it_the_ai_sends_nothing(
    follow_up: str, answered: Inquiry, customer: Customer, alice: User
) -> None:
    services.conversation_take_over(inquiry_id=answered.pk, user=alice)

    post(customer, answered, follow_up)
    inquiry_advance(inquiry_id=str(answered.pk))

    inquiry = fresh(answered)
    assert (inquiry.status, inquiry.human_owner) == ("handled_by_human", alice)
    assert thread(inquiry) == [("customer", 1), ("ai", 1), ("customer", None)]


def test_an_operator_converses_notes_and_hands_back_and_the_ai_answers_next(
    follow_up: str, answered: Inquiry, customer: Customer, alice: User
) -> None:
    services.conversation_take_over(inquiry_id=answered.pk, user=alice)
    services.operator_message_send(inquiry_id=answered.pk, user=alice, text="確認いたします。")
    services.note_add(inquiry_id=answered.pk, user=alice, text="carrier called, parcel ok")
    services.operator_message_send(inquiry_id=answered.pk, user=alice, text="明日届く予定です。")
    services.conversation_hand_back(inquiry_id=answered.pk, user=alice)
    assert fresh(answered).status == "awaiting_customer"

    post(customer, answered, follow_up)
    inquiry_advance(inquiry_id=str(answered.pk))

    inquiry = fresh(answered)
    assert (inquiry.status, inquiry.human_owner, inquiry.turns) == ("resolved", None, 2)
    assert thread(inquiry) == [
        ("customer", 1),
        ("ai", 1),
        ("operator", 2),
        ("note", None),
        ("operator", 2),
        ("customer", 2),
        ("ai", 2),
    ]
    customer_view = [m.author_kind for m in thread_messages(inquiry=inquiry, for_staff=False)]
    assert "note" not in customer_view
    assert inquiry.messages.get(author_kind="note").author == alice


def test_a_hand_back_answers_a_message_that_came_while_a_person_owned_it(
    follow_up: str, answered: Inquiry, customer: Customer, alice: User
) -> None:
    services.conversation_take_over(inquiry_id=answered.pk, user=alice)
    services.operator_message_send(inquiry_id=answered.pk, user=alice, text="確認いたします。")
    post(customer, answered, follow_up)

    services.conversation_hand_back(inquiry_id=answered.pk, user=alice)
    inquiry_advance(inquiry_id=str(answered.pk))

    assert thread(fresh(answered))[-2:] == [("customer", 2), ("ai", 2)]


def test_only_the_owner_writes_to_the_customer(answered: Inquiry, alice: User, bob: User) -> None:
    with pytest.raises(DomainError) as not_owned:
        services.operator_message_send(inquiry_id=answered.pk, user=alice, text="hello")
    services.conversation_take_over(inquiry_id=answered.pk, user=alice)
    with pytest.raises(DomainError) as other:
        services.operator_message_send(inquiry_id=answered.pk, user=bob, text="hello")
    with pytest.raises(DomainError) as twice:
        services.conversation_take_over(inquiry_id=answered.pk, user=bob)
    with pytest.raises(DomainError) as hand_back:
        services.conversation_hand_back(inquiry_id=answered.pk, user=bob)

    assert [e.value.code for e in (not_owned, other, twice, hand_back)] == [
        "not_human_owned",
        "owned_by_other",
        "already_human_owned",
        "owned_by_other",
    ]
    assert fresh(answered).human_owner == alice
    assert answered.messages.filter(author_kind="operator").count() == 0


def test_closing_resolves_and_releases(answered: Inquiry, alice: User) -> None:
    services.conversation_take_over(inquiry_id=answered.pk, user=alice)

    services.conversation_close(inquiry_id=answered.pk, user=alice)

    inquiry = fresh(answered)
    assert (inquiry.status, inquiry.human_owner) == ("resolved", None)
    assert inquiry.resolved_at is not None


def test_a_flag_puts_an_ai_resolved_conversation_in_the_queue_once(answered: Inquiry) -> None:
    lead = staff("lead", Role.MANAGER)

    conversation_flag(inquiry_id=answered.pk, user=lead, reason="tone")
    with pytest.raises(DomainError) as again:
        conversation_flag(inquiry_id=answered.pk, user=lead, reason="tone")

    assert again.value.code == "already_flagged"
    review = Escalation.objects.get(inquiry=answered, reason=FLAGGED_FOR_REVIEW)
    assert (review.kind, review.status) == ("review", "open")


def test_a_conversation_a_person_answered_cannot_be_flagged(answered: Inquiry, alice: User) -> None:
    services.conversation_take_over(inquiry_id=answered.pk, user=alice)
    services.operator_message_send(inquiry_id=answered.pk, user=alice, text="done")
    services.conversation_close(inquiry_id=answered.pk, user=alice)

    with pytest.raises(DomainError) as refused:
        conversation_flag(inquiry_id=answered.pk, user=alice, reason="x")

    assert refused.value.code == "not_ai_resolved"
    assert not Escalation.objects.filter(inquiry=answered, reason=FLAGGED_FOR_REVIEW).exists()
