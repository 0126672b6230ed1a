"""Requests the shop has no skill for are recognised, and questions about them are not.

Given an address change, an exchange or sending an item back asked for, when classified,
then the classification names the request (a person takes it) and drops the FAQ topic it
resembles; the same topics asked about in general stay FAQ questions.
"""

from __future__ import annotations

import datetime as dt

import pytest

from agents.offline.understanding import classify_text

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "kind", "intent"),
    [
        ("ORD-1002の届け先を変更してほしいです。", "address_change", "contact_human"),
        ("注文した荷物の住所を間違えたので修正してください", "address_change", "contact_human"),
        ("Please change the delivery address for ORD-1002.", "address_change", "contact_human"),
        ("Mサイズに交換してほしいです。ORD-1005", "exchange", "contact_human"),
        ("I would like to exchange ORD-1003 for a bigger size.", "exchange", "contact_human"),
        ("商品を返送したいです", "return_item", "contact_human"),
        ("Can you send me a return label?", "return_item", "contact_human"),
    ],
)
def test_a_request_the_shop_cannot_do_is_named(text: str, kind: str, intent: str) -> None:
    classification = classify_text(text, today=TODAY)

    assert (classification.unsupported_request, classification.intent) == (kind, intent)
    assert "change_delivery_date" not in classification.secondary_intents


@pytest.mark.parametrize(
    "text",
    [
        "サイズが合わなかったので交換できますか？",
        "Can I exchange for a bigger size?",
        "How do I change the email address on my account?",
        "登録住所の変更方法を教えてください",
        "返品したいです。ORD-1003",
    ],
)
def test_questions_about_such_topics_stay_questions(text: str) -> None:
    assert classify_text(text, today=TODAY).unsupported_request is None
