"""Reading a reply as the answer to the shop's question, and what the offline model asks.

Given the question "which order: 1. ORD-4002, 2. ORD-4004", when the customer answers with
an order number, its digits, a position or (one option offered) a yes, then that option is
chosen; anything else chooses none. The question lists the options numbered and says how
to answer in one line, in the customer's language.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import pytest

from agents.providers.offline.understanding.answers import asks_nothing_else, chosen_option
from agents.providers.offline.understanding.claims import says_not_received
from agents.providers.offline.understanding.described import describe
from agents.providers.offline.writing.questions import handover_sentence, write_question
from agents.support.grounding.orders import ground_order

TWO = [{"value": "ORD-4002", "label": "急須"}, {"value": "ORD-4004", "label": "土鍋"}]
THREE = [*TWO, {"value": "ORD-4001", "label": "ほうじ茶"}]


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("ORD-4004", "ORD-4004"),
        ("ord4004", "ORD-4004"),
        ("4004", "ORD-4004"),
        ("４００４です", "ORD-4004"),
        ("2", "ORD-4004"),
        ("2です", "ORD-4004"),
        ("2つ目の方です", "ORD-4004"),
        ("二番目", "ORD-4004"),
        ("1番でお願いします", "ORD-4002"),
        ("the second one", "ORD-4004"),
        ("Yes, the first one.", "ORD-4002"),
        ("option 2 please", "ORD-4004"),
        ("#2", "ORD-4004"),
        ("最後の", "ORD-4004"),
        ("the last one", "ORD-4004"),
        ("一番上のです", "ORD-4002"),
    ],
)
def test_an_order_number_or_a_position_picks_the_option(text: str, chosen: str) -> None:
    assert chosen_option(text, TWO) == chosen


@pytest.mark.parametrize(
    "text",
    [
        "yes",
        "はい",
        "I don't know",
        "3",
        "the third one",
        "ORD-4003",
        "4003",
        "",
        "いいえ",
        "The mug I got last week.",
        "the one from last month",
    ],
)
def test_a_reply_that_names_no_offered_option_picks_none(text: str) -> None:
    assert chosen_option(text, TWO) is None


def test_the_last_of_three_is_the_third() -> None:
    assert chosen_option("一番下", THREE) == "ORD-4001"
    assert chosen_option("the third one", THREE) == "ORD-4001"


@pytest.mark.parametrize("text", ["yes", "Yes, that's right", "はい、それです", "そうです"])
def test_a_yes_confirms_the_one_option_offered(text: str) -> None:
    assert chosen_option(text, TWO[:1]) == "ORD-4002"


@pytest.mark.parametrize("text", ["no", "いいえ、違います", "No, not that one"])
def test_a_no_confirms_nothing(text: str) -> None:
    assert chosen_option(text, TWO[:1]) is None


@pytest.mark.parametrize(
    ("text", "nothing_else"),
    [
        ("It's ORD-4004.", True),
        ("ORD-4004, the towels.", True),
        ("That's ORD-4004, thank you!", True),
        ("ORD-4004です。", True),
        ("ORD-4004の土鍋です、よろしくお願いします", True),
        ("土鍋のほうです", True),
        ("Actually, where is ORD-4004?", False),
        ("Cancel ORD-4004 instead, please", False),
        ("I'd like to know when ORD-4004 ships", False),
        ("ORD-4004の支払い状況を教えてください", False),
        ("ORD-4004をキャンセルしたいです", False),
        ("ORD-4004はいつ届きますか", False),
    ],
)
def test_an_answer_giving_a_detail_asks_nothing_else(text: str, nothing_else: bool) -> None:
    assert asks_nothing_else(text) is nothing_else


def test_no_options_pick_nothing() -> None:
    assert chosen_option("2", []) is None


# --- Which order fits: one, or a question ----------------------------------------------------

C0001: list[Mapping[str, Any]] = [  # newest first, as search_orders returns them
    {"number": "ORD-4001", "status": "pending", "shipment_status": None},
    {"number": "ORD-4002", "status": "shipped", "shipment_status": "in_transit"},
    {"number": "ORD-4004", "status": "shipped", "shipment_status": "absent_returned"},
    {"number": "ORD-4005", "status": "cancelled", "shipment_status": None},
    {"number": "ORD-4003", "status": "delivered", "shipment_status": "delivered"},
]


def numbers(orders: list[Mapping[str, Any]]) -> list[Any]:
    return [order["number"] for order in orders]


def test_two_parcels_on_their_way_make_a_question_about_a_parcel() -> None:
    choice = ground_order(C0001, "track_shipment")

    assert choice.ambiguous
    assert numbers(choice.candidates) == ["ORD-4002", "ORD-4004"]


@pytest.mark.parametrize(
    ("intent", "number"),
    [
        ("arrange_redelivery", "ORD-4004"),
        ("change_delivery_date", "ORD-4002"),
        ("cancel_order", "ORD-4001"),
        ("process_refund", "ORD-4003"),
    ],
)
def test_one_fitting_order_is_the_answer(intent: str, number: str) -> None:
    choice = ground_order(C0001, intent)

    assert (choice.number, choice.ambiguous) == (number, False)


def test_how_my_order_is_doing_with_several_under_way_is_a_question() -> None:
    """Showing the newest of three open orders would be a guess (issue 24, class 5)."""
    choice = ground_order(C0001, "get_order_details")

    assert choice.ambiguous
    assert numbers(choice.candidates) == ["ORD-4001", "ORD-4002", "ORD-4004"]


def test_how_my_order_is_doing_is_the_one_under_way_else_the_latest() -> None:
    assert ground_order(C0001[2:], "get_order_details").number == "ORD-4004"
    assert ground_order(C0001[3:], "get_order_details").number == "ORD-4005"


def test_a_tracking_number_decides_among_several() -> None:
    orders = [{**C0001[1], "tracking_number": "4821-7730-1195"}, C0001[2]]

    assert ground_order(orders, "track_shipment", {"4821-7730-1195"}).number == "ORD-4002"


def test_two_delivered_orders_make_a_question_about_a_refund() -> None:
    orders: list[Mapping[str, Any]] = [
        {"number": "ORD-9001", "status": "delivered"},
        {"number": "ORD-9002", "status": "delivered"},
    ]

    assert numbers(ground_order(orders, "process_refund").candidates) == ["ORD-9001", "ORD-9002"]


def test_no_fitting_order_is_no_choice() -> None:
    choice = ground_order([C0001[3]], "cancel_order")

    assert (choice.number, choice.candidates) == (None, [])


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("My parcel hasn't arrived.", True),
        ("荷物がまだ届きません。", True),
        ("ORD-4003が届いていない", True),
        ("Where is my parcel?", False),
        ("届きました、ありがとう", False),
    ],
)
def test_a_not_arrived_claim_is_recognised(text: str, claims: bool) -> None:
    assert says_not_received(text) is claims


# --- The question -----------------------------------------------------------------------------


def test_the_japanese_question_lists_the_options_and_says_how_to_answer() -> None:
    brief = {"language": "ja", "slot": "order", "options": TWO, "about": "parcel not delivered"}

    assert write_question(brief) == (
        "お問い合わせいただき、ありがとうございます。\n"
        "「お荷物が届いていない」とのこと、どちらのご注文についてでしょうか。\n"
        "1. ORD-4002（急須）\n"
        "2. ORD-4004（土鍋）\n"
        "番号（1、2）または注文番号でお答えください。"
    )


def test_the_english_question_lists_the_options_and_says_how_to_answer() -> None:
    brief = {"language": "en", "slot": "order", "options": THREE, "about": ""}

    assert write_question(brief) == (
        "Thank you for your message.\n"
        "Which order is this about?\n"
        "1. ORD-4002 (急須)\n"
        "2. ORD-4004 (土鍋)\n"
        "3. ORD-4001 (ほうじ茶)\n"
        "Please reply with the number (1, 2 or 3) or the order number."
    )


def test_a_question_without_options_asks_for_the_fact() -> None:
    assert write_question({"language": "en", "slot": "date"}) == (
        "Thank you for your message.\nWhich date would suit you (for example, Dec 5)?"
    )


def test_a_contradicted_claim_is_told_with_the_order_and_who_follows_up() -> None:
    escalation = {"reason": "claim_contradicts_records", "detail": {"order_number": "ORD-4003"}}

    assert handover_sentence("ja", escalation).startswith(
        "ご注文 ORD-4003は配送業者の記録では配達済みとなっておりますが"
    )
    assert handover_sentence("en", {"reason": "tool_failure"}) == ""


def test_today_is_not_needed_to_label_an_option() -> None:
    from agents.providers.offline.turns.choosing import option_label

    order = {
        "items": ["南部鉄器 急須 × 1", "宇治抹茶 × 2"],
        "status": "shipped",
        "shipment_status": "in_transit",
        "placed_at": "2026-11-28T21:05:00+09:00",
    }

    assert (
        option_label(order, "ja", dt.date(2026, 12, 1))
        == "南部鉄器 急須ほか、配送中、11月28日(土)ご注文"
    )


# --- The customer's own facts pick the order (issue 24, class 2) ------------------------------


@pytest.mark.parametrize(
    "text", ["cancel 4003 please", "please cancel 4003, I ordered it twice", "4003をキャンセル。"]
)
def test_a_bare_number_that_is_one_of_theirs_decides_whatever_the_request(text: str) -> None:
    chosen = ground_order(C0001, "cancel_order", reference=describe(text))

    assert chosen.number == "ORD-4003"  # delivered: the cancellation is refused, not moved


@pytest.mark.parametrize("text", ["I paid 4,003 yen", "it was 4003円", "cancel 4003.5"])
def test_a_number_that_is_a_price_or_part_of_one_is_not_an_order(text: str) -> None:
    assert 4003 not in describe(text).numbers


def test_a_bare_number_that_is_none_of_theirs_is_asked_about_never_swapped() -> None:
    """Another customer's number, or a typo: the one pending order is not taken for it."""
    choice = ground_order(C0001, "cancel_order", reference=describe("CANCEL 4009 now!!"))

    assert choice.number is None
    assert choice.ambiguous


def test_an_item_only_one_order_holds_decides() -> None:
    orders: list[Mapping[str, Any]] = [
        {**C0001[1], "items_en": ["Imabari Bath Towel × 2"]},
        {**C0001[4], "items_en": ["Arita Mug × 1"]},
    ]

    assert ground_order(orders, "return_items", reference=describe("return the mug")).number == (
        "ORD-4003"
    )
