"""Item requests end to end (issue 24): an item taken off or lowered is an item change, never
the order cancelled; an item added is refused with what to do instead; an item refund is
the price of the item meant, not of the order or of an item the customer keeps.

The orders are built here from the retail products, in combinations of our own, for Miho
(Japanese) and Olivia (English).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.team.runs.outcome import RunOutcome
from netshop.models import Customer, Order, OrderLine, Product
from tests.factories import delivered_order, pending_order
from tests.support.scenarios import RetailShop, SupportShop, order_number, retail_shop

Ask = Callable[..., RunOutcome]


@pytest.fixture
def retail(shop: SupportShop) -> RetailShop:
    return retail_shop()


def _pending(customer: Customer, lines: list[tuple[Product, int]]) -> Order:
    """A pending order (card authorized) holding ``lines`` at the products' prices."""
    total = sum(product.price * quantity for product, quantity in lines)
    order = pending_order(
        authorized=total, customer=customer, number=order_number(), total=total, lines=False
    )
    return _holding(order, lines)


def _holding(order: Order, lines: list[tuple[Product, int]]) -> Order:
    for product, quantity in lines:
        OrderLine.objects.create(
            order=order, product=product, quantity=quantity, unit_price=product.price
        )
    return order


def _bowls_and_teapot(retail: RetailShop, customer: str) -> Order:
    """Three pairs of rice bowls (¥3,300 each) and a teapot (¥8,800): ¥18,700."""
    products = retail.products
    return _pending(
        retail.shopper(customer).customer, [(products["bowls"], 3), (products["teapot"], 1)]
    )


@pytest.mark.parametrize(
    ("customer", "text", "new_total", "named"),
    [
        ("miho", "{n}の急須、やっぱりいらないので注文から外してもらえますか", 9900, "急須"),
        (
            "miho",
            "{n}の茶碗ですが、３つ頼んだものの２つで十分なので減らしてください",
            15400,
            "茶碗",
        ),
        ("miho", "茶碗を1つ減らしたいです。注文番号は{n}です", 15400, "茶碗"),
        ("olivia", "{n}: please take the teapot off, I won't need it after all", 9900, "Teapot"),
        ("olivia", "for {n} i only need 1 rice bowl set not 3", 12100, "Rice Bowls"),
    ],
)
def test_an_item_taken_off_or_lowered_is_an_item_change_for_approval(
    retail: RetailShop, ask: Ask, customer: str, text: str, new_total: int, named: str
) -> None:
    order = _bowls_and_teapot(retail, customer)

    waiting = ask(text.format(n=order.number), customer=order.customer)

    assert waiting.status == "awaiting_approval"
    [action] = waiting.pending_actions
    assert (action["kind"], action["params"]["new_total"]) == ("modify_order_items", new_total)
    assert named in waiting.state["reply"]
    assert Order.objects.get(pk=order.pk).status == order.status  # nothing cancelled


@pytest.mark.parametrize(
    ("customer", "text", "refusal"),
    [
        ("miho", "{n}に風呂敷を1枚追加してもらえますか", "追加の商品は新しくご注文ください"),
        ("miho", "{n}の急須をもう1つ増やしたいのですが", "追加の商品は新しくご注文ください"),
        ("olivia", "Could you add a furoshiki to {n}?", "please place a new order"),
        ("olivia", "Please add two more rice bowl sets to {n}", "please place a new order"),
    ],
)
def test_an_item_added_is_refused_with_a_new_order_as_the_way(
    retail: RetailShop, ask: Ask, customer: str, text: str, refusal: str
) -> None:
    order = _bowls_and_teapot(retail, customer)

    outcome = ask(text.format(n=order.number), customer=order.customer)

    assert outcome.pending_actions == []
    reply = outcome.state["reply"]
    assert refusal in reply
    assert "3,300" not in reply  # the order's contents are not what was asked


@pytest.mark.parametrize(
    ("customer", "text"),
    [
        (
            "miho",
            "{n}の箸、先が欠けていました。箸の分だけ返金してください。茶碗はそのまま使います。",
        ),
        ("miho", "{n}で届いた箸にヒビがあったので、お箸の代金のみ返金をお願いします"),
        (
            "olivia",
            "The chopsticks in {n} came split. Refund only those please, the bowls are fine.",
        ),
        ("olivia", "Can I get money back for just the chopsticks from {n}? I'm keeping the bowls."),
    ],
)
def test_an_item_refund_is_the_price_of_the_item_meant(
    retail: RetailShop, ask: Ask, customer: str, text: str
) -> None:
    bowls, chopsticks = retail.products["bowls"], retail.products["chopsticks"]
    order = _holding(
        delivered_order(
            captured=4950,
            customer=retail.shopper(customer).customer,
            number=order_number(),
            lines=False,
        ),
        [(bowls, 1), (chopsticks, 1)],
    )

    waiting = ask(text.format(n=order.number), customer=order.customer)

    amounts = {a["kind"]: a["params"]["amount"] for a in waiting.pending_actions}
    assert amounts.get("process_refund") == 1650
    assert "1,650" in waiting.state["reply"]
