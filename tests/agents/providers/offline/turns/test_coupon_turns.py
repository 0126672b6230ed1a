"""The Order agent's part in a coupon request: an order named is looked up, none is searched
for or asked about (the shop looks for the cause in every order itself). The Payment agent's
part in a coupon that would not apply: the shop's conditions looked up in its help. Pure."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline import turns

ORDER_TOOLS = {"search_orders", "get_order_details", "cancel_order", ASK_CUSTOMER}


def order_turn(inquiry: str, **entities: Any) -> list[tuple[str, dict[str, Any]]]:
    block = {
        "intent": "get_order_details",
        "inquiry_intent": "apply_coupon",
        "entities": entities,
        "language": "ja",
    }
    prompt = f"<context>{json.dumps(block)}</context>\n<inquiry>{inquiry}</inquiry>"
    message = turns.next_turn([HumanMessage(prompt)], ORDER_TOOLS)
    return [(call["name"], call["args"]) for call in message.tool_calls]


@pytest.mark.parametrize(
    "inquiry",
    ["何かクーポンをもらえませんか", "Could I have a discount code?", "配達が遅れたのでお詫びを"],
)
def test_no_order_named_no_search_and_no_question(inquiry: str) -> None:
    assert order_turn(inquiry) == []


def test_the_order_named_is_looked_up() -> None:
    calls = order_turn("ORD-8150が持ち戻りになりました。補償は？", order_numbers=["ORD-8150"])

    assert calls == [("get_order_details", {"order_number": "ORD-8150"})]


PAYMENT_TOOLS = {"check_payment_status", "process_refund", "apply_coupon", "search_faq"}


def payment_turn(inquiry: str, language: str, **entities: Any) -> list[tuple[str, Any]]:
    block = {"intent": "check_payment_status", "entities": entities, "language": language}
    prompt = f"<context>{json.dumps(block)}</context>\n<inquiry>{inquiry}</inquiry>"
    message = turns.next_turn([HumanMessage(prompt)], PAYMENT_TOOLS)
    return [(call["name"], call["args"]) for call in message.tool_calls]


@pytest.mark.parametrize(
    ("inquiry", "language"),
    [
        ("Tried the spring coupon at checkout and it will not apply", "en"),
        ("クーポンコードを入れても割引が反映されません", "ja"),
    ],
)
def test_a_coupon_that_would_not_apply_has_its_conditions_looked_up(
    inquiry: str, language: str
) -> None:
    calls = payment_turn(inquiry, language)

    help_args = {"query": inquiry, "language": language, "category": "coupons"}
    assert calls == [("search_faq", help_args)]


def test_the_conditions_are_looked_up_beside_the_payment_check_of_the_order_named() -> None:
    inquiry = "ORD-8150で使ったクーポンが適用されていません"

    calls = payment_turn(inquiry, "ja", order_numbers=["ORD-8150"])

    assert [name for name, _ in calls] == ["check_payment_status", "search_faq"]


def test_a_payment_question_without_a_coupon_problem_looks_nothing_up() -> None:
    calls = payment_turn("Was ORD-8150 charged yet?", "en", order_numbers=["ORD-8150"])

    assert calls == [("check_payment_status", {"order_number": "ORD-8150"})]
