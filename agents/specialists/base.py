"""The ReAct loop every specialist runs, and the envelope it answers with (seed 004).

A specialist is its prompt plus its own tools. The loop alternates a model turn and a tool
turn, at most ``MAX_MODEL_TURNS`` model turns. The tool turn applies the escalation policy
(SPEC section 4) so that no specialist has to remember it:

* retryable tools (reads, and writes guarded by an idempotency key) are retried with back-off
  on carrier or gateway faults, then their fallback is tried;
* approval-gated tools (refund, cancellation) only *prepare* the action: the loop stops with
  the tool call open and the envelope asks for approval. They are never retried;
* tools with a side effect (a coupon, a redelivery, a date change) are held, not run, when
  the supervisor flagged the inquiry as trying to instruct the system: a person decides;
* a shop rule refusing something is an answer, not a failure: the model is told and goes on;
* every tool call gets its tool message, whatever happened (unknown tool, bad arguments, ...).
"""

from __future__ import annotations

import json
import logging
import operator
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

from django.conf import settings
from langchain_core.messages import AIMessage, AnyMessage, ToolCall, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from pydantic import ValidationError

from agents import llm
from agents.graph.run_context import run_context
from agents.graph.schemas import HELD, AgentName, Envelope
from agents.graph.state import merge_dicts
from netshop.errors import DomainError, ExternalServiceError

logger = logging.getLogger(__name__)

MAX_MODEL_TURNS = 3
TOOL_ATTEMPTS = 3
INVALID_ARGUMENTS = "__invalid_arguments__"

Fallback = Callable[[dict[str, Any], RunnableConfig], dict[str, Any]]


@dataclass(frozen=True)
class Specialist:
    """One specialist: its card's agent name, prompt and tools, and how each tool may fail."""

    agent: AgentName
    prompt: str
    tools: tuple[BaseTool, ...]
    approval_required: frozenset[str] = frozenset()
    # Tools that change something without an approval (a coupon, a booking): held for a
    # person when the inquiry is flagged as an injection attempt.
    side_effects: frozenset[str] = frozenset()
    fallbacks: dict[str, Fallback] = field(default_factory=dict)
    # Tools whose result is the specialist's whole answer: when a turn only called these and
    # they all succeeded, the loop ends without another model turn (one model call less on
    # the critical path of every agent waiting for this one).
    direct_tools: frozenset[str] = frozenset()

    def tool(self, name: str) -> BaseTool | None:
        return next((t for t in self.tools if t.name == name), None)


class SpecialistState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    results: Annotated[dict[str, Any], merge_dicts]
    errors: Annotated[list[dict[str, Any]], operator.add]
    pending_action: dict[str, Any] | None
    answered: bool
    turns: int
    failure: dict[str, Any] | None


class ApprovalRequired(Exception):  # noqa: N818  (a signal, not an error)
    """Raised by an approval-gated tool with the prepared action instead of executing it."""

    def __init__(self, action: dict[str, Any]) -> None:
        super().__init__(action.get("kind", "action"))
        self.action = action


def backoff(attempt: int) -> None:
    base = float(getattr(settings, "NETSHOP_RETRY_BACKOFF_S", 0.2))
    if base > 0:
        time.sleep(base * (2**attempt))


def _tool_message(
    call: ToolCall, payload: dict[str, Any], *, status: str = "success"
) -> ToolMessage:
    return ToolMessage(
        content=json.dumps(payload, ensure_ascii=False, default=str),
        tool_call_id=call["id"] or "",
        name=call["name"],
        status="error" if status == "error" else "success",
    )


class ToolTurn:
    """Runs the tool calls of one model turn under the escalation policy."""

    def __init__(self, specialist: Specialist, config: RunnableConfig) -> None:
        self.specialist = specialist
        self.config = config
        self.messages: list[AnyMessage] = []
        self.results: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []
        self.pending_action: dict[str, Any] | None = None

    def run(self, calls: list[ToolCall]) -> SpecialistState:
        for call in calls:
            if self.pending_action is not None:
                # One approval at a time: later calls of this turn are answered, not run.
                self._answer(call, {"skipped": "waiting for approval of an earlier action"})
                continue
            self._run_one(call)
        return {
            "messages": self.messages,
            "results": self.results,
            "errors": self.errors,
            "pending_action": self.pending_action,
            "answered": self._answered_directly(calls),
        }

    def _answered_directly(self, calls: list[ToolCall]) -> bool:
        direct = self.specialist.direct_tools
        if not calls or any(call["name"] not in direct for call in calls) or self.errors:
            return False
        return all("refused" not in self.results.get(call["name"], {}) for call in calls)

    def _answer(self, call: ToolCall, payload: dict[str, Any], *, status: str = "success") -> None:
        self.messages.append(_tool_message(call, payload, status=status))

    def _run_one(self, call: ToolCall) -> None:
        tool = self.specialist.tool(call["name"])
        if call["args"].get(INVALID_ARGUMENTS):
            self._fail(call, "invalid_arguments", "the arguments were not valid JSON")
            return
        if tool is None:
            self._fail(call, "unknown_tool", f"{call['name']} is not a tool of this agent")
            return
        if call["name"] in self.specialist.approval_required:
            self._prepare(call, tool)
            return
        if (
            call["name"] in self.specialist.side_effects
            and run_context(self.config).injection_suspected
        ):
            self._hold(call)
            return
        self._invoke_with_retries(call, tool)

    def _hold(self, call: ToolCall) -> None:
        """Answer a side effect of a flagged inquiry without running it: a person decides."""
        held = {HELD: "a member of staff checks this request first", "params": call["args"]}
        self.results[call["name"]] = held
        self._answer(call, held)

    def _prepare(self, call: ToolCall, tool: BaseTool) -> None:
        try:
            tool.invoke(call["args"], self.config)
        except ApprovalRequired as signal:
            # The call stays open: the operator's decision closes it with its tool message.
            self.pending_action = {
                **signal.action,
                "tool_call_id": call["id"],
                "tool": call["name"],
            }
            return
        except DomainError as refusal:
            self._refused(call, refusal)
            return
        except (ValidationError, ValueError, TypeError) as exc:
            self._fail(call, "invalid_arguments", str(exc))
            return
        except Exception as exc:  # a gated action is never retried: hand it to a person
            logger.exception("approval-gated tool %s failed", call["name"])
            self._fail(call, "action_preparation_failed", type(exc).__name__)
            return
        self._fail(call, "not_gated", "the action did not ask for approval")

    def _invoke_with_retries(self, call: ToolCall, tool: BaseTool) -> None:
        last_error: ExternalServiceError | None = None
        for attempt in range(TOOL_ATTEMPTS):
            try:
                result = tool.invoke(call["args"], self.config)
            except ExternalServiceError as exc:
                last_error = exc
                if attempt + 1 < TOOL_ATTEMPTS:
                    backoff(attempt)
                continue
            except DomainError as refusal:
                self._refused(call, refusal)
                return
            except (ValidationError, ValueError, TypeError) as exc:
                self._fail(call, "invalid_arguments", str(exc))
                return
            self._succeeded(call, result)
            return
        if last_error is not None:
            self._fall_back(call, last_error)

    def _fall_back(self, call: ToolCall, error: ExternalServiceError) -> None:
        fallback = self.specialist.fallbacks.get(call["name"])
        code = f"{error.service}_{error.kind}"
        if fallback is not None:
            try:
                result = fallback(call["args"], self.config)
            except (DomainError, ExternalServiceError):
                result = None
            if result is not None:
                self.errors.append(
                    {"agent": self.specialist.agent, "code": code, "recovered": True}
                )
                self._succeeded(call, {**result, "fallback": True, "fallback_reason": code})
                return
        self._fail(call, code, error.message)

    def _succeeded(self, call: ToolCall, result: Any) -> None:
        self.results[call["name"]] = result
        self._answer(call, result if isinstance(result, dict) else {"result": result})

    def _refused(self, call: ToolCall, refusal: DomainError) -> None:
        refused = {"refused": refusal.code, "reason": refusal.message}
        self.results[call["name"]] = refused
        self._answer(call, refused)

    def _fail(self, call: ToolCall, code: str, message: str) -> None:
        self.errors.append({"agent": self.specialist.agent, "code": code, "message": message})
        self._answer(call, {"error": code, "message": message}, status="error")


def build_specialist_graph(specialist: Specialist) -> CompiledStateGraph:
    """The specialist's own ReAct sub-graph: think, act, think ... (bounded)."""

    def think(state: SpecialistState) -> SpecialistState:
        model = llm.with_tools(llm.chat_model("specialist"), specialist.tools)
        try:
            reply = model.invoke(state["messages"])
        except Exception as exc:  # any model failure ends the loop with an error envelope
            logger.warning("%s model call failed: %s", specialist.agent, type(exc).__name__)
            failure = {"code": "model_error", "message": type(exc).__name__}
            return {"failure": failure, "errors": [{"agent": specialist.agent, **failure}]}
        return {"messages": [reply], "turns": state.get("turns", 0) + 1}

    def act(state: SpecialistState, config: RunnableConfig) -> SpecialistState:
        last = state["messages"][-1]
        if not isinstance(last, AIMessage):  # only reached after a model turn with tool calls
            return {}
        turn = ToolTurn(specialist, config)
        calls = list(last.tool_calls) + [_invalid_as_call(c) for c in last.invalid_tool_calls]
        return turn.run(calls)

    def after_think(state: SpecialistState) -> Literal["act", "__end__"]:
        if state.get("failure"):
            return "__end__"
        last = state["messages"][-1]
        has_calls = isinstance(last, AIMessage) and (last.tool_calls or last.invalid_tool_calls)
        return "act" if has_calls else "__end__"

    def after_act(state: SpecialistState) -> Literal["think", "__end__"]:
        if state.get("pending_action") or state.get("answered"):
            return "__end__"
        if state.get("turns", 0) >= MAX_MODEL_TURNS:
            return "__end__"
        return "think"

    graph = StateGraph(SpecialistState)
    graph.add_node("think", think)
    graph.add_node("act", act)
    graph.add_edge(START, "think")
    graph.add_conditional_edges("think", after_think)
    graph.add_conditional_edges("act", after_act)
    # The parent checkpoints the specialist's outcome; its inner steps need no checkpoints.
    return graph.compile(checkpointer=False, name=f"{specialist.agent}_agent")


def _invalid_as_call(invalid: Any) -> ToolCall:
    """A tool call whose arguments were not JSON still gets answered, as an invalid one."""
    return ToolCall(
        name=invalid.get("name") or "unknown", args={INVALID_ARGUMENTS: True}, id=invalid.get("id")
    )


def envelope_from(agent: AgentName, state: SpecialistState) -> Envelope:
    """Fold the specialist's final state into the one envelope shape."""
    failure = state.get("failure")
    if failure:
        return Envelope(
            agent=agent, status="error", error_code=failure["code"], message=failure["message"]
        )
    pending = state.get("pending_action")
    results = state.get("results", {})
    if pending:
        return Envelope(
            agent=agent,
            status="escalate",
            error_code="approval_required",
            data={**results, "pending_action": pending},
            message="waiting for an operator's approval",
        )
    last = state["messages"][-1] if state.get("messages") else None
    text = last.content if isinstance(last, AIMessage) and not last.tool_calls else ""
    unrecovered = [e for e in state.get("errors", []) if not e.get("recovered")]
    if unrecovered and not results:
        first = unrecovered[0]
        return Envelope(
            agent=agent,
            status="error",
            error_code=first["code"],
            message=first.get("message", ""),
            data={"errors": unrecovered},
        )
    if isinstance(last, AIMessage) and last.tool_calls:
        return Envelope(
            agent=agent,
            status="error",
            error_code="max_turns",
            data=results,
            message="reasoning steps exhausted",
        )
    if state.get("answered"):
        text = "answered by " + ", ".join(results)
    return Envelope(agent=agent, status="success", data=results, message=str(text))
