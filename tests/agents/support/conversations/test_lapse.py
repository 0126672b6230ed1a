"""A question the customer never answered closes the conversation, politely and once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import Inquiry, InquiryStatus
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.lapse import conversations_lapse
from netshop.models import Customer

pytestmark = pytest.mark.django_db(transaction=True)


def waiting(customer: Customer, *, until: timedelta, language: str = "") -> Inquiry:
    inquiry = inquiry_create(customer=customer, text="荷物が届きません", start=False)
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=InquiryStatus.AWAITING_CUSTOMER,
        awaiting_until=timezone.now() + until,
        language=language,
        turns=1,
    )
    return inquiry


def test_a_lapsed_question_closes_the_conversation_in_the_customers_language(
    customer: Customer,
) -> None:
    japanese = waiting(customer, until=-timedelta(minutes=1), language="ja")
    english = waiting(customer, until=-timedelta(minutes=1), language="en")
    pending = waiting(customer, until=timedelta(hours=1), language="ja")

    closed = conversations_lapse()

    assert sorted(closed) == sorted([str(japanese.pk), str(english.pk)])
    for inquiry, words in ((japanese, "終了"), (english, "closing this conversation")):
        row = Inquiry.objects.get(pk=inquiry.pk)
        assert (row.status, row.awaiting_until) == ("resolved", None)
        last = row.messages.order_by("-created_at").first()
        assert last is not None
        assert (last.author_kind, words in last.text) == ("ai", True)
        assert row.reply == last.text
    assert Inquiry.objects.get(pk=pending.pk).status == "awaiting_customer"
    assert conversations_lapse() == []  # once


def test_a_taken_over_conversation_never_lapses(customer: Customer) -> None:
    from tests.agents.support.conversations.conftest import staff

    inquiry = waiting(customer, until=-timedelta(minutes=1))
    Inquiry.objects.filter(pk=inquiry.pk).update(human_owner=staff("carol"))

    assert conversations_lapse() == []
    assert inquiry.messages.count() == 1


def test_after_a_lapse_the_next_message_answers_no_question(customer: Customer) -> None:
    from agents.support.conversations.thread import turn_input
    from agents.team.runs.driver import inquiry_advance

    inquiry = inquiry_create(customer=customer, text="荷物がまだ届きません", start=False)
    inquiry_advance(inquiry_id=str(inquiry.pk))
    asked = Inquiry.objects.get(pk=inquiry.pk)
    assert asked.status == "awaiting_customer"
    assert turn_input(inquiry=asked, turn=2)["question_open"] is True

    Inquiry.objects.filter(pk=inquiry.pk).update(awaiting_until=timezone.now())
    conversations_lapse()

    assert turn_input(inquiry=Inquiry.objects.get(pk=inquiry.pk), turn=2)["question_open"] is False
