"""Two requests, two orders, end to end with the offline model.

Given Hanako's and Emily's orders (``support_shop``), when one message asks a cancellation
of one order and the parcel or delivery date of another, joined in any of the usual ways,
then the cancellation waits for an operator on its own order, the parcel of the other order
is tracked (or its date moved) and told in the reply, and neither request is dropped.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from agents.team.runs.outcome import RunOutcome
from netshop.models import Order, Shipment
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]


def cancelled_for_approval(outcome: RunOutcome) -> list[tuple[str, str]]:
    return [(a["kind"], a["params"]["order_number"]) for a in outcome.pending_actions]


def tracked(outcome: RunOutcome) -> str:
    return str(outcome.state["envelopes"]["shipping"]["data"]["track_shipment"]["order_number"])


@pytest.mark.parametrize(
    "text",
    [
        "{pending}は取り消しにしてください。ところで{in_transit}はいつ届きますか？",
        "{pending}をキャンセルしたいです、それと{in_transit}がいつ届くか教えてください",
        "{in_transit}はいつ届きますか。また、{pending}はキャンセルしてください。",
    ],
)
def test_hanako_cancels_one_order_and_hears_when_the_other_arrives(
    shop: SupportShop, ask: Ask, text: str
) -> None:
    numbers = shop.hanako.numbers()

    outcome = ask(text.format(**numbers))

    assert outcome.status == "awaiting_approval"
    assert cancelled_for_approval(outcome) == [("cancel_order", numbers["pending"])]
    assert tracked(outcome) == numbers["in_transit"]
    assert numbers["in_transit"] in outcome.state["reply"]
    assert Order.objects.get(number=numbers["pending"]).status == "pending"  # not yet


@pytest.mark.parametrize(
    "text",
    [
        "Where is {preparing}? Also I'd like to cancel {pending}.",
        "Please cancel {pending}, and when will {preparing} arrive?",
        "Cancel {pending} plus tell me when {preparing} will be delivered",
    ],
)
def test_emily_cancels_one_order_and_hears_when_the_other_arrives(
    shop: SupportShop, ask: Ask, text: str
) -> None:
    numbers = shop.emily.numbers()

    outcome = ask(text.format(**numbers), customer=shop.emily.customer)

    assert outcome.status == "awaiting_approval"
    assert cancelled_for_approval(outcome) == [("cancel_order", numbers["pending"])]
    assert tracked(outcome) == numbers["preparing"]
    assert numbers["preparing"] in outcome.state["reply"]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("{pending}はキャンセルをお願いします。{in_transit}は配達日を2日遅くしてください", 2),
        ("{pending}はキャンセルで。あと{in_transit}のお届けを3日後ろにずらしてください", 3),
    ],
)
def test_a_cancellation_and_another_orders_date_change_are_both_done(
    shop: SupportShop, ask: Ask, text: str, days: int
) -> None:
    numbers = shop.hanako.numbers()
    shipment = Shipment.objects.get(order__number=numbers["in_transit"])
    scheduled = shipment.scheduled_date
    assert scheduled is not None

    outcome = ask(text.format(**numbers))

    assert cancelled_for_approval(outcome) == [("cancel_order", numbers["pending"])]
    shipment.refresh_from_db()
    assert shipment.scheduled_date == scheduled + dt.timedelta(days=days)
    assert numbers["in_transit"] in outcome.state["reply"]
    assert Order.objects.get(number=numbers["pending"]).status == "pending"


def test_one_cancellation_naming_two_orders_is_read_as_before(shop: SupportShop, ask: Ask) -> None:
    numbers = shop.hanako.numbers()

    outcome = ask("{pending}と{preparing}をキャンセルしてください".format(**numbers))

    assert outcome.state["plan"][0].get("order_numbers") is None
    assert all(kind == "cancel_order" for kind, _ in cancelled_for_approval(outcome))
    named = Order.objects.filter(number__in=[numbers["pending"], numbers["preparing"]])
    assert sorted(named.values_list("status", flat=True)) == ["confirmed", "pending"]
