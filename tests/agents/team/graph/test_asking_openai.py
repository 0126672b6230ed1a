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
from tests.support.scenarios import BusyShopper, SupportShop

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


def options(hanako: BusyShopper) -> list[dict[str, str]]:
    """Hanako's two parcels not at her door: the one in transit and the one taken back."""
    return [
        {"value": hanako.in_transit.number, "label": "teapot, in transit"},
        {"value": hanako.absent_returned.number, "label": "donabe, back at the depot"},
    ]


def written(hanako: BusyShopper) -> str:
    in_transit, taken_back = hanako.in_transit.number, hanako.absent_returned.number
    return f"Which order do you mean? 1. {in_transit} 2. {taken_back} - reply with the number."


def tool_names(request: dict[str, Any]) -> list[str]:
    return [tool["function"]["name"] for tool in request.get("tools", [])]


def asking_model(hanako: BusyShopper) -> Callable[[dict[str, Any]], Reply]:
    def answer(request: dict[str, Any]) -> Reply:
        if "response_format" in request:
            return Reply.structured_output(CLASSIFIED)
        names = tool_names(request)
        if "search_orders" in names and request["messages"][-1]["role"] != "tool":
            return Reply.tool_call(
                "ask_customer", {"slot": "order", "why": "ambiguous", "options": options(hanako)}
            )
        return Reply.text(written(hanako))

    return answer


def test_a_real_model_s_question_is_written_by_the_model_and_the_run_waits(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI, openai_settings: Any
) -> None:
    fake_openai.responder = asking_model(shop.hanako)

    outcome = ask("My parcel hasn't arrived.")

    assert outcome.status == InquiryStatus.AWAITING_CUSTOMER
    assert outcome.state["reply"] == written(shop.hanako)
    assert outcome.state["question"]["options"] == options(shop.hanako)
    specialists = [r for r in fake_openai.chat_requests if tool_names(r)]
    assert "ask_customer" in tool_names(specialists[0])
    assert not any("track_shipment" in tool_names(r) for r in specialists)  # shipping skipped
    writer = fake_openai.chat_requests[-1]
    brief = writer["messages"][-1]["content"]
    assert json.loads(brief.split("<ask>\n")[1].split("\n</ask>")[0])["options"] == options(
        shop.hanako
    )
    assert not Coupon.objects.filter(inquiry_ref=outcome.inquiry_id).exists()
    assert not Redelivery.objects.exists()
