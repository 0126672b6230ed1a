"""The Order agent's part in a coupon request: an order named is looked up, none is searched
for or asked about (the shop looks for the cause in every order itself). Pure."""

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
