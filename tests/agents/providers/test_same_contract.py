"""Both model providers are handed the same contract by the same graph turn.

The graph writes its prompt blocks once (``agents.contract.blocks``); which provider runs must
not change what a model is told. The same inquiry runs twice: through the offline model, and
through the real ``ChatOpenAI`` against the local OpenAI-compatible server, whose answers come
from the offline model itself (so both runs take the same path). Every model call of the two
runs is then compared: same role prompt, same blocks, same tools.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from django.test import override_settings
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from agents.contract.blocks import ClassifyRequest
from agents.providers.offline import OfflineChatModel
from agents.support.conversations.intake import inquiry_create
from agents.team.runs.driver import inquiry_run
from agents.team.runs.outcome import RunOutcome
from netshop.models import Customer
from tests.factories import CustomerFactory, help_article, in_transit_order
from tests.support.fake_openai import FakeOpenAI
from tests.support.offline_proxy import offline_answer, wire_messages

pytestmark = pytest.mark.django_db(transaction=True)

# One model call as the contract sees it: the role's prompt, what it was handed, its tools.
Call = tuple[str, str, tuple[str, ...]]


def _call(messages: list[BaseMessage], tools: list[str]) -> Call:
    system = next((str(m.content) for m in messages if isinstance(m, SystemMessage)), "")
    handed = [str(m.content) for m in messages if isinstance(m, HumanMessage)]
    return system, handed[-1] if handed else "", tuple(sorted(tools))


def _ask(customer: Customer, text: str) -> RunOutcome:
    inquiry = inquiry_create(customer=customer, text=text, start=False)
    return inquiry_run(inquiry=inquiry)


@pytest.fixture
def shop() -> Customer:
    customer = CustomerFactory.create(code="C7301", language="ja")
    in_transit_order(customer=customer, number="ORD-7301")
    help_article(title="支払い方法は?", body="クレジットカードとコンビニ払いです。")
    return customer


@pytest.mark.parametrize(
    "text",
    ["ORD-7301はいつ届きますか?", "支払い方法を教えてください", "荷物がまだ届きません"],
    ids=["tracking", "faq", "which-order"],
)
def test_both_providers_are_handed_the_same_blocks(
    shop: Customer, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    offline_calls: list[Call] = []
    respond = OfflineChatModel._respond

    def recorded(self: OfflineChatModel, messages: list[BaseMessage], tools: list[str]) -> Any:
        offline_calls.append(_call(messages, [] if tools == ["Classification"] else tools))
        return respond(self, messages, tools)

    monkeypatch.setattr(OfflineChatModel, "_respond", recorded)
    offline = _ask(shop, text)
    monkeypatch.setattr(OfflineChatModel, "_respond", respond)

    fake_openai.responder = offline_answer
    with override_settings(
        NETSHOP_MODEL_PROVIDER="openai",
        OPENAI_API_KEY="test-key",
        OPENAI_BASE_URL=fake_openai.base_url,
    ):
        real = _ask(shop, text)
    openai_calls = [
        _call(
            wire_messages(request),
            [tool["function"]["name"] for tool in request.get("tools", [])],
        )
        for request in fake_openai.chat_requests
    ]

    assert real.status == offline.status
    assert real.state.get("reply") == offline.state.get("reply")
    # The lanes run in parallel, so the calls are compared as a collection.
    assert Counter(openai_calls) == Counter(offline_calls)
    assert fake_openai.rejected == []


def test_the_classifier_reads_back_the_request_the_supervisor_wrote() -> None:
    request = ClassifyRequest(
        inquiry="ORD-7301 <b>まだ</b>?",
        conversation=[{"who": "customer", "text": "前の質問"}],
        question={"slot": "order", "options": [{"value": "ORD-7301"}]},
    )

    assert ClassifyRequest.parse(request.render()) == request
    assert json.loads(request.render().split("<question>\n")[1].split("\n</question>")[0]) == {
        "slot": "order",
        "options": [{"value": "ORD-7301"}],
    }
