"""The offline model behind the fake OpenAI server: a real ``ChatOpenAI`` run that takes the
offline model's path.

The fake server (``fake_openai``) hands each request to ``offline_answer``, which reads the
request's wire messages back into LangChain's and answers as the offline model would. A run
through the real client then exercises the OpenAI path (wire format, tool schemas, argument
validation, the tools' results read back by the model) on the offline model's decisions.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_openai.chat_models.base import _convert_dict_to_message

from agents.providers.offline import OfflineChatModel
from tests.support.fake_openai import Reply


def wire_messages(request: dict[str, Any]) -> list[BaseMessage]:
    """The request's messages as LangChain's; a tool message gets back the tool's name, which
    OpenAI's wire format leaves to the call it answers."""
    messages = [_convert_dict_to_message(message) for message in request["messages"]]
    names = {
        call["id"]: call["name"]
        for message in messages
        if isinstance(message, AIMessage)
        for call in message.tool_calls
    }
    for message in messages:
        if isinstance(message, ToolMessage):
            message.name = names.get(message.tool_call_id)
    return messages


def offline_answer(request: dict[str, Any]) -> Reply:
    """What the offline model answers to this request, as the OpenAI server would send it."""
    messages = wire_messages(request)
    model = OfflineChatModel(role="specialist")
    if "response_format" in request:
        (call,) = model._respond(messages, ["Classification"]).tool_calls
        return Reply.structured_output(call["args"])
    names = [tool["function"]["name"] for tool in request.get("tools", [])]
    answer = model._respond(messages, names)
    if answer.tool_calls:
        return Reply.tool_calls(*((call["name"], call["args"]) for call in answer.tool_calls))
    return Reply.text(str(answer.content))
