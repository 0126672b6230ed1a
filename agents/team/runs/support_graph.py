"""The process's one compiled support graph, bound to the configured checkpointer.

Its own module so that whatever reads a run's state (the driver, a decision's preview) uses
the same graph and saver, without importing the driver and what the driver imports.
"""

from __future__ import annotations

from functools import cache

from langgraph.graph.state import CompiledStateGraph

from agents.team.graph.wiring import build_graph
from agents.team.runs.checkpointer import get_checkpointer


@cache
def support_graph() -> CompiledStateGraph:
    """The graph every run in this process is driven with (``cache_clear`` for a new saver)."""
    return build_graph(get_checkpointer())
