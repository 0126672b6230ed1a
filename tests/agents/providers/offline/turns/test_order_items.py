"""The offline model's retail turns: which item, which size, which quantity the text means.

Pure functions on the lines ``get_order_items`` returns; no database.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.providers.offline.turns.order_items import order_items_call, refund_items

MUG = {
    "sku": "MUG-ARITA-AI",
    "name": "有田焼 マグカップ 藍",
    "name_en": "Arita Porcelain Mug, Indigo",
}
FAN = {"sku": "SNS-KYOSENSU", "name": "京扇子", "name_en": "Kyoto Folding Fan"}
CHOPSTICKS = {"sku": "CHP-WAKASA", "name": "若狭塗 箸", "name_en": "Wakasa Lacquered Chopsticks"}
TOWELS = {"sku": "TWL-IMABARI-FACE", "name": "今治タオル フェイスタオル 2枚組", "name_en": "Towels"}
TSHIRT = {"sku": "TSH-LOGO-M", "name": "NetShop オリジナルTシャツ M", "name_en": "T-Shirt, M"}


def call(intent: str, text: str, *lines: dict[str, Any]) -> Any:
    return order_items_call(intent, text, "ORD-1", list(lines), "customer request")


@pytest.mark.parametrize(
    "text",
    ["マグカップを返品したい", "マグを返したいです", "I'd like to return the mugs", "MUG-ARITA-AI"],
)
def test_the_item_named_in_either_language_is_the_one_returned(text: str) -> None:
    assert call("return_items", text, MUG, FAN) == (
        "return_items",
        {
            "order_number": "ORD-1",
            "items": [{"sku": "MUG-ARITA-AI"}],
            "reason": "customer request",
            "defective": False,
        },
    )


def test_an_unnamed_item_of_several_is_not_guessed_but_all_is_all() -> None:
    assert call("return_items", "返品したいです", MUG, FAN) is None
    assert call("return_items", "全部返品したいです", MUG, FAN)[1]["items"] == [
        {"sku": "MUG-ARITA-AI"},
        {"sku": "SNS-KYOSENSU"},
    ]


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("MサイズをLサイズに交換してください", "L"),
        ("Ｌサイズに交換したい", "L"),
        ("Could I swap it for a large?", "L"),
        ("I'd like size S instead, it's too big", "S"),
        ("It's too small, could I have a bigger size?", "L"),
        ("サイズが小さかったので、ワンサイズ大きいものに交換してください", "L"),
        ("大きかったので小さいサイズと交換したいです", "S"),
    ],
)
def test_the_size_asked_for_is_the_one_not_already_owned(text: str, size: str) -> None:
    assert call("exchange_items", text, TSHIRT)[1]["new_variant"] == size


def test_an_exchange_without_a_size_goes_to_a_person() -> None:
    sized = TSHIRT | {"other_variants": [{"sku": "TSH-LOGO-L", "variant": "L"}]}
    assert call("exchange_items", "交換してください", sized) is None


def test_an_item_sold_in_one_size_is_still_asked_for_so_the_shop_refuses_it() -> None:
    one_size: dict[str, Any] = FAN | {"other_variants": []}
    assert call("exchange_items", "交換してください", one_size)[1]["new_variant"] == "another size"


@pytest.mark.parametrize(
    ("text", "quantity"),
    [
        ("お箸はいらなくなったので外してください", 0),
        ("Please remove the chopsticks", 0),
        ("タオルを1つにしてください", 1),
        ("Change the towels to 1 please", 1),
    ],
)
def test_an_item_change_reads_the_item_and_its_new_quantity(text: str, quantity: int) -> None:
    changed = call("modify_order_items", text, CHOPSTICKS, TOWELS)
    [item] = changed[1]["items"]
    assert item["quantity"] == quantity


def test_a_refund_names_one_item_only_when_the_order_has_several() -> None:
    two = {"lines": [MUG, FAN]}
    assert refund_items("マグカップが割れていました", two) == [{"sku": "MUG-ARITA-AI"}]
    assert refund_items("商品が壊れていました", two) is None
    assert refund_items("マグカップが割れていました", {"lines": [MUG]}) is None


@pytest.mark.parametrize(
    "text",
    ["One of the two mugs arrived cracked", "マグカップ2個のうち1個が割れていました"],
)
def test_a_refund_for_one_of_several_units_names_how_many(text: str) -> None:
    assert refund_items(text, {"lines": [MUG]}) == [{"sku": "MUG-ARITA-AI", "quantity": 1}]


# Item changes, additions and item refunds (issue 24): the item and quantity the text means,
# read against lines of the order; the names below are not any shop's demo orders.
TEACUP = {"sku": "CUP-KUTANI", "name": "九谷焼 湯のみ", "name_en": "Kutani Teacup", "quantity": 1}
CLOTH = {"sku": "CLT-ASA", "name": "ふきん 麻", "name_en": "Linen Dish Cloth", "quantity": 1}
SENCHA = {
    "sku": "TEA-SENCHA-100",
    "name": "静岡 煎茶 100g",
    "name_en": "Shizuoka Sencha 100 g",
    "quantity": 3,
}


def change(text: str) -> Any:
    return call("modify_order_items", text, TEACUP, CLOTH, SENCHA)


@pytest.mark.parametrize(
    ("text", "sku"),
    [
        ("ふきんはもう不要になったので注文から外してほしいです", "CLT-ASA"),
        ("湯のみはいらなくなりました。取り消してください", "CUP-KUTANI"),
        ("Please take the dish cloth off my order", "CLT-ASA"),
        ("I don't need the teacup any more, remove it please", "CUP-KUTANI"),
    ],
)
def test_an_item_named_in_kana_or_either_language_is_the_one_removed(text: str, sku: str) -> None:
    assert change(text)[1]["items"] == [{"sku": sku, "quantity": 0}]


@pytest.mark.parametrize(
    ("text", "quantity"),
    [
        ("煎茶、3つ頼んだけど1つで足りるので減らしたいです", 1),
        ("煎茶を３つから２つに減らしてください", 2),
        ("煎茶を1つ減らしてもらえますか", 2),
        ("煎茶は2袋だけで大丈夫です", 2),
        ("order 1 - only need 1 sencha not 3", 1),
        ("Could I have two sencha instead of three?", 2),
        ("I'd like one less sencha please", 2),
        ("just need one of the sencha, please lower it", 1),
    ],
)
def test_a_lowered_quantity_is_the_quantity_left(text: str, quantity: int) -> None:
    assert change(text)[1]["items"] == [{"sku": "TEA-SENCHA-100", "quantity": quantity}]


def test_a_change_that_says_no_quantity_and_no_removal_is_not_guessed() -> None:
    assert change("煎茶の数を変えたいです") is None
    assert change("Something is wrong with the sencha") is None


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("煎茶をもう1つ追加できますか", {"sku": "TEA-SENCHA-100", "quantity": 4}),
        ("Please add two more sencha to my order", {"sku": "TEA-SENCHA-100", "quantity": 5}),
        ("この注文に玉露を2つ追加したいです", {"name": "玉露", "quantity": 2}),
        ("Can I add a bamboo whisk to this order?", {"name": "bamboo whisk", "quantity": 1}),
    ],
)
def test_an_addition_is_asked_for_so_that_the_shop_refuses_it(
    text: str, item: dict[str, Any]
) -> None:
    assert change(text)[1]["items"] == [item]


def test_an_addition_whose_name_the_shop_could_take_for_a_line_is_not_sent() -> None:
    # "tea" is within "Shizuoka Sencha": as a new quantity it would read as lowered.
    assert change("Can I add one tea to the order?") is None


def test_an_item_added_by_mistake_and_to_be_removed_is_a_removal() -> None:
    text = "I added the dish cloth by mistake, please remove it"
    assert change(text)[1]["items"] == [{"sku": "CLT-ASA", "quantity": 0}]


@pytest.mark.parametrize(
    "text",
    [
        "The teacup arrived cracked. Refund only the teacup please, the dish cloth is fine.",
        "Could I get my money back for just the teacup? I'm keeping the cloth.",
        "湯のみが欠けていました。湯のみの分だけ返金してください。ふきんはそのまま使います。",
        "湯のみの代金のみ返してほしいです。ふきんは気に入っています。",
    ],
)
def test_a_refund_is_for_the_item_meant_not_the_one_kept(text: str) -> None:
    assert refund_items(text, {"lines": [TEACUP, CLOTH]}) == [{"sku": "CUP-KUTANI"}]


@pytest.mark.parametrize(
    ("text", "quantity"),
    [
        ("Refund the remaining sencha too; it had gone stale", None),
        ("One of my three sencha was paid back earlier; refund the remaining two too", 2),
        ("Refund the rest of the 2 sencha too, the leaves had gone flat", 2),
        ("煎茶は1袋分返金済みですが、残りの2袋も湿気ていたので返金をお願いします", 2),
        ("残りの煎茶2つ分も返金してください", 2),
    ],
)
def test_the_remaining_units_are_refunded_not_the_part_already_refunded(
    text: str, quantity: int | None
) -> None:
    expected = {"sku": "TEA-SENCHA-100"} | ({"quantity": quantity} if quantity else {})
    assert refund_items(text, {"lines": [SENCHA, CLOTH]}) == [expected]
