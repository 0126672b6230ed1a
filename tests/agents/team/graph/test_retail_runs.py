"""The retail skills end to end: a customer's inquiry through the whole graph, the operator's
decision, the shop's records and the reply, in Japanese and English.

Given the retail orders of ``retail_shop`` (Miho writes Japanese, Olivia English), when the
customer writes and an operator approves, then exactly the action the customer asked for
runs once and the reply says so in the customer's language.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.team.runs.outcome import RunOutcome
from netshop.models import CarrierBooking, Exchange, Order, OrderChange, Product, Refund, Return
from tests.support.scenarios import RetailShop, SupportShop, retail_shop

Ask = Callable[..., RunOutcome]
Decide = Callable[..., RunOutcome]


@pytest.fixture
def retail(shop: SupportShop) -> RetailShop:
    """Miho's and Olivia's orders, committed beside the support shop ``ask`` runs on."""
    return retail_shop()


@pytest.mark.parametrize(
    ("customer", "text", "order", "done"),
    [
        (
            "miho",
            "{several_items}で届いたマグカップが割れていました。返金をお願いします。",
            "{several_items}",
            "ご注文 {several_items}について、2,200円の返金手続きが完了いたしました。",
        ),
        (
            "olivia",
            "The mug from {several_items} arrived broken, I'd like a refund please.",
            "{several_items}",
            "We have refunded ¥2,200 for order {several_items}.",
        ),
    ],
)
def test_a_broken_item_of_several_is_refunded_for_that_item_only(
    retail: RetailShop, ask: Ask, decide: Decide, customer: str, text: str, order: str, done: str
) -> None:
    shopper = retail.shopper(customer)
    numbers = shopper.numbers()
    waiting = ask(text.format(**numbers), customer=shopper.customer)

    [action] = waiting.pending_actions
    assert (action["kind"], action["params"]["amount"]) == ("process_refund", 2200)
    assert [item["sku"] for item in action["params"]["items"]] == [retail.products["mug"].sku]
    resolved = decide(waiting, "approve")
    refunded = Refund.objects.filter(payment__order__number=order.format(**numbers))
    assert list(refunded.values_list("amount")) == [(2200,)]
    assert done.format(**numbers) in resolved.state["reply"]


def test_the_operator_can_still_edit_an_item_refund(
    retail: RetailShop, ask: Ask, decide: Decide
) -> None:
    # Read as a refund (and a return): one refund, the item's, is the only money asked for.
    order = retail.miho.several_items
    waiting = ask(
        f"{order.number}のマグカップが欠けていたので返金してください。",
        customer=retail.miho.customer,
    )

    assert [a["params"]["amount"] for a in waiting.pending_actions] == [2200]
    decide(waiting, "edit", params={"amount": 1000})

    refunds = Refund.objects.filter(payment__order=order)
    assert list(refunds.values_list("amount", flat=True)) == [1000]


@pytest.mark.parametrize(
    ("customer", "text", "order", "done"),
    [
        (
            "miho",
            "{several_items}のマグカップを返品したいです。",
            "{several_items}",
            "「有田焼 マグカップ 藍」の返品を承り、2,200円の返金手続きが完了いたしました。",
        ),
        (
            "olivia",
            "I want to return the mug from {several_items}.",
            "{several_items}",
            "accepted the return of Arita Porcelain Mug, Indigo from order {several_items} "
            "and refunded",
        ),
    ],
)
def test_a_return_refunds_the_returned_item_once_approved(
    retail: RetailShop, ask: Ask, decide: Decide, customer: str, text: str, order: str, done: str
) -> None:
    shopper = retail.shopper(customer)
    numbers = shopper.numbers()
    order, done = order.format(**numbers), done.format(**numbers)
    waiting = ask(text.format(**numbers), customer=shopper.customer)

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


def test_a_return_after_the_window_is_refused_with_the_policy(retail: RetailShop, ask: Ask) -> None:
    olivia = retail.olivia
    outcome = ask(
        f"I'd like to return the teapot from {olivia.window_passed.number}.",
        customer=olivia.customer,
    )

    assert outcome.pending_actions == []
    assert "items can only be returned within 14 days of delivery" in outcome.state["reply"]
    assert not Return.objects.exists()


@pytest.mark.parametrize(
    ("customer", "text", "order", "new_sku", "done"),
    [
        (
            "miho",
            "{shirt}のTシャツをLサイズに交換してください。",
            "{shirt}",
            "TSH-LOGO-L",
            "「NetShop オリジナルTシャツ L」への交換を承り、交換品を発送いたしました",
        ),
        (
            "olivia",
            "Could I exchange the T-shirt from {shirt} for a size M?",
            "{shirt}",
            "TSH-LOGO-M",
            "for NetShop Original T-Shirt, M and shipped the replacement (tracking number",
        ),
    ],
)
def test_an_exchange_ships_the_other_size_once_approved(
    retail: RetailShop,
    ask: Ask,
    decide: Decide,
    customer: str,
    text: str,
    order: str,
    new_sku: str,
    done: str,
) -> None:
    shopper = retail.shopper(customer)
    numbers = shopper.numbers()
    order = order.format(**numbers)
    waiting = ask(text.format(**numbers), customer=shopper.customer)

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
            "miho",
            "{pending}のお箸はいらなくなったので注文から外してください。",
            "{pending}",
            4950,
            "ご注文 {pending}のご注文内容を変更いたしました（「若狭塗 箸」を取り消し）。",
        ),
        (
            "olivia",
            "Please remove the slippers from {pending}.",
            "{pending}",
            4320,
            "We have changed order {pending} (Washi Paper Slippers removed); the new total is",
        ),
    ],
)
def test_an_item_change_lowers_the_total_and_the_card_hold_once_approved(
    retail: RetailShop,
    ask: Ask,
    decide: Decide,
    customer: str,
    text: str,
    order: str,
    new_total: int,
    done: str,
) -> None:
    shopper = retail.shopper(customer)
    numbers = shopper.numbers()
    order, done = order.format(**numbers), done.format(**numbers)
    waiting = ask(text.format(**numbers), customer=shopper.customer)

    [action] = waiting.pending_actions
    assert (action["kind"], action["params"]["new_total"]) == ("modify_order_items", new_total)
    assert Order.objects.get(number=order).total != new_total
    resolved = decide(waiting, "approve")
    changed = Order.objects.get(number=order)
    assert (changed.total, changed.payment.authorized_amount) == (new_total, new_total)
    assert OrderChange.objects.filter(order=changed).count() == 1
    assert done in resolved.state["reply"]


def test_an_exchange_of_an_item_sold_in_one_size_is_refused_with_the_reason(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(
        f"I would like to exchange {shop.emily.delivered.number} for a bigger size.",
        customer=shop.emily.customer,
    )

    assert outcome.pending_actions == []
    assert "That size or colour is not available for this item." in outcome.state["reply"]
    assert not Exchange.objects.exists()
