"""Which order a customer means is decided by the shop's records, for either model.

The customer names an order without its number: by the number written bare, by its amount,
by an item and the state they see it in; or by nothing, with several under way. The Order
agent's ``search_orders`` tool grounds what they said against their real orders
(``agents.support.grounding``). Each case runs twice, through the offline model and through
the real ``ChatOpenAI`` client against the local OpenAI-compatible server (answering as the
offline model does), and both must land on the same order, or ask the same question, and the
OpenAI run must have had the order from the tool, not from the model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings

from agents.team.runs.outcome import RunOutcome
from netshop.models import Order
from tests.support.fake_openai import FakeOpenAI
from tests.support.offline_proxy import offline_answer
from tests.support.scenarios import Shopper, SupportShop

Ask = Callable[..., RunOutcome]


def digits(order: Order) -> str:
    return re.sub(r"\D", "", order.number)


def through_openai(fake_openai: FakeOpenAI, run: Callable[[], RunOutcome]) -> RunOutcome:
    fake_openai.responder = offline_answer
    with override_settings(
        NETSHOP_MODEL_PROVIDER="openai",
        OPENAI_API_KEY="test-key",
        OPENAI_BASE_URL=fake_openai.base_url,
    ):
        return run()


def grounded_by_the_tool(fake_openai: FakeOpenAI) -> list[dict[str, Any]]:
    """Every ``search_orders`` result the model was handed over the wire that grounds."""
    found = []
    for request in fake_openai.chat_requests:
        for message in request["messages"]:
            if message.get("role") != "tool":
                continue
            result = json.loads(message["content"])
            if isinstance(result, dict) and "grounding" in result:
                found.append(result["grounding"])
    return found


def action_orders(outcome: RunOutcome) -> list[tuple[str, str]]:
    return [(a["kind"], a["params"]["order_number"]) for a in outcome.pending_actions]


def both_ways(
    ask: Ask, fake_openai: FakeOpenAI, shopper: Shopper, text: str
) -> tuple[RunOutcome, RunOutcome]:
    offline = ask(text, customer=shopper.customer)
    real = through_openai(fake_openai, lambda: ask(text, customer=shopper.customer))
    assert fake_openai.rejected == []
    return offline, real


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("hanako", "{digits}をキャンセルしてください"),
        ("emily", "please cancel {digits}, I ordered it by mistake"),
    ],
)
def test_a_number_written_bare_is_that_order_for_either_model(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI, name: str, text: str
) -> None:
    shopper = shop.shopper(name)
    message = text.format(digits=digits(shopper.pending))

    offline, real = both_ways(ask, fake_openai, shopper, message)

    expected = [("cancel_order", shopper.pending.number)]
    assert action_orders(offline) == action_orders(real) == expected
    assert {"match": shopper.pending.number, "candidates": [], "unmatched": False} in (
        grounded_by_the_tool(fake_openai)
    )


def test_an_amount_names_the_order_it_is_the_total_of(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI
) -> None:
    hanako = shop.hanako
    message = "3,980円の注文をキャンセルしたいです"

    offline, real = both_ways(ask, fake_openai, hanako, message)

    expected = [("cancel_order", hanako.pending.number)]
    assert action_orders(offline) == action_orders(real) == expected


@pytest.mark.parametrize(
    "text", ["配送中の急須はいつ届きますか", "the teapot that's on its way, when does it arrive?"]
)
def test_an_item_and_its_state_are_the_order_that_holds_it(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI, text: str
) -> None:
    hanako = shop.hanako

    offline, real = both_ways(ask, fake_openai, hanako, text)

    tracked = hanako.in_transit.number
    assert tracked in offline.state["reply"]
    assert real.state["reply"] == offline.state["reply"]
    assert [g["match"] for g in grounded_by_the_tool(fake_openai)] == [tracked]


def test_several_orders_under_way_are_a_question_for_either_model(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI
) -> None:
    hanako = shop.hanako

    offline, real = both_ways(ask, fake_openai, hanako, "注文の状況を教えてください")

    for outcome in (offline, real):
        assert outcome.status == "awaiting_customer"
        assert outcome.state["question"]["slot"] == "order"
    offered = {o["value"] for o in real.state["question"]["options"]}
    assert {hanako.pending.number, hanako.in_transit.number} <= offered
    assert offered == {o["value"] for o in offline.state["question"]["options"]}


def test_a_number_that_is_none_of_theirs_is_asked_about_never_swapped(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI
) -> None:
    hanako = shop.hanako
    theirs = {int(digits(order)) for order in Order.objects.filter(customer=hanako.customer)}
    unknown = next(n for n in range(max(theirs) + 1, max(theirs) + 100) if n not in theirs)

    offline, real = both_ways(ask, fake_openai, hanako, f"{unknown}をキャンセルしてください")

    for outcome in (offline, real):
        assert outcome.pending_actions == []
        assert outcome.status == "awaiting_customer"
    assert all(g["match"] is None and g["unmatched"] for g in grounded_by_the_tool(fake_openai))
