"""Whether an order fits what the customer says about it: its state, its items."""

from __future__ import annotations

import pytest

from agents.support.grounding.described import (
    DescribedState,
    OrderReference,
    fits,
    has_item,
    mentions_item,
    without_quantity,
)
from tests.agents.support.grounding.test_orders import FAN, KETTLE, MUGS


@pytest.mark.parametrize(
    ("state", "order", "expected"),
    [
        (DescribedState.ON_ITS_WAY, KETTLE, True),
        (DescribedState.ON_ITS_WAY, MUGS, False),
        (DescribedState.DELIVERED, MUGS, True),
        (DescribedState.NOT_SHIPPED, FAN, True),
        (DescribedState.NOT_SHIPPED, KETTLE, False),
        (DescribedState.CHARGED, FAN, True),
        (DescribedState.PAYMENT_FAILED, FAN, False),
    ],
)
def test_an_order_fits_the_state_the_customer_sees_it_in(
    state: str, order: dict[str, object], expected: bool
) -> None:
    assert fits(order, OrderReference(states=frozenset({state}))) is expected


def test_an_item_is_found_by_any_word_of_its_name_or_its_japanese_noun() -> None:
    assert has_item(KETTLE, "iron kettles")
    assert has_item(KETTLE, "鉄瓶")
    assert not has_item(KETTLE, "towel")


def test_words_mentioning_an_item_in_passing_name_it_common_words_do_not() -> None:
    assert mentions_item(KETTLE, "the kettle arriving today")
    assert mentions_item(MUGS, "マグのことで")
    assert not mentions_item(MUGS, "the gift set")
    assert not mentions_item(FAN, "")


def test_an_item_line_is_its_product_without_the_quantity() -> None:
    assert without_quantity("有田焼 マグ × 2") == "有田焼 マグ"
