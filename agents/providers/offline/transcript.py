"""Reading a specialist's conversation back: the tagged blocks and the tool results so far."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage


def last_human_text(messages: list[BaseMessage]) -> str:
    human = [m for m in messages if isinstance(m, HumanMessage)]
    return str(human[-1].content) if human else ""


def tool_results(messages: list[BaseMessage]) -> dict[str, dict[str, Any]]:
    """The latest result of each tool called so far, parsed from its tool message."""
    results: dict[str, dict[str, Any]] = {}
    for message in messages:
        if isinstance(message, ToolMessage) and message.name:
            try:
                parsed = json.loads(str(message.content))
            except json.JSONDecodeError:
                parsed = {"error": "unreadable"}
            results[message.name] = parsed if isinstance(parsed, dict) else {"result": parsed}
    return results


def model_turns(messages: list[BaseMessage]) -> int:
    return sum(1 for m in messages if m.type == "ai")
