"""What OpenAI's chat completions endpoint refuses with a 400, as pure functions of the body.

``request_problems(body)`` lists every rule a request breaks, first the one the API would
name; the fake server answers the first with OpenAI's error shape. The rules:

- Schemas: a ``json_schema`` response format with ``strict: true`` and a function tool with
  ``"strict": true`` must keep to the Structured Outputs subset (``openai_schemas``); without
  ``strict`` a schema is only taken as a JSON object describing an object. Names of formats
  and functions: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
  length of 64" (the API reference, ``response_format.json_schema.name`` and
  ``function.name``).
- ``tool_choice`` and ``parallel_tool_calls`` only with ``tools``; ``tool_choice`` one of
  none, auto, required, or a function that is among the tools.
- Tool results: a ``tool`` message answers a call of the assistant message just before it
  (or before its sibling results), and every call of an assistant message is answered
  before the next other message.

Sources for the wording (the API's 400s as users quote them in issue trackers, e.g.
openai/swarm#30, openai/openai-go#43, dottxt-ai/outlines#844, and the OpenAPI spec's
``parallel_tool_calls`` discussion, openai/openai-openapi#287): "Invalid value for
'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
the same for 'tool_choice', "Invalid parameter: messages with role 'tool' must be a response
to a preceeding message with 'tool_calls'." (sic), "An assistant message with 'tool_calls'
must be followed by tool messages responding to each 'tool_call_id'. The following
tool_call_ids did not have response messages: ...", "Invalid schema for response_format
'NAME': In context=(), 'additionalProperties' is required to be supplied and to be false.".
The message for a ``tool_choice`` naming an absent function is ours: no quote was found.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tests.support.openai_schemas import basic_problems, strict_problems

Json = dict[str, Any]
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
TOOL_CHOICES = ("none", "auto", "required")


@dataclass(frozen=True)
class Problem:
    """One broken rule, as the ``error`` object of a 400 names it."""

    message: str
    param: str | None = None
    code: str | None = None


def request_problems(request: Json) -> list[Problem]:
    """Every rule ``request`` (a chat completions body) breaks; empty when OpenAI takes it."""
    return [
        *_tool_problems(request.get("tools")),
        *_choice_problems(request),
        *_response_format_problems(request.get("response_format")),
        *message_problems(request.get("messages") or []),
    ]


def message_problems(messages: list[Any]) -> Iterator[Problem]:
    """Tool results answer the calls of the assistant message before them, every one."""
    calls: list[str] | None = None  # the ids the latest assistant message asked for
    unanswered: list[str] = []
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role == "tool":
            call_id = message.get("tool_call_id")
            if calls is None or call_id not in calls:
                yield _stray_tool_result(index)
            elif call_id in unanswered:
                unanswered.remove(call_id)
            continue
        if unanswered:
            yield _unanswered(unanswered, f"messages.[{index}].role")
        calls = _call_ids(message) if role == "assistant" else None
        unanswered = list(calls or [])
    if unanswered:
        yield _unanswered(unanswered, "messages")


def _call_ids(message: Json) -> list[str] | None:
    tool_calls = message.get("tool_calls")
    if not isinstance(tool_calls, list) or not tool_calls:
        return None
    return [str(call.get("id")) for call in tool_calls if isinstance(call, dict)]


def _stray_tool_result(index: int) -> Problem:
    message = (
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding"
        " message with 'tool_calls'."
    )
    return Problem(message, f"messages.[{index}].role")


def _unanswered(ids: list[str], param: str) -> Problem:
    message = (
        "An assistant message with 'tool_calls' must be followed by tool messages responding"
        " to each 'tool_call_id'. The following tool_call_ids did not have response messages:"
        f" {', '.join(ids)}"
    )
    return Problem(message, param)


def _tool_problems(tools: Any) -> Iterator[Problem]:
    for index, tool in enumerate(tools or []):
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict) or tool.get("type") != "function":
            yield Problem(f"Invalid 'tools[{index}]': expected a function tool.", f"tools[{index}]")
            continue
        name = function.get("name")
        if not isinstance(name, str) or not NAME.match(name):
            yield _bad_name(f"tools[{index}].function.name")
            continue
        parameters = function.get("parameters", {"type": "object", "properties": {}})
        check = strict_problems if function.get("strict") is True else basic_problems
        for problem in check(parameters):
            message = f"Invalid schema for function '{name}': {problem}"
            param = f"tools[{index}].function.parameters"
            yield Problem(message, param, "invalid_function_parameters")


def _choice_problems(request: Json) -> Iterator[Problem]:
    names = [
        tool["function"].get("name")
        for tool in request.get("tools") or []
        if isinstance(tool, dict) and isinstance(tool.get("function"), dict)
    ]
    for param in ("tool_choice", "parallel_tool_calls"):
        if param in request and not names:
            message = f"'{param}' is only allowed when 'tools' are specified."
            yield Problem(f"Invalid value for '{param}': {message}", param)
    choice = request.get("tool_choice")
    if isinstance(choice, str) and choice not in TOOL_CHOICES:
        message = (
            f"Invalid value: '{choice}'. Supported values are: 'none', 'auto', and 'required'."
        )
        yield Problem(message, "tool_choice", "invalid_value")
    elif isinstance(choice, dict) and names:
        forced = (choice.get("function") or {}).get("name")
        if choice.get("type") != "function" or forced not in names:
            message = f"Invalid value for 'tool_choice': function {forced!r} is not in 'tools'."
            yield Problem(message, "tool_choice", "invalid_value")


def _response_format_problems(response_format: Any) -> Iterator[Problem]:
    if response_format is None:
        return
    kind = response_format.get("type") if isinstance(response_format, dict) else None
    if kind not in ("text", "json_object", "json_schema"):
        supported = "'text', 'json_object' and 'json_schema'"
        message = f"Invalid value: {kind!r}. Supported values are: {supported}."
        yield Problem(message, "response_format.type", "invalid_value")
        return
    if kind != "json_schema":
        return
    spec = response_format.get("json_schema")
    name = spec.get("name") if isinstance(spec, dict) else None
    if not isinstance(name, str) or not NAME.match(name):
        yield _bad_name("response_format.json_schema.name")
        return
    check = strict_problems if spec.get("strict") is True else basic_problems
    for problem in check(spec.get("schema", {})):
        yield Problem(f"Invalid schema for response_format '{name}': {problem}", "response_format")


def _bad_name(param: str) -> Problem:
    message = (
        f"Invalid '{param}': string does not match pattern. Expected a string that matches the"
        " pattern '^[a-zA-Z0-9_-]+$' (at most 64 characters)."
    )
    return Problem(message, param, "invalid_value")
