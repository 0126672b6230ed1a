"""An action larger than the request is flagged (issue 26, section 2).

Given a proposed action and the customer's words, when the action covers the whole of an
order of several lines and the words name only some of them, then the lines named are
returned for the card to flag; an action no larger than the request is not flagged.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.support.escalations.action_scope import lines_named_in_part

LINES = [
    {"name": "手ぬぐい 藍染", "name_en": "Indigo Tenugui Towel", "quantity": 1, "unit_price": 1800},
    {"name": "竹の箸 五膳", "name_en": "Bamboo Chopsticks Set", "quantity": 1, "unit_price": 4800},
]


def action(kind: str, **params: Any) -> dict[str, Any]:
    facts = {"number": "ORD-7001", "total": 6600, "lines": LINES}
    return {"kind": kind, "params": {"order_number": "ORD-7001", **params}, "facts": facts}


@pytest.mark.parametrize(
    "words",
    [
        "Please remove the tenugui from ORD-7001, I don't need it.",
        "ORD-7001から手ぬぐいだけ外してください",
    ],
)
def test_cancelling_the_whole_order_for_one_named_item_is_flagged(words: str) -> None:
    assert lines_named_in_part(action("cancel_order", reason="x"), words) == ["手ぬぐい 藍染"]


def test_refunding_all_of_it_for_one_named_item_is_flagged() -> None:
    refund_all = action("process_refund", amount=6600, reason="damaged")

    named = lines_named_in_part(refund_all, "The chopsticks arrived broken, refund please")

    assert named == ["竹の箸 五膳"]


@pytest.mark.parametrize(
    ("proposed", "words"),
    [
        (action("cancel_order", reason="x"), "Please cancel ORD-7001."),  # names no line
        (action("cancel_order", reason="x"), "Cancel the tenugui and the chopsticks"),  # all
        (action("process_refund", amount=1800, reason="x"), "Refund the tenugui"),  # its price
        (
            action("process_refund", amount=6600, items=[{"sku": "T"}], reason="x"),
            "Refund the tenugui",
        ),  # the items are the action's own
        (action("change_delivery_date", date="2026-12-24"), "the tenugui can come later"),
    ],
)
def test_an_action_no_larger_than_the_request_is_not_flagged(
    proposed: dict[str, Any], words: str
) -> None:
    assert lines_named_in_part(proposed, words) == []


def test_an_order_of_one_line_is_never_flagged() -> None:
    single = action("cancel_order", reason="x")
    single["facts"]["lines"] = LINES[:1]

    assert lines_named_in_part(single, "Remove the tenugui") == []
