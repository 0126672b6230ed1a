"""A parcel the customer says never arrived: while a person checks it, every answer says so.

Given a customer who told us a delivered parcel never arrived (a follow-up recorded as the run
records it, open until a person decides it), when they ask where that parcel is, then the
tracking tool's result carries the open case and the reply says it in their language, beside
the carrier's "delivered"; a decided case, another order's or another customer's is not said.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import timezone

from agents.models import Escalation, EscalationStatus
from agents.support.escalations.selectors import parcel_claim_open
from agents.team.runs.outcome import RunOutcome
from netshop.models import Customer, Order
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]

OPEN_CASE = {
    "ja": "このお荷物が届いていないとのご連絡を",
    "en": "that this parcel has not arrived: that case is still open",
}
NEVER_ARRIVED = {
    "ja": "{number}が届いていません。配達済みになっていますが受け取っていません。",
    "en": "{number} never arrived, but tracking says delivered.",
}
WHERE_IS_IT = {"ja": "{number}の荷物は今どこにありますか？", "en": "Where is my parcel {number}?"}


def customer_and_order(shop: SupportShop, lang: str) -> tuple[Customer, Order]:
    shopper = shop.hanako if lang == "ja" else shop.emily
    return shopper.customer, shopper.delivered


def open_case(ask: Ask, customer: Customer, order: Order, lang: str) -> Escalation:
    outcome = ask(NEVER_ARRIVED[lang].format(number=order.number), customer=customer)
    assert outcome.state["escalation"]["detail"] == {
        "order_number": order.number,
        "claim": "not_arrived",
    }
    return Escalation.objects.get(inquiry_id=outcome.inquiry_id)


def tracked(outcome: RunOutcome) -> dict[str, object]:
    result: dict[str, object] = outcome.state["envelopes"]["shipping"]["data"]["track_shipment"]
    return result


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_where_is_my_parcel_mentions_the_open_never_arrived_case(
    shop: SupportShop, ask: Ask, lang: str
) -> None:
    customer, order = customer_and_order(shop, lang)
    open_case(ask, customer, order, lang)

    outcome = ask(WHERE_IS_IT[lang].format(number=order.number), customer=customer)

    opened_on = timezone.localdate().isoformat()
    assert tracked(outcome)["open_case"] == {"claim": "not_arrived", "opened_on": opened_on}
    assert OPEN_CASE[lang] in outcome.state["reply"]


def test_a_decided_case_is_not_mentioned(shop: SupportShop, ask: Ask) -> None:
    customer, order = customer_and_order(shop, "en")
    case = open_case(ask, customer, order, "en")
    Escalation.objects.filter(pk=case.pk).update(status=EscalationStatus.DECIDED)

    outcome = ask(WHERE_IS_IT["en"].format(number=order.number), customer=customer)

    assert "open_case" not in tracked(outcome)
    assert OPEN_CASE["en"] not in outcome.state["reply"]
    assert "delivered" in outcome.state["reply"]


def test_a_case_on_another_order_is_not_mentioned(shop: SupportShop, ask: Ask) -> None:
    customer, order = customer_and_order(shop, "ja")
    open_case(ask, customer, order, "ja")
    on_its_way = shop.hanako.in_transit.number

    outcome = ask(WHERE_IS_IT["ja"].format(number=on_its_way), customer=customer)

    assert "open_case" not in tracked(outcome)
    assert OPEN_CASE["ja"] not in outcome.state["reply"]


def test_the_open_case_is_only_its_customers(shop: SupportShop, ask: Ask) -> None:
    customer, order = customer_and_order(shop, "en")
    case = open_case(ask, customer, order, "en")

    found = parcel_claim_open(customer=customer, order_number=order.number)
    other = parcel_claim_open(customer=shop.hanako.customer, order_number=order.number)

    assert (found, other) == (case, None)
