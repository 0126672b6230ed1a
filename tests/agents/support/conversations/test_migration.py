"""Existing inquiries become one-message conversations (migration 0004)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from agents.models import Inquiry, InquiryStatus, Message
from netshop.models import Customer

pytestmark = pytest.mark.django_db

migration = importlib.import_module("agents.migrations.0004_conversations")


def test_each_inquiry_gets_its_message_and_its_reply(customer: Customer) -> None:
    answered = Inquiry.objects.create(
        customer=customer, text="where is it?", reply="on its way", status=InquiryStatus.RESOLVED
    )
    taken = Inquiry.objects.create(
        customer=customer, text="help", reply="I'm on it", status=InquiryStatus.HANDLED_BY_HUMAN
    )
    unanswered = Inquiry.objects.create(customer=customer, text="hello")

    migration.one_message_conversations(apps, None)

    def rows(inquiry: Inquiry) -> list[tuple[str, str, int | None, str | None]]:
        messages = Message.objects.filter(inquiry=inquiry).order_by("created_at")
        return [(m.author_kind, m.text, m.turn, m.thread_id) for m in messages]

    assert rows(answered) == [
        ("customer", "where is it?", 1, f"{answered.pk}:inquiry"),
        ("ai", "on its way", 1, f"{answered.pk}:reply"),
    ]
    assert [kind for kind, *_ in rows(taken)] == ["customer", "operator"]
    assert rows(unanswered) == [("customer", "hello", 1, f"{unanswered.pk}:inquiry")]
    assert Inquiry.objects.get(pk=answered.pk).turns == 1
