"""How the AI team calls a model: every call of the graph and the specialists goes through here."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import Runnable

from agents.providers import model_is_remote
from agents.support.events.bus import announce_held_steps
from agents.team.db_connections import release_db_connection


def invoke(model: Runnable[Any, Any], messages: list[Any]) -> Any:
    """Every model call of the graph goes through here. A remote model may take seconds, so
    the run first announces the steps it finished meanwhile (the consoles see them now), and
    the thread gives its database connection back: a worker has dozens of runs in flight on a
    few connections. The offline model answers at once: its steps go out with the leg's record
    a few milliseconds later, and the connection stays for the next query."""
    if model_is_remote():
        announce_held_steps()
        release_db_connection()
    return model.invoke(messages)
