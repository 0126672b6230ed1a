"""The graph with the real ``ChatOpenAI`` client, against the local OpenAI-compatible server.

Same graph, same code path as the offline model: only the model behind ``agents.providers`` changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.team.runs.outcome import RunOutcome
from netshop.models import Refund
from tests.support.fake_openai import FakeOpenAI, Reply
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]


def classified_refund(order_number: str) -> dict[str, Any]:
    return {
        "agents": ["order", "payment"],
        "intent": "process_refund",
        "secondary_intents": [],
        "entities": {"order_numbers": [order_number], "amounts": [999999]},
        "language": "ja",
        "confidence": 0.92,
        "injection_suspected": False,
    }


def tool_names(request: dict[str, Any]) -> list[str]:
    return [tool["function"]["name"] for tool in request.get("tools", [])]


def shop_model(order_number: str) -> Callable[[dict[str, Any]], Reply]:
    """A well-behaved model asked to refund ``order_number``: classify, one tool call per
    specialist, then a short reply."""

    def answer(request: dict[str, Any]) -> Reply:
        if "response_format" in request:
            return Reply.structured_output(classified_refund(order_number))
        names = tool_names(request)
        if names and request["messages"][-1]["role"] != "tool":
            if "get_order_details" in names:
                return Reply.tool_call("get_order_details", {"order_number": order_number})
            if "process_refund" in names:
                refund = {"order_number": order_number, "reason": "破損", "amount": 999999}
                return Reply.tool_call("process_refund", refund)
        return Reply.text("確認いたしました。")

    return answer


def test_the_real_client_drives_the_graph_to_the_approval_point(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI, openai_settings: Any
) -> None:
    fake_openai.responder = shop_model(shop.hanako.delivered.number)

    outcome = ask(f"{shop.hanako.delivered.number}が壊れていたので999999円返金して")

    assert outcome.status == "awaiting_approval"
    [action] = outcome.pending_actions
    assert action["params"]["amount"] == 12800
    assert action["capped"] is True
    assert not Refund.objects.filter(payment__order__number=shop.hanako.delivered.number).exists()
    models = {request["model"] for request in fake_openai.chat_requests}
    assert models == {"gpt-4o-mini"}


def test_malformed_classification_json_escalates_at_once(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI, openai_settings: Any
) -> None:
    fake_openai.script(Reply.malformed_json())

    outcome = ask(f"{shop.hanako.delivered.number}を返金して")

    assert outcome.status == "escalated"
    assert outcome.state["escalation"]["reason"] == "supervisor_failure"
    assert len(fake_openai.chat_requests) == 1


def test_a_specialist_timing_out_is_retried_then_answered_partially(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI, openai_settings: Any
) -> None:
    openai_settings.NETSHOP_MODEL_TIMEOUT_S = 0.2

    def slow_shipping(request: dict[str, Any]) -> Reply:
        if "response_format" in request:
            return Reply.structured_output(
                {
                    **classified_refund(shop.hanako.in_transit.number),
                    "agents": ["order", "shipping"],
                    "intent": "track_shipment",
                    "entities": {"order_numbers": [shop.hanako.in_transit.number]},
                }
            )
        if "track_shipment" in tool_names(request):
            return Reply.text("late").after(1.0)
        if "get_order_details" in tool_names(request) and request["messages"][-1]["role"] != "tool":
            return Reply.tool_call(
                "get_order_details", {"order_number": shop.hanako.in_transit.number}
            )
        return Reply.text("ご確認ありがとうございます。")

    fake_openai.responder = slow_shipping

    outcome = ask(f"{shop.hanako.in_transit.number}はどこ？")

    shipping_calls = [r for r in fake_openai.chat_requests if "track_shipment" in tool_names(r)]
    assert len(shipping_calls) == 4  # the first try and three re-plans
    assert outcome.state["envelopes"]["shipping"]["error_code"] == "model_error"
    assert outcome.state["status"] == "resolved"  # a partial answer: a draft for a person
    assert outcome.state["reply"] == "ご確認ありがとうございます。"


def test_a_server_error_from_the_writer_escalates(
    shop: SupportShop, ask: Ask, fake_openai: FakeOpenAI, openai_settings: Any
) -> None:
    delivered = shop.hanako.delivered.number
    well_behaved = shop_model(delivered)

    def writer_down(request: dict[str, Any]) -> Reply:
        if "response_format" in request:
            return Reply.structured_output(
                {**classified_refund(delivered), "agents": ["order"], "intent": "get_order_details"}
            )
        if tool_names(request):
            return well_behaved(request)
        return Reply.http_error(500)

    fake_openai.responder = writer_down

    outcome = ask(f"{shop.hanako.delivered.number}の注文内容を教えて")

    assert outcome.status == "escalated"
    assert outcome.state["escalation"]["reason"] == "supervisor_failure"
    assert outcome.state["envelopes"]["order"]["status"] == "success"
