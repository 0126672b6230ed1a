"""The request rules the fake OpenAI server answers 400 for, as OpenAI's chat API does.

Each rule: a request that keeps it passes, the same request breaking it is refused with the
error message, ``param`` and ``code`` the real API sends.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.openai_rules import Problem, request_problems

Json = dict[str, Any]

USER = {"role": "user", "content": "Where is ORD-4003?"}
CLOSED = {
    "type": "object",
    "properties": {"order_number": {"type": "string"}},
    "required": ["order_number"],
    "additionalProperties": False,
}
OPEN = {"type": "object", "properties": {"order_number": {"type": "string", "default": ""}}}


def tool(name: str = "order_lookup", parameters: Json = OPEN, **extra: Any) -> Json:
    return {"type": "function", "function": {"name": name, "parameters": parameters, **extra}}


def calling(*ids: str) -> Json:
    calls = [
        {"id": i, "type": "function", "function": {"name": "order_lookup", "arguments": "{}"}}
        for i in ids
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def result(call_id: str) -> Json:
    return {"role": "tool", "tool_call_id": call_id, "content": "{}"}


def chat(*messages: Json, **body: Any) -> Json:
    return {"model": "gpt-4o-mini", "messages": list(messages or [USER]), **body}


def test_a_plain_request_passes() -> None:
    assert request_problems(chat(USER)) == []


def test_every_tool_call_answered_in_order_passes() -> None:
    request = chat(USER, calling("a", "b"), result("b"), result("a"), tools=[tool()])

    assert request_problems(request) == []


def test_a_tool_result_without_a_call_before_it_is_refused() -> None:
    assert request_problems(chat(USER, result("a"))) == [
        Problem(
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding"
            " message with 'tool_calls'.",
            "messages.[1].role",
        )
    ]


def test_a_tool_result_for_an_unknown_call_is_refused() -> None:
    [problem] = request_problems(chat(USER, calling("a"), result("a"), result("zzz")))

    assert problem.param == "messages.[3].role"


def test_a_tool_result_after_another_message_is_refused() -> None:
    request = chat(USER, calling("a"), result("a"), {"role": "user", "content": "?"}, result("a"))

    assert [p.param for p in request_problems(request)] == ["messages.[4].role"]


@pytest.mark.parametrize(
    ("messages", "param"),
    [
        ((USER, calling("a", "b"), result("b"), USER), "messages.[3].role"),
        ((USER, calling("a", "b"), result("b")), "messages"),
    ],
    ids=["before-the-next-message", "at-the-end"],
)
def test_a_call_left_unanswered_is_refused(messages: tuple[Json, ...], param: str) -> None:
    assert request_problems(chat(*messages)) == [
        Problem(
            "An assistant message with 'tool_calls' must be followed by tool messages"
            " responding to each 'tool_call_id'. The following tool_call_ids did not have"
            " response messages: a",
            param,
        )
    ]


@pytest.mark.parametrize("param", ["tool_choice", "parallel_tool_calls"])
def test_tool_options_without_tools_are_refused(param: str) -> None:
    value = "auto" if param == "tool_choice" else False

    assert request_problems(chat(**{param: value, "tools": [tool()]})) == []
    assert request_problems(chat(**{param: value})) == [
        Problem(
            f"Invalid value for '{param}': '{param}' is only allowed when 'tools' are specified.",
            param,
        )
    ]


def test_tool_choice_names_a_function_among_the_tools() -> None:
    forced = {"type": "function", "function": {"name": "order_lookup"}}
    elsewhere = {"type": "function", "function": {"name": "refund"}}

    assert request_problems(chat(tools=[tool()], tool_choice=forced)) == []
    [problem] = request_problems(chat(tools=[tool()], tool_choice=elsewhere))
    assert (problem.param, problem.code) == ("tool_choice", "invalid_value")
    assert "'refund'" in problem.message


def test_tool_choice_is_none_auto_required_or_a_function() -> None:
    assert request_problems(chat(tools=[tool()], tool_choice="required")) == []
    assert request_problems(chat(tools=[tool()], tool_choice="always")) == [
        Problem(
            "Invalid value: 'always'. Supported values are: 'none', 'auto', and 'required'.",
            "tool_choice",
            "invalid_value",
        )
    ]


def test_a_strict_tool_keeps_to_the_structured_outputs_subset() -> None:
    assert request_problems(chat(tools=[tool(parameters=CLOSED, strict=True)])) == []
    [problem, *_] = request_problems(chat(tools=[tool(parameters=OPEN, strict=True)]))
    assert problem == Problem(
        "Invalid schema for function 'order_lookup': In context=(), 'additionalProperties' is"
        " required to be supplied and to be false.",
        "tools[0].function.parameters",
        "invalid_function_parameters",
    )


def test_a_tool_without_strict_only_needs_an_object_schema() -> None:
    assert request_problems(chat(tools=[tool(parameters=OPEN)])) == []
    [problem] = request_problems(chat(tools=[tool(parameters={"type": "string"})]))
    assert problem.param == "tools[0].function.parameters"


def test_a_function_name_is_letters_digits_underscores_and_dashes() -> None:
    assert request_problems(chat(tools=[tool("order-lookup_2")])) == []
    [problem] = request_problems(chat(tools=[tool("order lookup")]))
    assert (problem.param, problem.code) == ("tools[0].function.name", "invalid_value")


def response_format(schema: Json, *, strict: bool, name: str = "Verdict") -> Json:
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema, "strict": strict},
    }


def test_a_strict_response_format_keeps_to_the_structured_outputs_subset() -> None:
    assert request_problems(chat(response_format=response_format(CLOSED, strict=True))) == []
    [problem, *_] = request_problems(chat(response_format=response_format(OPEN, strict=True)))
    assert problem == Problem(
        "Invalid schema for response_format 'Verdict': In context=(), 'additionalProperties' is"
        " required to be supplied and to be false.",
        "response_format",
    )


def test_a_response_format_without_strict_only_needs_an_object_schema() -> None:
    assert request_problems(chat(response_format=response_format(OPEN, strict=False))) == []
    assert request_problems(chat(response_format={"type": "json_object"})) == []
    [problem] = request_problems(chat(response_format={"type": "yaml"}))
    assert (problem.param, problem.code) == ("response_format.type", "invalid_value")


def test_a_response_format_name_is_letters_digits_underscores_and_dashes() -> None:
    named = response_format(CLOSED, strict=True, name="a" * 65)

    [problem] = request_problems(chat(response_format=named))
    assert problem.param == "response_format.json_schema.name"
