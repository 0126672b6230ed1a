"""Facts before answers, in the offline model's pure parts: the order a description fits,
the FAQ entry a problem fits, and replies that state only what was read (issue 13, item 3).

Pure: no database. Today is Mon 2025-12-01 in every brief.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from agents.providers.offline.understanding.described import (
    CANCEL_CUE,
    REFUND_CUE,
    describe,
    orders_named_for,
)
from agents.providers.offline.understanding.entities import extract_entities
from agents.providers.offline.writing import write_reply
from agents.providers.offline.writing.faq import choose_entry
from agents.support.grounding.described import DescribedState
from agents.support.grounding.orders import ground_order
from agents.support.vocabulary import Skill
from tests.agents.providers.offline.writing.test_writer import brief, on

PENDING = {
    "number": "ORD-8002",
    "status": "pending",
    "items": ["江戸切子 グラス × 1"],
    "items_en": ["Edo Kiriko Cut-Glass Tumbler × 1"],
    "payment_status": "authorized",
    "shipment_status": None,
}
DELIVERED_TOWEL = {
    "number": "ORD-8001",
    "status": "delivered",
    "items": ["今治 バスタオル × 2"],
    "items_en": ["Imabari Bath Towel × 2"],
    "payment_status": "captured",
    "shipment_status": "delivered",
}
DAMAGED = {
    "id": 2,
    "article": "damaged-item",
    "version": 1,
    "tags": ["damaged"],
    "title": "My item arrived damaged or defective.",
    "body": "Contact us within 30 days of delivery with your order number and a photo of "
    "the damage. We will replace the item or refund it in full.",
    "category": "returns",
}
NOT_RECEIVED = {
    "id": 13,
    "article": "delivered-not-received",
    "version": 1,
    "tags": ["not_received"],
    "title": "My package says delivered but I don't have it.",
    "body": "Please check your delivery box, then contact support within 7 days.",
    "category": "delivery",
}
CANCEL_JA = {
    "id": 29,
    "article": "cancel-order",
    "version": 1,
    "tags": ["order_cancellation"],
    "title": "注文をキャンセルしたい。",
    "body": "発送前のご注文はキャンセルできます。サポートまで注文番号をお知らせください。"
    "カードの与信は解放されます。",
    "category": "orders",
}


# --- Which order the customer means -------------------------------------------------------


def test_an_order_out_for_delivery_is_never_taken_for_a_pending_one() -> None:
    description = describe("It says out for delivery but nothing yet. Please cancel it.")

    choice = ground_order([PENDING, DELIVERED_TOWEL], Skill.CANCEL_ORDER, set(), description)

    assert description.states == {DescribedState.ON_ITS_WAY}
    assert choice.number is None
    assert choice.ambiguous
    assert choice.unmatched


def test_an_item_the_customer_names_picks_the_order_that_holds_it() -> None:
    description = describe("The towel arrived damaged")

    choice = ground_order([PENDING, DELIVERED_TOWEL], Skill.PROCESS_REFUND, set(), description)

    assert (description.item, DescribedState.DELIVERED in description.states) == ("towel", True)
    assert choice.number == "ORD-8001"


def test_an_item_in_none_of_the_orders_is_a_question_not_a_refund() -> None:
    for text in ("扇風機が壊れて届きました", "My fan arrived broken"):
        choice = ground_order(
            [PENDING, DELIVERED_TOWEL], Skill.PROCESS_REFUND, set(), describe(text)
        )

        assert choice.number is None
        assert choice.unmatched
        assert [order["number"] for order in choice.candidates] == ["ORD-8001"]


def test_a_double_charge_without_an_order_asks_which() -> None:
    choice = ground_order([PENDING, DELIVERED_TOWEL], "charged twice", set(), describe("x"))

    assert choice.number is None
    assert [order["number"] for order in choice.candidates] == ["ORD-8002", "ORD-8001"]


def test_a_delivery_the_customer_reports_and_the_words_of_an_item_are_matched() -> None:
    towel = describe("My package was delivered yesterday but the bath towel inside is torn")
    mug = describe("My package was delivered yesterday but the mug inside is cracked")

    assert DescribedState.DELIVERED in towel.states
    assert describe("It hasn't been delivered yet").states == frozenset()
    choice = ground_order([PENDING, DELIVERED_TOWEL], Skill.PROCESS_REFUND, set(), towel)
    assert choice.number == "ORD-8001"
    assert ground_order([PENDING, DELIVERED_TOWEL], Skill.PROCESS_REFUND, set(), mug).unmatched


def test_a_failed_payment_is_never_answered_with_another_orders_payment() -> None:
    description = describe("My card payment failed at checkout")

    choice = ground_order(
        [PENDING, DELIVERED_TOWEL], Skill.CHECK_PAYMENT_STATUS, set(), description
    )

    assert choice.number is None
    assert choice.unmatched


def test_with_several_orders_named_the_one_named_with_the_request_is_meant() -> None:
    text = "ORD-4002 の荷物はどこ？あと ORD-4003 の返金もお願い"

    assert orders_named_for(text, REFUND_CUE) == ["ORD-4003"]
    assert orders_named_for("Where is ORD-8001? Also cancel ORD-8002", CANCEL_CUE) == ["ORD-8002"]
    both = orders_named_for("ORD-4001とORD-4002をキャンセルして", CANCEL_CUE)
    assert both == ["ORD-4001", "ORD-4002"]
    assert orders_named_for("Where is ORD-8001? Also refund ORD-8002", CANCEL_CUE) == []


def test_an_order_number_the_customer_gave_is_never_asked_for() -> None:
    results = on("payment") | on("shipping", track_shipment={"refused": "order_number_required"})

    reply = write_reply(
        brief("ja", "track_shipment", inquiry="ORD-4002とORD-4003の件です", results=results)
    )

    assert "ご注文番号（例: ORD-1234）をお知らせ" not in reply


def test_a_brief_with_nothing_to_say_asks_what_they_need_not_the_order_given() -> None:
    reply = write_reply(brief("en", "get_order_details", inquiry="about ORD-8001"))

    assert "Thank you for your message about order ORD-8001." in reply
    assert "such as the order number" not in reply


# --- Date shifts ----------------------------------------------------------------------------


def test_relative_shifts_of_the_delivery_date_are_read_as_days() -> None:
    shifts = {
        "ORD-4002の配達日を3日うしろにずらしてください": 3,
        "2日遅らせてください": 2,
        "1週間延ばしてほしい": 7,
        "2日早めてください": -2,
        "push it back two days": 2,
        "Could you move the delivery 3 days later?": 3,
        "bring it forward by one day": -1,
        "next Saturday instead": None,
        "3日前に注文しました": None,
    }

    read = {text: extract_entities(text).date_shift_days for text in shifts}

    assert read == shifts


def test_n_days_back_is_a_shift_and_n_days_from_now_a_date() -> None:
    shift = extract_entities("お届けを3日後ろにずらしてください")
    day = extract_entities("3日後に届けてください", today=dt.date(2026, 5, 13))

    assert (shift.dates, shift.date_shift_days) == ([], 3)
    assert (day.dates, day.date_shift_days) == (["2026-05-16"], None)


# --- The FAQ's part -------------------------------------------------------------------------


def test_a_broken_item_never_gets_the_delivered_but_not_received_entry() -> None:
    assert choose_entry([NOT_RECEIVED, DAMAGED], "my fan arrived broken") == DAMAGED
    assert choose_entry([NOT_RECEIVED], "my fan arrived broken") is None
    assert choose_entry([NOT_RECEIVED], "It says delivered but I don't have it") == NOT_RECEIVED


def test_faq_text_is_told_without_its_title_or_asking_for_the_order_given() -> None:
    faq = on("faq", search_faq={"entries": [DAMAGED]})
    reply = write_reply(
        brief("en", "search_faq", inquiry="ORD-8001 arrived damaged, what now?", results=faq)
    )

    assert str(DAMAGED["title"]) not in reply
    assert "order number" not in reply
    assert "About returns, exchanges and refunds:" in reply
    assert "with a photo of the damage" in reply


def test_no_faq_how_to_next_to_the_action_it_describes() -> None:
    pending = [{"kind": "cancel_order", "params": {"order_number": "ORD-4001"}}]
    results = on("faq", search_faq={"entries": [CANCEL_JA]}) | on("order")
    reply = write_reply(
        brief(
            "ja",
            "cancel_order",
            inquiry="ORD-4001をキャンセルしたい",
            results=results,
            pending_actions=pending,
        )
    )

    assert "注文をキャンセルしたい" not in reply
    assert "注文番号をお知らせください" not in reply
    assert "ご注文 ORD-4001のキャンセルのご依頼を承りました" in reply


def test_a_refusal_every_agent_met_is_said_once() -> None:
    refused = {"refused": "order_not_found", "reason": "no order ORD-9999"}
    results = (
        on("order", get_order_details=refused)
        | on("shipping", track_shipment=refused)
        | on("payment", check_payment_status=refused)
    )

    reply = write_reply(
        brief("en", "track_shipment", inquiry="ORD-9999 status and payment?", results=results)
    )

    assert reply.count("We couldn't find order ORD-9999") == 1


# --- Facts as read --------------------------------------------------------------------------


def _payment(gateway: dict[str, Any], payment: dict[str, Any]) -> dict[str, Any]:
    checked = {"payment": payment, "gateway": gateway, "order_number": "ORD-9001"}
    return on("payment", check_payment_status=checked)


def test_a_refund_is_never_stated_as_zero_yen() -> None:
    results = _payment(
        {"status": "refunded", "captured_amount": 5000, "refunded_amount": 0},
        {"method": "card", "status": "refunded", "captured": 5000, "refunded": 0},
    )

    reply = write_reply(brief("en", "check_payment_status", results=results))

    assert "¥0" not in reply
    assert "order ORD-9001 (credit card) has been refunded in full." in reply


def test_a_refund_states_the_amount_the_records_show_when_the_gateway_shows_none() -> None:
    results = _payment(
        {"status": "refunded", "captured_amount": 5000, "refunded_amount": 0},
        {"method": "card", "status": "refunded", "captured": 5000, "refunded": 5000},
    )

    reply = write_reply(brief("ja", "check_payment_status", results=results))

    assert "5,000円を全額返金済みです" in reply
    assert not re.search(r"(?<![\d,])0円", reply)


def test_an_english_reply_names_the_depot_in_english_and_a_japanese_only_place_not_at_all() -> None:
    def tracked(event: dict[str, str]) -> dict[str, Any]:
        tracking = {
            "tracking_number": "4821-7730-1195",
            "carrier": "Yamato",
            "status": "in_transit",
            "events": [{"time": "2025-11-30T19:05:00+09:00", "status": "in_transit", **event}],
        }
        return on("shipping", track_shipment={"tracking": tracking, "order_number": "ORD-4002"})

    named = {"location": "ヤマト運輸 羽田クロノゲート", "location_en": "Haneda Chronogate"}
    english = write_reply(brief("en", "track_shipment", results=tracked(named)))
    japanese = write_reply(brief("ja", "track_shipment", results=tracked(named)))
    unknown = write_reply(brief("en", "track_shipment", results=tracked({"location": "謎の倉庫"})))

    assert "Yamato Transport" in english
    assert "Haneda Chronogate" in english
    assert "ヤマト運輸 羽田クロノゲート" in japanese
    assert "謎の倉庫" not in unknown
    assert "Last update: Sun, Nov 30 at 19:05." in unknown


def test_the_how_to_of_an_action_in_hand_gives_way_to_the_next_article_found() -> None:
    returns = {
        "id": 1,
        "article": "return-policy",
        "version": 1,
        "tags": ["return_policy"],
        "title": "返品はできますか？",
        "body": "商品到着後14日以内で、未使用の商品であれば返品を承ります。",
        "category": "returns",
    }
    pending = [{"kind": "cancel_order", "params": {"order_number": "ORD-4001"}}]
    results = on("faq", search_faq={"entries": [CANCEL_JA, returns]}) | on("order")

    reply = write_reply(
        brief(
            "ja",
            "cancel_order",
            inquiry="ORD-4001をキャンセルして。あと返品は何日以内ですか",
            results=results,
            pending_actions=pending,
        )
    )

    assert "14日以内" in reply
    assert "発送前のご注文はキャンセルできます" not in reply
