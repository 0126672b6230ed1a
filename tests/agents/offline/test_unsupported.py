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
    ("text", "kind", "agents"),
    [
        ("ORD-1002の届け先を変更してほしいです。", "address_change", ["order", "shipping"]),
        (
            "注文した荷物の住所を間違えたので修正してください",
            "address_change",
            ["order", "shipping"],
        ),
        (
            "Please change the delivery address for ORD-1002.",
            "address_change",
            ["order", "shipping"],
        ),
        ("Mサイズに交換してほしいです。ORD-1005", "exchange", ["order"]),
        ("I would like to exchange ORD-1003 for a bigger size.", "exchange", ["order"]),
        ("商品を返送したいです", "return_item", ["order"]),
        ("Can you send me a return label?", "return_item", ["order"]),
    ],
)
def test_a_request_the_shop_cannot_do_is_named_and_its_facts_looked_up(
    text: str, kind: str, agents: list[str]
) -> None:
    """A person handles it; the order (and an address change's parcel) are looked up first,
    read-only, so the hand-off package holds what they need."""
    classification = classify_text(text, today=TODAY)

    assert (classification.unsupported_request, classification.agents) == (kind, agents)
    assert classification.intent == "get_order_details"
    assert "change_delivery_date" not in classification.secondary_intents
    assert "process_refund" not in classification.secondary_intents


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
