"""The retail skills end to end: the demo customer's inquiry through the whole graph, the
operator's decision, the shop's records and the reply, in Japanese and English.

Given the demo shop's retail orders (C0101 writes Japanese, C0102 English), when the
customer writes and an operator approves, then exactly the action the customer asked for
runs once and the reply says so in the customer's language.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.team.runs.outcome import RunOutcome
from netshop.models import CarrierBooking, Exchange, Order, OrderChange, Product, Refund, Return

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
    # Read as a refund (and a return): one refund, the item's, is the only money asked for.
    waiting = ask("ORD-5101のマグカップが欠けていたので返金してください。", customer="C0101")

    assert [a["params"]["amount"] for a in waiting.pending_actions] == [2200]
    decide(waiting, "edit", params={"amount": 1000})

    refunds = Refund.objects.filter(payment__order__number="ORD-5101")
    assert list(refunds.values_list("amount", flat=True)) == [1000]


@pytest.mark.parametrize(
    ("customer", "text", "order", "done"),
    [
        (
            "C0101",
            "ORD-5101のマグカップを返品したいです。",
            "ORD-5101",
            "「有田焼 マグカップ 藍」の返品を承り、2,200円の返金手続きが完了いたしました。",
        ),
        (
            "C0102",
            "I want to return the mug from ORD-5201.",
            "ORD-5201",
            "accepted the return of Arita Porcelain Mug, Indigo from order ORD-5201 and refunded",
        ),
    ],
)
def test_a_return_refunds_the_returned_item_once_approved(
    ask: Ask, decide: Decide, customer: str, text: str, order: str, done: str
) -> None:
    waiting = ask(text, customer=customer)

    [action] = waiting.pending_actions
    assert (action["kind"], action["params"]["amount"]) == ("return_items", 2200)
    assert not Return.objects.filter(order__number=order).exists()
    resolved = decide(waiting, "approve")
    again = decide(waiting, "approve")
    item_return = Return.objects.get(order__number=order)
    assert item_return.refund is not None
    assert (item_return.amount, item_return.refund.amount) == (2200, 2200)
    assert done in resolved.state["reply"]
    assert again.status == resolved.status
    assert Refund.objects.filter(payment__order__number=order).count() == 1


def test_a_return_after_the_window_is_refused_with_the_policy(ask: Ask) -> None:
    outcome = ask("I'd like to return the teapot from ORD-5202.", customer="C0102")

    assert outcome.pending_actions == []
    assert "items can only be returned within 14 days of delivery" in outcome.state["reply"]
    assert not Return.objects.exists()


@pytest.mark.parametrize(
    ("customer", "text", "order", "new_sku", "done"),
    [
        (
            "C0101",
            "ORD-5103のTシャツをLサイズに交換してください。",
            "ORD-5103",
            "TSH-LOGO-L",
            "「NetShop オリジナルTシャツ L」への交換を承り、交換品を発送いたしました",
        ),
        (
            "C0102",
            "Could I exchange the T-shirt from ORD-5203 for a size M?",
            "ORD-5203",
            "TSH-LOGO-M",
            "for NetShop Original T-Shirt, M and shipped the replacement (tracking number",
        ),
    ],
)
def test_an_exchange_ships_the_other_size_once_approved(
    ask: Ask, decide: Decide, customer: str, text: str, order: str, new_sku: str, done: str
) -> None:
    waiting = ask(text, customer=customer)

    [action] = waiting.pending_actions
    assert (action["kind"], action["params"]["new_sku"]) == ("exchange_items", new_sku)
    stock = Product.objects.get(sku=new_sku).stock
    resolved = decide(waiting, "approve")
    exchange = Exchange.objects.get(order__number=order)
    assert exchange.to_product.sku == new_sku
    assert Product.objects.get(sku=new_sku).stock == stock - 1
    assert CarrierBooking.objects.filter(booking_id=exchange.carrier_booking_id).exists()
    assert done in resolved.state["reply"]
    assert exchange.replacement_tracking_number in resolved.state["reply"]


@pytest.mark.parametrize(
    ("customer", "text", "order", "new_total", "done"),
    [
        (
            "C0101",
            "ORD-5104のお箸はいらなくなったので注文から外してください。",
            "ORD-5104",
            4950,
            "ご注文 ORD-5104のご注文内容を変更いたしました（「若狭塗 箸」を取り消し）。",
        ),
        (
            "C0102",
            "Please remove the slippers from ORD-5204.",
            "ORD-5204",
            4320,
            "We have changed order ORD-5204 (Washi Paper Slippers removed); the new total is",
        ),
    ],
)
def test_an_item_change_lowers_the_total_and_the_card_hold_once_approved(
    ask: Ask, decide: Decide, customer: str, text: str, order: str, new_total: int, done: str
) -> None:
    waiting = ask(text, customer=customer)

    [action] = waiting.pending_actions
    assert (action["kind"], action["params"]["new_total"]) == ("modify_order_items", new_total)
    assert Order.objects.get(number=order).total != new_total
    resolved = decide(waiting, "approve")
    changed = Order.objects.get(number=order)
    assert (changed.total, changed.payment.authorized_amount) == (new_total, new_total)
    assert OrderChange.objects.filter(order=changed).count() == 1
    assert done in resolved.state["reply"]


def test_an_exchange_of_an_item_sold_in_one_size_is_refused_with_the_reason(ask: Ask) -> None:
    outcome = ask("I would like to exchange ORD-2001 for a bigger size.", customer="C0002")

    assert outcome.pending_actions == []
    assert "That size or colour is not available for this item." in outcome.state["reply"]
    assert not Exchange.objects.exists()
