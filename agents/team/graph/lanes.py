"""Lanes: a plan step and the steps waiting on it alone, run in one branch of the fan-out.

LangGraph starts the next wave of a fan-out when every branch of the current one is done, so
the shipping and payment agents, which need only the order, would also wait for the FAQ
agent's second model call. A lane runs its head step and then, at once and in parallel, the
steps the head's result lets start; the executor adopts their envelopes
(``planner.adopt_lane_runs``) and settles them like any others. A follower that fails is
retried by the executor as a step of its own.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import ContextThreadPoolExecutor

from agents.team.graph import planner
from agents.team.graph.delegation import build_handoff, run_handoff
from agents.team.graph.state import InquiryState, PlanStep

# What ``build_handoff`` reads of the state: a follower's hand-off is built inside the lane.
HANDOFF_STATE_KEYS = ("inquiry_id", "customer_id", "language", "classification", "text", "request")


def lane_payload(state: InquiryState, head: PlanStep) -> dict[str, Any]:
    """The Send payload of ``head``'s lane: its hand-off, and what its followers need."""
    payload = build_handoff(state, head)
    followers = planner.lane_followers(state["plan"], head)
    if followers:
        view = {key: state[key] for key in HANDOFF_STATE_KEYS if key in state}  # type: ignore[literal-required]
        payload["lane"] = {
            "state": view | {"envelopes": dict(state.get("envelopes", {}))},
            "plan": state["plan"],
            "followers": [step["step"] for step in followers],
        }
    return payload


def run_lane(payload: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
    """Run the head step, then the followers its result lets start, in parallel."""
    head = run_handoff(payload, config)
    lane = payload.get("lane")
    if not lane:
        return head
    view: Any = {**lane["state"], "envelopes": {**lane["state"]["envelopes"], **head["envelopes"]}}
    settled, _ = planner.settle(lane["plan"], view["envelopes"])
    ready = [
        step
        for step in planner.in_flight(planner.start_ready(settled))
        if step["step"] in lane["followers"]
    ]
    followers = [build_handoff(view, step) for step in ready]
    return merged_updates([head, *_in_parallel(followers, config)])


def _in_parallel(payloads: list[dict[str, Any]], config: RunnableConfig) -> list[dict[str, Any]]:
    """Each follower on a thread of its own but the last, which runs on this one."""
    if not payloads:
        return []
    *others, last = payloads
    run = partial(run_handoff, config=config)
    if not others:
        return [run(last)]
    pool: ThreadPoolExecutor = ContextThreadPoolExecutor(max_workers=len(others))
    with pool:
        futures = [pool.submit(run, p) for p in others]
        mine = run(last)
        return [future.result() for future in futures] + [mine]


def merged_updates(updates: list[dict[str, Any]]) -> dict[str, Any]:
    """One state update from several hand-offs' (the lists joined, the maps merged)."""
    return {
        "receipts": [r for u in updates for r in u["receipts"]],
        "envelopes": {k: v for u in updates for k, v in u["envelopes"].items()},
        "transcripts": {k: v for u in updates for k, v in u["transcripts"].items()},
        "errors": [e for u in updates for e in u["errors"]],
    }
