"""A worker process made ready before its first run, and the collector kept off what it built.

Everything built here (the compiled graph and its saver pool, the specialists' compiled
loops, the chat models with their tools bound, and the modules behind them) lives as long as
the process. Left to the cyclic garbage collector, each full collection walks those few
hundred thousand objects again; frozen, a full collection walks only what the runs
themselves create.
"""

from __future__ import annotations

import gc

from agents import providers
from agents.contract.schemas import Classification
from agents.team.graph.delegation import specialist_graph
from agents.team.runs.driver import support_graph
from agents.team.specialists import SPECIALISTS


def process_warm_up() -> None:
    """Build what every run uses, then freeze it out of the garbage collector's way."""
    support_graph()
    providers.structured(providers.chat_model("supervisor"), Classification)
    for agent, specialist in SPECIALISTS.items():
        specialist_graph(agent)
        providers.with_tools(providers.chat_model("specialist"), specialist.tools)
    providers.chat_model("writer")
    gc.collect()
    gc.freeze()
