"""The state a specialist's sub-graph carries between its model and tool turns.

Its own module because the loop, the tool turn and the envelope all read it, and none of
them should import another just to name it.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from agents.support.shapes import PendingAction


def merge_dicts(left: dict[str, Any], right: dict[str, Any]) -> dict[str, Any]:
    """Reducer for maps written by parallel branches (the parent's lanes, a specialist's
    tools): later keys win."""
    return {**left, **right}


class SpecialistState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    results: Annotated[dict[str, Any], merge_dicts]
    errors: Annotated[list[dict[str, Any]], operator.add]
    pending_action: PendingAction | None
    answered: bool
    asked: bool
    """The specialist asked the customer or referred to a person: its loop ends there."""
    turns: int
    failure: dict[str, Any] | None
