"""The real ``ChatOpenAI`` from ``agents.providers.chat_model`` against the local fake OpenAI
server.

These pin down what langchain-openai really sends and how it reads each kind of answer, so the
agent code can rely on it: tool calls, structured output, malformed JSON, errors and timeouts.
"""

from __future__ import annotations

import time
from typing import Any, cast

import openai
import pydantic
import pytest
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.tools import tool
from pydantic import BaseModel
from pytest_django import Settings

from agents import providers
from agents.providers import chat_model
from agents.team.graph import supervisor
from agents.team.graph.state import InquiryState
from agents.team.specialists import SPECIALISTS
from tests.support.fake_openai import FakeOpenAI, Reply, default_responder

pytestmark = pytest.mark.usefixtures("openai_settings")


@tool
def order_lookup(order_number: str) -> str:
    """Look up one order by its number, e.g. ORD-4003."""
    return order_number


class Verdict(BaseModel):
    label: str
    score: int


ORDER_LOOKUP_SCHEMA = {
    "type": "function",
    "function": {
        "name": "order_lookup",
        "description": "Look up one order by its number, e.g. ORD-4003.",
        "parameters": {
            "properties": {"order_number": {"type": "string"}},
            "required": ["order_number"],
            "type": "object",
        },
    },
}


def test_plain_answer_is_the_message_content(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.text("Your order ships tomorrow."))

    answer = chat_model("writer").invoke(
        [SystemMessage("Be brief."), HumanMessage("Where is ORD-4003?")]
    )

    assert answer.content == "Your order ships tomorrow."
    [request] = fake_openai.requests
    assert request.headers["authorization"] == "Bearer test-key"
    assert request.json["model"] == "gpt-4o-mini"
    assert request.json["temperature"] == 0
    assert request.json["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Where is ORD-4003?"},
    ]
    assert "tools" not in request.json


def test_each_role_asks_for_its_configured_model(
    fake_openai: FakeOpenAI, settings: Settings
) -> None:
    settings.NETSHOP_MODEL_NAMES = {"supervisor": "sup", "specialist": "spec", "writer": "wri"}
    fake_openai.script(Reply.text("a"), Reply.text("b"), Reply.text("c"))

    for role in ("supervisor", "specialist", "writer"):
        chat_model(role).invoke("hi")

    assert [r["model"] for r in fake_openai.chat_requests] == ["sup", "spec", "wri"]


def test_streamed_answer_arrives_in_pieces(fake_openai: FakeOpenAI) -> None:
    text = "Your order ORD-4003 left our warehouse this morning."
    fake_openai.script(Reply.text(text))

    chunks = list(chat_model("writer").stream("Where is ORD-4003?"))

    assert len(chunks) > 2
    assert "".join(str(chunk.content) for chunk in chunks) == text
    assert fake_openai.chat_requests[0]["stream"] is True


def test_tool_call_is_parsed_with_its_arguments(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.tool_call("order_lookup", {"order_number": "ORD-4003"}))

    answer = chat_model("specialist").bind_tools([order_lookup]).invoke("Where is ORD-4003?")

    [call] = answer.tool_calls
    assert (call["name"], call["args"], call["type"]) == (
        "order_lookup",
        {"order_number": "ORD-4003"},
        "tool_call",
    )
    assert call["id"] is not None
    assert call["id"].startswith("call_")
    assert answer.invalid_tool_calls == []
    assert fake_openai.chat_requests[0]["tools"] == [ORDER_LOOKUP_SCHEMA]


def test_parallel_tool_calls_keep_their_order(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(
        Reply.tool_calls(
            ("order_lookup", {"order_number": "ORD-1"}),
            ("order_lookup", {"order_number": "ORD-2"}),
        )
    )

    answer = chat_model("specialist").bind_tools([order_lookup]).invoke("ORD-1 and ORD-2?")

    assert [call["args"] for call in answer.tool_calls] == [
        {"order_number": "ORD-1"},
        {"order_number": "ORD-2"},
    ]


def test_streamed_tool_call_reassembles(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.tool_call("order_lookup", {"order_number": "ORD-4003"}))

    chunks = chat_model("specialist").bind_tools([order_lookup]).stream("Where is ORD-4003?")
    answer = sum(chunks, AIMessageChunk(content=""))

    assert isinstance(answer, AIMessageChunk)
    assert [(c["name"], c["args"]) for c in answer.tool_calls] == [
        ("order_lookup", {"order_number": "ORD-4003"})
    ]


def test_malformed_tool_arguments_become_an_invalid_tool_call(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.tool_call("order_lookup", '{"order_number": "ORD-'))

    answer = chat_model("specialist").bind_tools([order_lookup]).invoke("Where is ORD-4003?")

    assert answer.tool_calls == []
    [invalid] = answer.invalid_tool_calls
    assert (invalid["name"], invalid["args"]) == ("order_lookup", '{"order_number": "ORD-')
    assert invalid["error"]


def test_structured_output_is_sent_as_a_json_schema_response_format(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script(Reply.structured_output(Verdict(label="refund", score=3)))

    verdict = chat_model("supervisor").with_structured_output(Verdict).invoke("Classify this.")

    assert verdict == Verdict(label="refund", score=3)
    [request] = fake_openai.chat_requests
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["name"] == "Verdict"
    assert request["response_format"]["json_schema"]["strict"] is True
    assert request["response_format"]["json_schema"]["schema"]["required"] == ["label", "score"]
    assert "tools" not in request


def test_structured_output_by_function_calling_forces_the_schema_tool(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script(Reply.structured_output({"label": "refund", "score": 3}))

    structured = chat_model("supervisor").with_structured_output(Verdict, method="function_calling")
    verdict = structured.invoke("Classify this.")

    assert verdict == Verdict(label="refund", score=3)
    [request] = fake_openai.chat_requests
    assert request["tool_choice"] == {"type": "function", "function": {"name": "Verdict"}}
    assert [t["function"]["name"] for t in request["tools"]] == ["Verdict"]
    assert "response_format" not in request


def test_malformed_structured_output_raises_a_validation_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(Reply.malformed_json())

    with pytest.raises(pydantic.ValidationError, match="json_invalid"):
        chat_model("supervisor").with_structured_output(Verdict).invoke("Classify this.")


def test_structured_output_missing_a_field_raises_a_validation_error(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script(Reply.structured_output({"label": "refund"}))

    with pytest.raises(pydantic.ValidationError, match="score"):
        chat_model("supervisor").with_structured_output(Verdict).invoke("Classify this.")


def test_malformed_structured_output_by_function_calling_is_silently_none(
    fake_openai: FakeOpenAI,
) -> None:
    # A trap worth knowing: the tools parser drops invalid tool calls instead of raising.
    fake_openai.script(Reply.malformed_json())

    structured = chat_model("supervisor").with_structured_output(Verdict, method="function_calling")

    assert structured.invoke("Classify this.") is None
    assert fake_openai.chat_requests[0]["tools"][0]["function"]["name"] == "Verdict"


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (500, openai.InternalServerError),
        (503, openai.InternalServerError),
        (429, openai.RateLimitError),
    ],
)
def test_http_errors_raise_the_sdk_error_without_retrying(
    fake_openai: FakeOpenAI, status: int, error: type[openai.APIStatusError]
) -> None:
    fake_openai.script(Reply.http_error(status, "boom", retry_after_s=0))

    with pytest.raises(error, match="boom") as raised:
        chat_model("specialist").invoke("hi")

    assert raised.value.status_code == status
    assert len(fake_openai.chat_requests) == 1


def test_an_answer_later_than_the_timeout_raises_a_timeout(
    fake_openai: FakeOpenAI, settings: Settings
) -> None:
    settings.NETSHOP_MODEL_TIMEOUT_S = 0.2
    fake_openai.script(Reply.text("too late").after(1.5))
    started = time.monotonic()

    with pytest.raises(openai.APITimeoutError):
        chat_model("specialist").invoke("hi")

    assert time.monotonic() - started < 1.0
    assert len(fake_openai.chat_requests) == 1


def test_server_wide_latency_delays_every_answer(fake_openai: FakeOpenAI) -> None:
    fake_openai.latency_s = 0.3
    fake_openai.script(Reply.text("slow"))
    started = time.monotonic()

    chat_model("writer").invoke("hi")

    assert 0.3 <= time.monotonic() - started < 1.0


def test_an_unscripted_request_fails_loudly(fake_openai: FakeOpenAI) -> None:
    with pytest.raises(openai.InternalServerError, match="nothing scripted"):
        chat_model("writer").invoke("hi")


def test_a_scripted_callable_answers_from_the_request(fake_openai: FakeOpenAI) -> None:
    def shout(request: dict[str, Any]) -> Reply:
        return Reply.text(request["messages"][-1]["content"].upper())

    fake_openai.script(shout)

    assert chat_model("writer").invoke("hello").content == "HELLO"


def test_default_responder_calls_the_first_tool_then_answers(fake_openai: FakeOpenAI) -> None:
    fake_openai.responder = default_responder
    model = chat_model("specialist").bind_tools([order_lookup])

    first = model.invoke("Where is ORD-4003?")
    call = first.tool_calls[0]
    result = order_lookup.invoke(call)
    second = model.invoke([HumanMessage("Where is ORD-4003?"), first, result])

    assert (call["name"], call["args"]) == ("order_lookup", {"order_number": ""})
    assert (second.content, second.tool_calls) == ("ok", [])


def test_default_responder_fills_a_structured_output_schema(fake_openai: FakeOpenAI) -> None:
    fake_openai.responder = default_responder

    verdict = chat_model("supervisor").with_structured_output(Verdict).invoke("Classify this.")

    assert verdict == Verdict(label="", score=0)


def test_default_responder_can_echo_the_user() -> None:
    request = {"messages": [{"role": "user", "content": "ping"}]}

    assert default_responder(request, echo=True) == Reply.text("echo: ping")


def test_models_endpoint_lists_the_served_models(fake_openai: FakeOpenAI) -> None:
    client = openai.OpenAI(api_key="test-key", base_url=fake_openai.base_url, max_retries=0)

    assert [model.id for model in client.models.list()] == ["gpt-4o-mini"]


def test_without_the_openai_provider_the_offline_model_answers(
    fake_openai: FakeOpenAI, settings: Settings
) -> None:
    offline = pytest.importorskip(
        "agents.providers.offline", reason="the offline model is not in yet"
    )
    settings.NETSHOP_MODEL_PROVIDER = "offline"

    model = chat_model("supervisor")

    assert isinstance(model, offline.OfflineChatModel)
    assert model.role == "supervisor"
    assert fake_openai.requests == []


def test_a_request_openai_would_refuse_gets_its_400(fake_openai: FakeOpenAI) -> None:
    client = openai.OpenAI(api_key="test-key", base_url=fake_openai.base_url, max_retries=0)
    fake_openai.script(Reply.text("never sent"))

    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": "hi"}],
            tool_choice="auto",
        )

    assert raised.value.status_code == 400
    assert raised.value.body == {
        "message": "Invalid value for 'tool_choice': 'tool_choice' is only allowed when"
        " 'tools' are specified.",
        "type": "invalid_request_error",
        "param": "tool_choice",
        "code": None,
    }
    assert [problem.param for problem in fake_openai.rejected] == ["tool_choice"]
    assert fake_openai.pending == 1  # the scripted answer waits for a request OpenAI takes


class Period(BaseModel):
    span: tuple[str, str]


def test_a_tuple_in_a_structured_output_schema_is_refused_as_openai_does(
    fake_openai: FakeOpenAI,
) -> None:
    structured = chat_model("supervisor").with_structured_output(Period, strict=True)

    # langchain-openai knows the API's wording: it warns about the schema, then raises
    with (
        pytest.warns(UserWarning, match="Invalid schema for OpenAI's structured output"),
        pytest.raises(openai.BadRequestError, match="'prefixItems' is not permitted"),
    ):
        structured.invoke("Which period?")

    assert fake_openai.rejected[0].param == "response_format"


def test_a_tool_result_the_model_did_not_ask_for_is_refused(fake_openai: FakeOpenAI) -> None:
    stray = ToolMessage("{}", tool_call_id="call_never_made")

    with pytest.raises(openai.BadRequestError, match="must be a response to a preceeding"):
        chat_model("specialist").bind_tools([order_lookup]).invoke([HumanMessage("hi"), stray])


def test_every_schema_and_tool_set_the_graph_binds_is_accepted(
    fake_openai: FakeOpenAI,
) -> None:
    # Given the real code paths that bind a schema: the classify node's structured output,
    # and each specialist's tools as its loop binds them
    fake_openai.responder = default_responder

    inquiry = {"text": "ORD-4003を返金して", "inquiry_id": "strict", "customer_id": "C0001"}
    classified = supervisor.classify(cast(InquiryState, inquiry))
    for specialist in SPECIALISTS.values():
        model = providers.with_tools(providers.chat_model("specialist"), specialist.tools)
        turn = [SystemMessage(specialist.prompt), HumanMessage("ORD-4003を返金して")]
        call = model.invoke(turn)
        model.invoke([*turn, call, *answers(call)])

    # Then OpenAI's rules hold for every request: none refused
    assert fake_openai.rejected == []
    assert "classification" in classified
    [format_request] = [r for r in fake_openai.chat_requests if "response_format" in r]
    assert format_request["response_format"]["json_schema"]["strict"] is True
    bound = [r for r in fake_openai.chat_requests if "tools" in r]
    assert {tuple(tool_names(r)) for r in bound} == {
        tuple(tool.name for tool in specialist.tools) for specialist in SPECIALISTS.values()
    }


def answers(message: BaseMessage) -> list[ToolMessage]:
    assert isinstance(message, AIMessage)
    return [ToolMessage("{}", tool_call_id=str(call["id"])) for call in message.tool_calls]


def tool_names(request: dict[str, Any]) -> list[str]:
    return [tool["function"]["name"] for tool in request["tools"]]
