"""The offline supervisor on a later turn: answers, corrections, additions, new requests.

Given the shop asked which order a "parcel not arrived" request is about, when the customer
answers, corrects or adds, then the earlier request's intent is kept with the new order;
a message with a request of its own is classified on its own.
"""

from __future__ import annotations

import datetime as dt

import pytest

from agents.providers.offline.understanding import classify_text
from agents.providers.offline.understanding.followup import (
    classify_turn,
    earlier_request,
    has_own_intent,
)

TODAY = dt.date(2026, 12, 1)
QUESTION = {
    "slot": "order",
    "request": "My parcel hasn't arrived.",
    "intent": "track_shipment",
    "options": [{"value": "ORD-4002", "label": ""}, {"value": "ORD-4004", "label": ""}],
}
QUESTION_JA = {**QUESTION, "request": "荷物がまだ届きません。"}


@pytest.mark.parametrize(
    ("text", "question", "order", "language"),
    [
        ("ORD-4004", QUESTION, "ORD-4004", "en"),
        ("4004", QUESTION, "ORD-4004", "en"),
        ("the second one", QUESTION, "ORD-4004", "en"),
        ("2", QUESTION_JA, "ORD-4004", "ja"),
        ("2つ目の方です", QUESTION_JA, "ORD-4004", "ja"),
        ("二番目です", QUESTION_JA, "ORD-4004", "ja"),
        ("no, I meant ORD-4003", QUESTION, "ORD-4003", "en"),
        ("いえ、ORD-4003の方です", QUESTION_JA, "ORD-4003", "ja"),
    ],
)
def test_an_answer_keeps_the_request_with_the_chosen_order(
    text: str, question: dict[str, object], order: str, language: str
) -> None:
    classification = classify_turn(text, question=question, today=TODAY)

    assert classification.intent == "track_shipment"
    assert classification.agents == ["order", "shipping"]
    assert classification.entities.order_numbers == [order]
    assert classification.language == language


def test_a_reply_that_answers_nothing_keeps_the_request_without_an_order() -> None:
    classification = classify_turn("hmm", question=QUESTION, today=TODAY)

    assert (classification.intent, classification.entities.order_numbers) == (
        "track_shipment",
        [],
    )


def test_a_new_request_is_classified_on_its_own() -> None:
    classification = classify_turn("I want to cancel ORD-4001", question=QUESTION, today=TODAY)

    assert (classification.intent, classification.entities.order_numbers) == (
        "cancel_order",
        ["ORD-4001"],
    )


CONVERSATION = [
    {"from": "customer", "text": "Where is ORD-4002?"},
    {"from": "shop", "text": "Order ORD-4002 is in transit."},
]


def test_a_correction_after_an_answer_takes_the_earlier_intent() -> None:
    classification = classify_turn(
        "Sorry, I meant ORD-4004", conversation=CONVERSATION, today=TODAY
    )

    assert (classification.intent, classification.entities.order_numbers) == (
        "track_shipment",
        ["ORD-4004"],
    )


def test_an_addition_without_a_request_takes_the_earlier_intent_in_japanese() -> None:
    conversation = [{"from": "customer", "text": "ORD-4002はいつ届きますか？"}]

    classification = classify_turn("あと、ORD-4004も", conversation=conversation, today=TODAY)

    assert (classification.intent, classification.entities.order_numbers) == (
        "track_shipment",
        ["ORD-4004"],
    )
    assert classification.language == "ja"


def test_an_addition_with_its_own_request_keeps_the_earlier_order() -> None:
    classification = classify_turn(
        "Also, please cancel it.",
        conversation=[{"from": "customer", "text": "What is in ORD-4001?"}],
        today=TODAY,
    )

    assert (classification.intent, classification.entities.order_numbers) == (
        "cancel_order",
        ["ORD-4001"],
    )


def test_a_first_message_is_classified_as_it_stands() -> None:
    assert classify_turn("ORD-4004", today=TODAY).intent == "get_order_details"


def test_the_earlier_request_is_the_question_s_or_the_last_that_asked() -> None:
    conversation = [
        {"from": "customer", "text": "Where is ORD-4002?"},
        {"from": "customer", "text": "thanks"},
    ]

    assert earlier_request(QUESTION, conversation) == "My parcel hasn't arrived."
    assert earlier_request(None, conversation) == "Where is ORD-4002?"
    assert earlier_request(None, []) is None


@pytest.mark.parametrize(
    ("text", "own"),
    [("2つ目の方です", False), ("yes", False), ("ORD-4003", False), ("返金してほしい", True)],
)
def test_what_has_an_intent_of_its_own(text: str, own: bool) -> None:
    assert has_own_intent(text) is own


@pytest.mark.parametrize(
    ("request_text", "text"),
    [
        ("ORD-4011のお届け先を変更したいです。", "〒104-0061 東京都中央区銀座1-2-3です"),
        (
            "I'd like to change the delivery address of ORD-4011.",
            "1-2-3 Ginza, Chuo-ku, Tokyo 104-0061",
        ),
    ],
)
def test_the_address_the_shop_asked_for_answers_the_request_about_the_same_order(
    request_text: str, text: str
) -> None:
    question = {"slot": "address", "request": request_text, "intent": "change_shipping_address"}
    earlier = classify_text(request_text, today=TODAY)

    classification = classify_turn(text, question=question, today=TODAY)

    assert (classification.intent, classification.agents) == (earlier.intent, earlier.agents)
    assert classification.entities.order_numbers == ["ORD-4011"]


# The shop asked which order a refund for a damaged item is about, with or without options.
REFUND = {
    "slot": "order",
    "why": "missing",
    "options": [],
    "request": "The kettle I ordered came dented, I'd like my money back.",
    "intent": "process_refund",
}
REFUND_JA = {**REFUND, "request": "届いた商品が壊れていたので返金してください。"}
REFUND_OFFERED = {**REFUND, "why": "ambiguous", "options": QUESTION["options"]}


@pytest.mark.parametrize(
    ("text", "question", "orders", "language"),
    [
        ("It's ORD-4002.", REFUND, ["ORD-4002"], "en"),
        ("ORD-4002, please.", REFUND, ["ORD-4002"], "en"),
        ("It's ORD-4002, the towels.", REFUND_OFFERED, ["ORD-4002"], "en"),
        ("ORD-4002 - the bath towels.", REFUND, ["ORD-4002"], "en"),
        ("Sorry, it's ORD-4002 (the kitchen knife).", REFUND_OFFERED, ["ORD-4002"], "en"),
        ("Oh it's ORD-4007 - the kettle I got in November", REFUND, ["ORD-4007"], "en"),
        ("Its ORD-4007", REFUND_OFFERED, ["ORD-4007"], "en"),
        ("the towels", REFUND, [], "en"),
        ("The mug I got last week.", REFUND_OFFERED, [], "en"),
        ("ORD-4002です。", REFUND_JA, ["ORD-4002"], "ja"),
        ("すみません、ORD-4002のマグカップです。", REFUND_JA, ["ORD-4002"], "ja"),
        ("ORD-4002です。タオルのほうです。よろしくお願いします。", REFUND_JA, ["ORD-4002"], "ja"),
        ("ORD-4007でお願いします", {**REFUND_OFFERED, **REFUND_JA}, ["ORD-4007"], "ja"),
        ("月曜に届いたORD-4007のタオルです", REFUND_JA, ["ORD-4007"], "ja"),
        ("タオルの方です", REFUND_JA, [], "ja"),
    ],
)
def test_an_answer_giving_the_order_or_the_item_continues_the_refund(
    text: str, question: dict[str, object], orders: list[str], language: str
) -> None:
    classification = classify_turn(text, question=question, today=TODAY)

    assert classification.intent == "process_refund"
    assert classification.entities.order_numbers == orders
    assert classification.language == language


@pytest.mark.parametrize(
    ("text", "question", "intent", "orders"),
    [
        ("Actually, where is ORD-4002?", REFUND_OFFERED, "track_shipment", ["ORD-4002"]),
        ("Forget it, cancel ORD-4001 instead", REFUND, "cancel_order", ["ORD-4001"]),
        ("ORD-4007 - can you track it?", REFUND, "track_shipment", ["ORD-4007"]),
        ("Need the receipt of ORD-4007 emailed, thanks", REFUND, "issue_receipt", ["ORD-4007"]),
        ("やっぱりORD-4001をキャンセルしてください", REFUND_JA, "cancel_order", ["ORD-4001"]),
        ("ORD-4002の支払い状況を教えてください", REFUND_JA, "check_payment_status", ["ORD-4002"]),
        ("ORD-4007はまだ届いていません", REFUND_JA, "track_shipment", ["ORD-4007"]),
    ],
)
def test_a_reply_stating_a_new_request_is_read_as_the_new_request(
    text: str, question: dict[str, object], intent: str, orders: list[str]
) -> None:
    classification = classify_turn(text, question=question, today=TODAY)

    assert (classification.intent, classification.entities.order_numbers) == (intent, orders)


def test_a_named_order_answering_what_is_needed_is_read_as_said() -> None:
    question = {**REFUND, "slot": "request"}

    classification = classify_turn("It's ORD-4002.", question=question, today=TODAY)

    assert classification.intent == classify_text("It's ORD-4002.", today=TODAY).intent
