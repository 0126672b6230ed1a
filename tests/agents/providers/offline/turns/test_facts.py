"""The offline specialists' turns act only on the facts at hand (issue 13, item 3).

Given a specialist's context as the supervisor writes it (the intent the router chose, the
entities, the Order agent's facts), the next turn's tool calls: the order the customer
meant, a referral when their claim contradicts the facts, a refused reissue. Pure: no
database, no router; each test sets the intent it is about.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import HumanMessage

from agents.contract.tools import ASK_CUSTOMER, REFER_TO_PERSON
from agents.providers.offline import turns
from agents.support.vocabulary import Skill

PAYMENT_TOOLS = {"check_payment_status", Skill.PROCESS_REFUND, "apply_coupon", ASK_CUSTOMER}
PAYMENT_TOOLS |= {REFER_TO_PERSON}
SHIPPING_TOOLS = {"track_shipment", "arrange_redelivery", "change_delivery_date", ASK_CUSTOMER}
IN_TRANSIT = {
    "number": "ORD-4002",
    "status": "shipped",
    "lines": [{"name": "南部鉄器 急須 0.65L", "name_en": "Nambu Cast-Iron Teapot 0.65 L"}],
    "shipment": {"status": "in_transit", "scheduled_date": "2025-12-04"},
}
DELIVERED = {
    "number": "ORD-4003",
    "status": "delivered",
    "lines": [{"name": "堺打刃物 三徳包丁 18cm", "name_en": "Sakai Santoku Knife 18 cm"}],
    "shipment": {"status": "delivered", "scheduled_date": "2025-11-26"},
}


def turn(tools: set[str], inquiry: str, intent: str, **context: Any) -> list[tuple[str, dict]]:
    entities = context.pop("entities", {})
    block = {"intent": intent, "entities": entities, "language": "ja", **context}
    prompt = f"<context>{json.dumps(block)}</context>\n<inquiry>{inquiry}</inquiry>"
    message = turns.next_turn([HumanMessage(prompt)], tools)
    return [(call["name"], call["args"]) for call in message.tool_calls]


def test_a_coupon_asked_for_in_place_of_an_expired_one_is_asked_as_a_reissue() -> None:
    [(name, args)] = turn(PAYMENT_TOOLS, "期限切れのクーポンを再発行してください", "apply_coupon")

    assert name == "apply_coupon"
    assert args["replaces_expired"] is True


def test_an_apology_coupon_for_a_late_delivery_is_not_a_reissue() -> None:
    [(_, args)] = turn(PAYMENT_TOOLS, "配達が遅れたのでクーポンをください", "apply_coupon")

    assert "replaces_expired" not in args


def test_a_refund_for_a_broken_item_on_a_parcel_still_on_its_way_is_referred() -> None:
    calls = turn(
        PAYMENT_TOOLS,
        "ORD-4002が壊れて届きました。返金してください",
        Skill.PROCESS_REFUND,
        order=IN_TRANSIT,
        entities={"order_numbers": ["ORD-4002"]},
    )

    [(name, args)] = calls
    assert (name, args["claim"], args["order_number"]) == (
        REFER_TO_PERSON,
        "damaged_not_delivered",
        "ORD-4002",
    )


def test_a_refund_for_an_item_the_order_does_not_hold_is_referred() -> None:
    [(name, args)] = turn(
        PAYMENT_TOOLS,
        "ORD-4003の扇風機が壊れていました",
        Skill.PROCESS_REFUND,
        order=DELIVERED,
        entities={"order_numbers": ["ORD-4003"]},
    )

    assert (name, args["claim"]) == (REFER_TO_PERSON, "item_not_in_order")


def test_a_refund_for_the_item_the_order_holds_is_proposed() -> None:
    [(name, args)] = turn(
        PAYMENT_TOOLS,
        "ORD-4003の包丁が欠けていました",
        Skill.PROCESS_REFUND,
        order=DELIVERED,
        entities={"order_numbers": ["ORD-4003"]},
    )

    assert (name, args["order_number"], args["reason"]) == (
        Skill.PROCESS_REFUND,
        "ORD-4003",
        "damaged item",
    )


def test_a_refund_goes_to_the_order_named_with_it() -> None:
    [(name, args)] = turn(
        PAYMENT_TOOLS,
        "ORD-4002の配送状況を教えて。あと、ORD-4003の返金をお願いします",
        Skill.PROCESS_REFUND,
        order=IN_TRANSIT,
        entities={"order_numbers": ["ORD-4002", "ORD-4003"]},
    )

    assert (name, args["order_number"]) == (Skill.PROCESS_REFUND, "ORD-4003")


def test_a_refund_with_two_orders_named_and_neither_said_is_a_question() -> None:
    [(name, args)] = turn(
        PAYMENT_TOOLS,
        "ORD-4002とORD-4003の件でお金を戻してほしい",
        Skill.PROCESS_REFUND,
        order=IN_TRANSIT,
        entities={"order_numbers": ["ORD-4002", "ORD-4003"]},
    )

    assert name == ASK_CUSTOMER
    assert [option["value"] for option in args["options"]] == ["ORD-4002", "ORD-4003"]


def test_a_shift_of_the_delivery_date_counts_from_the_scheduled_date() -> None:
    [(name, args)] = turn(
        SHIPPING_TOOLS,
        "3日うしろにずらしてください",
        "change_delivery_date",
        order=IN_TRANSIT,
        entities={"order_numbers": ["ORD-4002"], "date_shift_days": 3},
    )

    assert (name, args) == (
        "change_delivery_date",
        {"order_number": "ORD-4002", "new_date": "2025-12-07"},
    )


def test_a_date_change_without_a_date_asks_for_one() -> None:
    [(name, args)] = turn(
        SHIPPING_TOOLS,
        "配達日を変更したいです",
        "change_delivery_date",
        order=IN_TRANSIT,
        entities={"order_numbers": ["ORD-4002"]},
    )

    assert (name, args["slot"]) == (ASK_CUSTOMER, "date")


def test_the_item_named_beside_the_broken_part_is_the_orders_so_the_refund_is_proposed() -> None:
    """「三徳包丁ですが…刃先が欠けて」: the part (刃先) is read as the item, the knife is named."""
    [(name, args)] = turn(
        PAYMENT_TOOLS,
        "ORD-4003の三徳包丁ですが、箱を開けたら刃先が欠けておりました。返金してください",
        Skill.PROCESS_REFUND,
        order=DELIVERED,
        entities={"order_numbers": ["ORD-4003"]},
    )

    assert (name, args["order_number"]) == (Skill.PROCESS_REFUND, "ORD-4003")
