"""A scripted chat model for graph tests: supports ``bind_tools``, answers from a script.

LangChain's fake chat models cannot bind tools; this one can. A test gives it a function
from (role, messages, tool names) to the next ``AIMessage`` (or an exception to raise), and
installs it with ``use_scripted_model``; roles the script returns ``None`` for fall through
to the offline model, so a test scripts only the part it is about.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool

from agents import providers
from agents.providers.offline import OfflineChatModel

Script = Callable[[str, list[BaseMessage], list[str]], "AIMessage | Exception | None"]


class ScriptedChatModel(BaseChatModel):
    role: str
    script: Any
    calls: Any  # the caller's list, shared (a typed field would be copied on validation)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any
    ) -> Any:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        names = [t["function"]["name"] for t in kwargs.get("tools") or []]
        self.calls.append({"role": self.role, "tools": names, "messages": messages})
        answer = self.script(self.role, messages, names)
        if answer is None:
            offline = OfflineChatModel(role=self.role)
            answer = offline._respond(messages, names)
        if isinstance(answer, Exception):
            raise answer
        return ChatResult(generations=[ChatGeneration(message=answer)])


def use_scripted_model(monkeypatch: pytest.MonkeyPatch, script: Script) -> list[dict[str, Any]]:
    """Route every model call through ``script``; returns the list of recorded calls."""
    calls: list[dict[str, Any]] = []

    def factory(role: str) -> BaseChatModel:
        return ScriptedChatModel(role=role, script=script, calls=calls)

    monkeypatch.setattr(providers, "chat_model", factory)
    return calls
