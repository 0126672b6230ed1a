"""The bounded ReAct sub-graph every specialist runs: think, act, think ... (seed 004).

A specialist is its prompt plus its own tools. The loop alternates a model turn and a tool
turn (``tool_turns``), at most ``MAX_MODEL_TURNS`` model turns; this module holds the wiring
and the routers alone.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from langchain_core.messages import AIMessage, ToolCall
from langchain_core.runnables import RunnableConfig
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from agents import providers
from agents.team import model_calls
from agents.team.specialists.spec import Specialist
from agents.team.specialists.state import SpecialistState
from agents.team.specialists.tool_turns import INVALID_ARGUMENTS, ToolTurn

logger = logging.getLogger(__name__)

MAX_MODEL_TURNS = 3


def build_specialist_graph(specialist: Specialist) -> CompiledStateGraph:
    """The specialist's own ReAct sub-graph: think, act, think ... (bounded)."""

    def think(state: SpecialistState) -> SpecialistState:
        model = providers.with_tools(providers.chat_model("specialist"), specialist.tools)
        try:
            reply = model_calls.invoke(model, state["messages"])
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
        if state.get("pending_action") or state.get("answered") or state.get("asked"):
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
