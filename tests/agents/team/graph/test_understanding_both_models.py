"""Issue 24's classes hold for a real model as for the offline one: the facts decide in code
both share.

Each case runs twice, through the offline model and through the real ``ChatOpenAI`` client
against the local OpenAI-compatible server (answering as the offline model does), and both
must propose the same actions and say the same thing. Which order the customer means, named
without its number (bare, by amount, by an item and its state, or not at all with several under
way), is grounded by the Order agent's ``search_orders`` tool against their real orders
(``agents.support.grounding``): the OpenAI run must have had the order from the tool. Then
an item's refund, two requests on two orders, a refusal with its way out, an item taken off.
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


# --- The other classes of issue 24, the same through either model -----------------------------


def proposed(outcome: RunOutcome) -> list[tuple[str, dict[str, Any]]]:
    """The actions a person is asked to approve (each run has ids of its own)."""
    return [(action["kind"], action["params"]) for action in outcome.pending_actions]


def same_outcome(offline: RunOutcome, real: RunOutcome) -> RunOutcome:
    assert (real.status, proposed(real)) == (offline.status, proposed(offline))
    assert real.state.get("reply") == offline.state.get("reply")
    return real


def test_an_item_refund_is_that_items_price(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI
) -> None:
    emily = shop.emily
    text = f"One of the two bath towels in {emily.delivered.number} arrived torn, refund it please"

    outcome = same_outcome(*both_ways(ask, fake_openai, emily, text))

    assert [(a["kind"], a["params"]["amount"]) for a in outcome.pending_actions] == [
        ("process_refund", 4300)
    ]


def test_two_requests_on_two_orders_are_each_done_on_their_own(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI
) -> None:
    hanako = shop.hanako
    pending, parcel = hanako.pending.number, hanako.in_transit.number
    text = f"{pending}をキャンセルしてください。あと{parcel}はいつ届きますか？"

    outcome = same_outcome(*both_ways(ask, fake_openai, hanako, text))

    assert action_orders(outcome) == [("cancel_order", hanako.pending.number)]
    assert hanako.in_transit.number in outcome.state["reply"]


def test_a_delivered_order_is_not_cancelled_and_the_way_out_is_said(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI
) -> None:
    hanako = shop.hanako
    text = f"{hanako.delivered.number}をキャンセルしたいです"

    outcome = same_outcome(*both_ways(ask, fake_openai, hanako, text))

    assert outcome.pending_actions == []
    assert "返品" in outcome.state["reply"]


def test_an_item_taken_off_never_becomes_a_cancellation(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI
) -> None:
    emily = shop.emily
    text = f"Please remove the chopsticks from {emily.preparing.number}"

    outcome = same_outcome(*both_ways(ask, fake_openai, emily, text))

    assert "cancel_order" not in [kind for kind, _ in action_orders(outcome)]
