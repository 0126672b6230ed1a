"""The built-in offline model: deterministic, no network, the same chat interface as ChatOpenAI.

It speaks LangChain's chat-model protocol (messages in, an ``AIMessage`` out, ``bind_tools``
and tool calls), so the graph has one code path whichever model runs it. Three layers, by
what a maintainer changes: ``understanding`` reads text (the classifier for the supervisor's
structured output, ``followup`` for later turns, the cues the other layers read), ``turns``
decides each specialist's tool calls (one module per specialist and per intent with rules
of its own), ``writing`` writes the reply and the questions to the customer, every word from
the catalogue (``agents.support.catalogue``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from agents.contract.blocks import ClassifyRequest, writer_brief
from agents.providers.offline import turns
from agents.providers.offline.transcript import last_human_text
from agents.providers.offline.understanding.followup import classify_turn
from agents.providers.offline.writing import write_reply
from agents.providers.offline.writing.questions import write_question

__all__ = ["OfflineChatModel"]


class OfflineChatModel(BaseChatModel):
    """A rule-based stand-in for a chat model, good enough to run the shop's support."""

    role: str = "specialist"

    @property
    def _llm_type(self) -> str:
        return "netshop-offline"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        schemas = [convert_to_openai_tool(tool) for tool in tools]
        traced = kwargs.get("ls_structured_output_format")
        if traced and len(schemas) == 1:
            # LangChain turns this schema into JSON again on every call, only for tracing
            # metadata (most of a classification's CPU): give it the one already converted.
            kwargs["ls_structured_output_format"] = {**traced, "schema": schemas[0]}
        return self.bind(tools=schemas, tool_choice=tool_choice, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        tool_names = [schema["function"]["name"] for schema in kwargs.get("tools") or []]
        message = self._respond(messages, tool_names)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _respond(self, messages: list[BaseMessage], tool_names: list[str]) -> AIMessage:
        if tool_names == ["Classification"]:
            return _classification(messages)
        if tool_names:
            return turns.next_turn(messages, set(tool_names))
        task = writer_brief(last_human_text(messages))
        if task is None:
            return AIMessage("")
        kind, brief = task
        return AIMessage(write_question(brief) if kind == "ask" else write_reply(brief))


def _classification(messages: list[BaseMessage]) -> AIMessage:
    """The supervisor's reading of the new text, with the conversation and the question
    the shop asked last (``agents.team.graph.supervisor.classify_prompt``)."""
    request = ClassifyRequest.parse(last_human_text(messages))
    result = classify_turn(
        request.inquiry,
        question=request.question,
        conversation=request.conversation,
        today=request.today,
    )
    call = {"name": "Classification", "args": result.model_dump(mode="json"), "id": "call_classify"}
    return AIMessage("", tool_calls=[call])
