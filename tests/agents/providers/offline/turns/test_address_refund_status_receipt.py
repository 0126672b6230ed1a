"""The offline model's choice of tool for the address change, the refund status and the receipt.

Pure: the specialist's messages are built as the delegation builds them, no database.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage

from agents.contract.schemas import Handoff
from agents.providers.offline import turns
from agents.providers.offline.understanding.addressee import find_addressee
from agents.team.graph.delegation import specialist_messages
from agents.team.specialists import SPECIALISTS

PREPARING = {"number": "ORD-4011", "status": "confirmed", "shipment": {"status": "preparing"}}
IN_TRANSIT = {"number": "ORD-4002", "status": "shipped", "shipment": {"status": "in_transit"}}


def turn(
    agent: str, intent: str, text: str, order: dict[str, Any] | None, results: dict | None = None
) -> AIMessage:
    context: dict[str, Any] = {"customer_id": "C0001", "language": "ja", "entities": {}}
    if order is not None:
        context["order"] = order
    handoff = Handoff(
        agent=agent,  # type: ignore[arg-type]
        customer_id="C0001",
        instruction=f"task: {intent}.\nThe customer wrote:\n<inquiry>\n{text}\n</inquiry>",
        intent=intent,
        context=context,
    )
    messages = specialist_messages(handoff)
    for name, result in (results or {}).items():
        messages.append(AIMessage("", tool_calls=[{"name": name, "args": {}, "id": f"c_{name}"}]))
        messages.append(ToolMessage(json.dumps(result), tool_call_id=f"c_{name}", name=name))
    tools = {tool.name for tool in SPECIALISTS[agent].tools}  # type: ignore[index]
    return turns.next_turn(messages, tools)


def calls(message: AIMessage) -> list[tuple[str, dict[str, Any]]]:
    return [(call["name"], call["args"]) for call in message.tool_calls]


# --- change_shipping_address ---------------------------------------------------------------


def test_a_complete_address_in_the_message_is_sent_to_the_carrier() -> None:
    text = "ORD-4011のお届け先を〒104-0061 東京都中央区銀座1-2-3に変更してください"

    message = turn("shipping", "change_shipping_address", text, PREPARING)

    assert calls(message) == [
        (
            "change_shipping_address",
            {
                "order_number": "ORD-4011",
                "postal_code": "104-0061",
                "prefecture": "東京都",
                "address_line": "中央区銀座1-2-3",
            },
        )
    ]


def test_an_english_address_is_read_too() -> None:
    text = "Please send ORD-4011 to 1-2-3 Ginza, Chuo-ku, Tokyo 104-0061 instead."

    [(name, args)] = calls(turn("shipping", "change_shipping_address", text, PREPARING))

    assert (name, args["prefecture"], args["address_line"]) == (
        "change_shipping_address",
        "東京都",
        "1-2-3 Ginza, Chuo-ku",
    )


def test_no_address_given_asks_for_it_and_changes_nothing() -> None:
    message = turn("shipping", "change_shipping_address", "届け先を変更したいです", PREPARING)

    assert calls(message) == [
        (
            "ask_customer",
            {"slot": "address", "why": "missing", "about": "new delivery address"},
        )
    ]


def test_a_parcel_on_its_way_is_put_to_the_shop_without_asking_for_an_address() -> None:
    message = turn("shipping", "change_shipping_address", "住所を変えたい", IN_TRANSIT)

    [(name, args)] = calls(message)
    assert (name, args["order_number"], args["postal_code"]) == (
        "change_shipping_address",
        "ORD-4002",
        "",
    )


def test_without_an_order_nothing_is_called() -> None:
    assert calls(turn("shipping", "change_shipping_address", "住所を変えたい", None)) == []


def test_after_the_change_the_agent_stops() -> None:
    done = {"change_shipping_address": {"address_change": {"order_number": "ORD-4011"}}}
    text = "〒104-0061 東京都中央区銀座1-2-3"

    message = turn("shipping", "change_shipping_address", text, PREPARING, done)

    assert calls(message) == []


# --- refund_status and issue_receipt -------------------------------------------------------


def test_has_my_refund_been_processed_reads_and_never_refunds() -> None:
    order = {"number": "ORD-4012", "status": "cancelled"}

    message = turn("payment", "refund_status", "返金はもう済んでいますか？", order)

    assert calls(message) == [("refund_status", {"order_number": "ORD-4012"})]


def test_a_receipt_goes_to_the_name_asked_for() -> None:
    order = {"number": "ORD-4003", "status": "delivered"}
    text = "ORD-4003の領収書を発行してもらえますか。宛名は株式会社サンプルにしてください。"

    message = turn("payment", "issue_receipt", text, order)

    assert calls(message) == [
        ("issue_receipt", {"order_number": "ORD-4003", "addressee": "株式会社サンプル"})
    ]


def test_a_receipt_without_a_name_leaves_it_to_the_shop() -> None:
    order = {"number": "ORD-8001", "status": "delivered"}

    message = turn("payment", "issue_receipt", "Can I get a receipt for ORD-8001?", order)

    assert calls(message) == [("issue_receipt", {"order_number": "ORD-8001"})]


def test_addressees_in_both_languages() -> None:
    assert find_addressee("宛名：山田商店") == "山田商店"
    assert find_addressee("宛名は「株式会社サンプル」にしてください") == "株式会社サンプル"
    assert find_addressee("株式会社サンプル宛で領収書をください") == "株式会社サンプル"
    assert find_addressee("宛名は山田花子様でお願いします") == "山田花子"
    assert find_addressee("Receipt addressed to Acme Trading Inc.?") == "Acme Trading Inc."
    assert find_addressee("an invoice made out to Harbour Lane Studio, thanks") == (
        "Harbour Lane Studio"
    )
    assert find_addressee("領収書をお願いします") == ""
    assert find_addressee("I need a receipt for ORD-8001 please") == ""
