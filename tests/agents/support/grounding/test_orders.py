"""Grounding, as a specification: which of the customer's orders a description means.

Pure: order summaries in the shape ``netshop.selectors.order_summary`` gives, a reference as
any model would fill it (the offline reader, or a real model's ``search_orders`` arguments).
"""

from __future__ import annotations

from typing import Any

from agents.support.grounding.described import DescribedState, OrderReference
from agents.support.grounding.orders import CHARGED_TWICE, Grounding, ground_order
from agents.support.vocabulary import Skill


def summary(number: str, status: str, **fields: Any) -> dict[str, Any]:
    return {
        "number": number,
        "status": status,
        "shipment_status": fields.pop("shipment", None),
        "payment_status": fields.pop("payment", "captured"),
        "items": fields.pop("items", []),
        "items_en": fields.pop("items_en", []),
        "total": fields.pop("total", 1000),
        **fields,
    }


KETTLE = summary(
    "ORD-8101", "shipped", shipment="in_transit", items=["鉄瓶"], items_en=["Iron Kettle"]
)
FAN = summary("ORD-8102", "pending", payment="authorized", items=["京扇子"], total=3520)
MUGS = summary(
    "ORD-8103", "delivered", shipment="delivered", items=["有田焼 マグ × 2"], items_en=["Mug"]
)
GLASS = summary("ORD-8104", "confirmed", payment="authorized", items_en=["Edo Kiriko Glass"])
ORDERS = [KETTLE, FAN, MUGS, GLASS]


def test_one_order_fitting_the_request_is_the_match() -> None:
    assert ground_order(ORDERS, Skill.TRACK_SHIPMENT).number == "ORD-8101"
    assert ground_order(ORDERS, Skill.RETURN_ITEMS).number == "ORD-8103"


def test_several_fitting_equally_are_candidates_never_a_pick() -> None:
    grounding = ground_order(ORDERS, Skill.CANCEL_ORDER)

    assert grounding.number is None
    assert [o["number"] for o in grounding.candidates] == ["ORD-8102", "ORD-8104"]
    assert grounding.ambiguous


def test_a_bare_number_an_amount_or_an_item_singles_one_out() -> None:
    by_number = OrderReference(numbers=frozenset({8104}))
    by_amount = OrderReference(amounts=frozenset({3520}))
    by_item = OrderReference(words="the glass please")

    assert ground_order(ORDERS, Skill.CANCEL_ORDER, reference=by_number).number == "ORD-8104"
    assert ground_order(ORDERS, Skill.CANCEL_ORDER, reference=by_amount).number == "ORD-8102"
    assert ground_order(ORDERS, Skill.CANCEL_ORDER, reference=by_item).number == "ORD-8104"


def test_a_number_of_theirs_wins_over_the_request_it_does_not_fit() -> None:
    """The delivered order named for a cancellation is that order (refused with its reason),
    not the pending one a cancellation would fit."""
    reference = OrderReference(numbers=frozenset({8103}))

    assert ground_order(ORDERS, Skill.CANCEL_ORDER, reference=reference).number == "ORD-8103"


def test_a_number_none_of_theirs_is_unmatched_never_swapped() -> None:
    grounding = ground_order(
        ORDERS, Skill.CANCEL_ORDER, reference=OrderReference(numbers=frozenset({8109}))
    )

    assert (grounding.number, grounding.unmatched) == (None, True)
    # Offered back among the orders a cancellation could be about, not the delivered ones.
    assert [order["number"] for order in grounding.candidates] == ["ORD-8102", "ORD-8104"]


def test_a_number_none_of_theirs_with_one_order_fitting_offers_it_never_takes_it() -> None:
    grounding = ground_order(
        ORDERS, Skill.RETURN_ITEMS, reference=OrderReference(numbers=frozenset({8109}))
    )

    assert grounding.number is None
    assert grounding.ambiguous
    assert [order["number"] for order in grounding.candidates] == ["ORD-8103"]


def test_a_japanese_item_name_is_found_in_the_words_without_its_quantity() -> None:
    reference = OrderReference(words="マグが欠けていました", item="マグ")

    assert ground_order(ORDERS, Skill.PROCESS_REFUND, reference=reference).number == "ORD-8103"


def test_a_state_no_order_is_in_offers_the_orders_and_takes_none() -> None:
    """ "It says out for delivery, cancel it": no order out for delivery is cancellable, and
    the pending ones are not taken for it."""
    reference = OrderReference(states=frozenset({DescribedState.DELIVERED}), item="kettle")

    grounding = ground_order(ORDERS, Skill.CANCEL_ORDER, reference=reference)

    assert (grounding.number, grounding.unmatched) == (None, True)


def test_a_tracking_number_decides_first() -> None:
    tracked = summary("ORD-8105", "shipped", shipment="in_transit", tracking_number="4821")

    grounding = ground_order([KETTLE, tracked], Skill.TRACK_SHIPMENT, tracking={"4821"})

    assert grounding.number == "ORD-8105"


def test_a_double_charge_looks_among_the_charged_orders() -> None:
    failed = summary("ORD-8106", "pending", payment="failed")

    grounding = ground_order([failed, MUGS], CHARGED_TWICE)

    assert grounding.number == "ORD-8103"


def test_an_unknown_request_matches_nothing() -> None:
    assert ground_order(ORDERS, "make_coffee") == Grounding()


def test_the_result_a_tool_returns_reads_back_to_the_same_grounding() -> None:
    grounding = ground_order(ORDERS, Skill.CANCEL_ORDER)

    assert Grounding.from_result(grounding.as_result(), ORDERS) == grounding
    assert grounding.as_result() == {
        "match": None,
        "candidates": ["ORD-8102", "ORD-8104"],
        "unmatched": False,
    }
