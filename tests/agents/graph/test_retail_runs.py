"""The retail skills end to end: the demo customer's inquiry through the whole graph, the
operator's decision, the shop's records and the reply, in Japanese and English.

Given the demo shop's retail orders (C0101 writes Japanese, C0102 English), when the
customer writes and an operator approves, then exactly the action the customer asked for
runs once and the reply says so in the customer's language.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.runs.outcome import RunOutcome
from netshop.models import Refund

Ask = Callable[..., RunOutcome]
Decide = Callable[..., RunOutcome]


@pytest.mark.parametrize(
    ("customer", "text", "order", "done"),
    [
        (
            "C0101",
            "ORD-5101で届いたマグカップが割れていました。返金をお願いします。",
            "ORD-5101",
            "ご注文 ORD-5101について、2,200円の返金手続きが完了いたしました。",
        ),
        (
            "C0102",
            "The mug from ORD-5201 arrived broken, I'd like a refund please.",
            "ORD-5201",
            "We have refunded ¥2,200 for order ORD-5201.",
        ),
    ],
)
def test_a_broken_item_of_several_is_refunded_for_that_item_only(
    ask: Ask, decide: Decide, customer: str, text: str, order: str, done: str
) -> None:
    waiting = ask(text, customer=customer)

    [action] = waiting.pending_actions
    assert (action["kind"], action["params"]["amount"]) == ("process_refund", 2200)
    assert [item["sku"] for item in action["params"]["items"]] == ["MUG-ARITA-AI"]
    resolved = decide(waiting, "approve")
    assert list(Refund.objects.filter(payment__order__number=order).values_list("amount")) == [
        (2200,)
    ]
    assert done in resolved.state["reply"]


def test_the_operator_can_still_edit_an_item_refund(ask: Ask, decide: Decide) -> None:
    waiting = ask("ORD-5101のマグカップが欠けていたので返金してください。", customer="C0101")

    assert waiting.pending_actions[0]["params"]["amount"] == 2200
    decide(waiting, "edit", params={"amount": 1000})

    refunds = Refund.objects.filter(payment__order__number="ORD-5101")
    assert list(refunds.values_list("amount", flat=True)) == [1000]
