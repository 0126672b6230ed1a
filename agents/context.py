"""What a run knows about who it serves, taken from the authenticated intake.

Tools read the customer from here (the run's ``configurable``), never from their arguments:
a model cannot name a customer, it can only act for the one the inquiry belongs to.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig


@dataclass(frozen=True)
class RunContext:
    inquiry_id: str
    customer_id: str


def run_config(*, inquiry_id: str, customer_id: str) -> RunnableConfig:
    """The config every invocation of the graph for one inquiry uses (thread id = inquiry id)."""
    return {"configurable": {"thread_id": inquiry_id, "customer_id": customer_id}}


def run_context(config: RunnableConfig | None) -> RunContext:
    configurable = (config or {}).get("configurable", {})
    try:
        return RunContext(
            inquiry_id=str(configurable["thread_id"]),
            customer_id=str(configurable["customer_id"]),
        )
    except KeyError as missing:
        raise RuntimeError(
            f"run config lacks {missing}: tools need the intake's identity"
        ) from None


def stable_operation_id(inquiry_id: str, skill: str, *parts: Any) -> str:
    """One id per (inquiry, skill, target), identical however often a node re-runs."""
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
    return f"{inquiry_id}:{skill}:{digest[:16]}"
