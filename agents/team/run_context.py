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

from netshop import selectors
from netshop.models import Customer

# The customer's row, as whoever drives the run read it with the inquiry: the tools of every
# specialist scope their reads by it, and reading it again for each tool call was a query each.
# Not a checkpointed value: LangGraph keeps only plain values of ``configurable``.
RUN_CUSTOMER = "customer"


@dataclass(frozen=True)
class RunContext:
    inquiry_id: str
    customer_id: str
    injection_suspected: bool = False
    """The supervisor flagged the inquiry as trying to instruct the system: no tool with a
    side effect runs for it without a person."""


def run_config(
    *,
    inquiry_id: str,
    customer_id: str,
    injection_suspected: bool = False,
    customer: Customer | None = None,
) -> RunnableConfig:
    """The config every invocation of the graph for one inquiry uses (thread id = inquiry id);
    ``customer``, the row of ``customer_id`` when the caller holds it, saves the tools a read."""
    configurable: dict[str, Any] = {"thread_id": inquiry_id, "customer_id": customer_id}
    if injection_suspected:
        configurable["injection_suspected"] = True
    if customer is not None and customer.code == customer_id:
        configurable[RUN_CUSTOMER] = customer
    return {"configurable": configurable}


def run_context(config: RunnableConfig | None) -> RunContext:
    configurable = (config or {}).get("configurable", {})
    try:
        return RunContext(
            inquiry_id=str(configurable["thread_id"]),
            customer_id=str(configurable["customer_id"]),
            injection_suspected=configurable.get("injection_suspected") is True,
        )
    except KeyError as missing:
        raise RuntimeError(
            f"run config lacks {missing}: tools need the intake's identity"
        ) from None


def run_customer(config: RunnableConfig | None) -> Customer:
    """The customer the run serves: the row its config carries, else read by its code."""
    code = run_context(config).customer_id
    held = (config or {}).get("configurable", {}).get(RUN_CUSTOMER)
    if isinstance(held, Customer) and held.code == code:
        return held
    return selectors.customer_get(code=code)


def stable_operation_id(inquiry_id: str, skill: str, *parts: Any) -> str:
    """One id per (inquiry, skill, target), identical however often a node re-runs."""
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
    return f"{inquiry_id}:{skill}:{digest[:16]}"
