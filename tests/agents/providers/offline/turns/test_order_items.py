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
