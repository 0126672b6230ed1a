"""An answer to the shop's question continues the request it was asked about, end to end.

Given a customer with two delivered orders who asks for a refund for a damaged item without
naming the order, when the shop has asked which order and the customer answers with the
order number and the item ("It's ORD-…, the towels."), then the refund of that order waits
for a person's approval (a named order with an item is not read as a parcel to track), and
nothing is refunded yet. A reply that asks something new is read as the new request.
The orders are built here from factories, for a customer of each language.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.models import Escalation, InquiryStatus
from agents.team.runs.outcome import RunOutcome
from netshop.models import Customer, Language, Order, Refund
from tests.factories import CustomerFactory
from tests.support.conversations import customer_answers
from tests.support.scenarios import SupportShop, delivered_with

Ask = Callable[..., RunOutcome]


def _customer_with_two_deliveries(language: str) -> tuple[Customer, Order, Order]:
    """A customer whose towels (¥8,600) and lamp (¥6,200) both arrived days ago."""
    customer = CustomerFactory.create(language=language)
    towels = delivered_with(customer, [("バスタオル", "Bath towels", 4300, 2)], days_ago=3)
    lamp = delivered_with(customer, [("卓上ランプ", "Desk lamp", 6200, 1)], days_ago=5)
    return customer, towels, lamp


@pytest.mark.parametrize(
    ("language", "first", "answer"),
    [
        (Language.ENGLISH, "An item I got from you came damaged, I want a refund.", "It's {n}."),
        (
            Language.ENGLISH,
            "An item I got from you came damaged, I want a refund.",
            "It's {n}, the towels.",
        ),
        (Language.JAPANESE, "届いた商品が傷ついていたので返金してほしいです。", "{n}です。"),
        (
            Language.JAPANESE,
            "届いた商品が傷ついていたので返金してほしいです。",
            "すみません、{n}のバスタオルです。",
        ),
    ],
)
def test_an_answer_naming_the_order_proposes_the_refund_for_approval(
    shop: SupportShop, ask: Ask, language: str, first: str, answer: str
) -> None:
    customer, towels, lamp = _customer_with_two_deliveries(language)
    asked = ask(first, customer=customer)
    assert asked.status == InquiryStatus.AWAITING_CUSTOMER
    assert {o["value"] for o in asked.state["question"]["options"]} == {towels.number, lamp.number}

    inquiry = customer_answers(asked, answer.format(n=towels.number))

    escalation = Escalation.objects.get(inquiry_id=inquiry.pk, status="open")
    [action] = escalation.package["recommended_actions"]
    assert inquiry.status == InquiryStatus.AWAITING_APPROVAL
    assert (action["kind"], action["params"]["order_number"]) == ("process_refund", towels.number)
    assert action["params"]["amount"] == 8600
    assert not Refund.objects.filter(payment__order=towels).exists()  # waits for a person


def test_a_reply_asking_something_new_is_read_as_the_new_request(
    shop: SupportShop, ask: Ask
) -> None:
    customer, towels, _lamp = _customer_with_two_deliveries(Language.ENGLISH)
    asked = ask("An item I got from you came damaged, I want a refund.", customer=customer)

    inquiry = customer_answers(asked, f"Actually, forget that: when did {towels.number} arrive?")

    assert inquiry.status == InquiryStatus.RESOLVED
    assert towels.number in inquiry.reply
    assert not Escalation.objects.filter(inquiry_id=inquiry.pk).exists()
    assert not Refund.objects.filter(payment__order=towels).exists()
