"""What a specialist is: its card's agent name, prompt and tools, and how each tool may fail.

Kept apart from the loop that runs it so that the four specialist modules (order, shipping,
payment, FAQ) describe themselves without importing the ReAct machinery.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from agents.contract.schemas import AgentName
from agents.support.shapes import PendingAction

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


class ApprovalRequired(Exception):  # noqa: N818  (a signal, not an error)
    """Raised by an approval-gated tool with the prepared action instead of executing it."""

    def __init__(self, action: PendingAction) -> None:
        super().__init__(action.get("kind", "action"))
        self.action = action
