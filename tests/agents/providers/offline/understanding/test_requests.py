"""Two requests, two orders: the offline classifier reads which orders each request names.

Given an inquiry asking different things of different orders, in Japanese or English and
joined in many ways, when it is classified, then each request carries its own orders; a
single request naming two orders keeps both.
"""

from __future__ import annotations

import datetime as dt

import pytest

from agents.providers.offline.understanding import classify_text
from agents.providers.offline.understanding.requests import split_requests

TODAY = dt.date(2026, 5, 13)
A, B = "ORD-4101", "ORD-4102"


def orders_by_intent(text: str) -> dict[str, list[str]]:
    classification = classify_text(text, today=TODAY)
    return {request.intent: request.order_numbers for request in classification.requests}


@pytest.mark.parametrize(
    "text",
    [
        f"{A}はキャンセルしてください。あと、{B}はいつ届きますか？",
        f"{A}をキャンセルしたいです、あと{B}がいつ届くか教えてください",
        f"{A}をキャンセルでお願いします。それと{B}はいつ届きますか",
        f"{A}のキャンセルをお願いします。また、{B}はいつ頃届くか教えてください。",
        f"{B}はいつ届きますか？それと、{A}はキャンセルしたいです。",
        f"Please cancel {A}, and when will {B} arrive?",
        f"Cancel {A} plus tell me when {B} will be delivered",
        f"Where is {B}? Also I'd like to cancel {A}.",
        f"I need to cancel {A}. Also, could you check where {B} is?",
        f"About {A}, please cancel it. {B}: when will it arrive?",
    ],
)
def test_a_cancellation_and_a_parcel_each_name_their_own_order(text: str) -> None:
    assert orders_by_intent(text) == {"cancel_order": [A], "track_shipment": [B]}


@pytest.mark.parametrize(
    "text",
    [
        f"{A}は取り消しで、{B}はお届けを2日あとにしてもらいたいです",
        f"{A}はキャンセルで。あと{B}のお届けを3日後ろにずらしてください",
        f"Please cancel {A}. Also please move the delivery of {B} two days later.",
    ],
)
def test_a_cancellation_and_a_date_change_each_name_their_own_order(text: str) -> None:
    assert orders_by_intent(text) == {"cancel_order": [A], "change_delivery_date": [B]}


@pytest.mark.parametrize(
    "text",
    [
        f"{A}と{B}をキャンセルしてください",
        f"{A}、{B}の2件をキャンセルしたいです",
        f"Please cancel {A} and {B}.",
        f"Cancel {A}, {B} please",
    ],
)
def test_one_request_naming_two_orders_keeps_both(text: str) -> None:
    assert orders_by_intent(text) == {"cancel_order": [A, B]}


def test_an_order_named_before_its_request_goes_with_the_request_after_it() -> None:
    requests = split_requests(
        f"Cancel {A}. Regarding {B}, where is it now?", ["cancel_order", "track_shipment"]
    )

    assert [(r.intent, r.order_numbers) for r in requests] == [
        ("cancel_order", [A]),
        ("track_shipment", [B]),
    ]


def test_a_request_naming_no_order_has_none_of_its_own() -> None:
    requests = split_requests(
        f"Cancel {A}. And when does my parcel arrive?", ["cancel_order", "track_shipment"]
    )

    assert [(r.intent, r.order_numbers) for r in requests] == [
        ("cancel_order", [A]),
        ("track_shipment", []),
    ]
