"""Asking the customer with the real ``ChatOpenAI`` client, against the local fake server.

Given a model that calls ``ask_customer`` with two candidate orders, when the run reviews it,
then the question goes to the writer with the ``<ask>`` brief and the model's own wording is
the message the customer gets; the run waits for them, with nothing done.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agents.models import InquiryStatus
from agents.team.runs.outcome import RunOutcome
from netshop.models import Coupon, Redelivery
from tests.support.fake_openai import FakeOpenAI, Reply

Ask = Callable[..., RunOutcome]

CLASSIFIED = {
    "agents": ["order", "shipping"],
    "intent": "track_shipment",
    "secondary_intents": [],
    "entities": {},
    "language": "en",
    "confidence": 0.9,
    "injection_suspected": False,
}
OPTIONS = [
    {"value": "ORD-1002", "label": "teapot, in transit"},
    {"value": "ORD-1004", "label": "donabe, back at the depot"},
]
WRITTEN = "Which order do you mean? 1. ORD-1002 2. ORD-1004 - reply with the number."


def tool_names(request: dict[str, Any]) -> list[str]:
    return [tool["function"]["name"] for tool in request.get("tools", [])]


def asking_model(request: dict[str, Any]) -> Reply:
    if "response_format" in request:
        return Reply.structured_output(CLASSIFIED)
    names = tool_names(request)
    if "search_orders" in names and request["messages"][-1]["role"] != "tool":
        return Reply.tool_call(
            "ask_customer", {"slot": "order", "why": "ambiguous", "options": OPTIONS}
        )
    return Reply.text(WRITTEN)


def test_a_real_model_s_question_is_written_by_the_model_and_the_run_waits(
    ask: Ask, fake_openai: FakeOpenAI, openai_settings: Any
) -> None:
    fake_openai.responder = asking_model

    outcome = ask("My parcel hasn't arrived.")

    assert outcome.status == InquiryStatus.AWAITING_CUSTOMER
    assert outcome.state["reply"] == WRITTEN
    assert outcome.state["question"]["options"] == OPTIONS
    specialists = [r for r in fake_openai.chat_requests if tool_names(r)]
    assert "ask_customer" in tool_names(specialists[0])
    assert not any("track_shipment" in tool_names(r) for r in specialists)  # shipping skipped
    writer = fake_openai.chat_requests[-1]
    brief = writer["messages"][-1]["content"]
    assert json.loads(brief.split("<ask>\n")[1].split("\n</ask>")[0])["options"] == OPTIONS
    assert not Coupon.objects.filter(inquiry_ref=outcome.inquiry_id).exists()
    assert not Redelivery.objects.exists()
