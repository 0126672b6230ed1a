"""Driving an inquiry's run through the graph: starting it, continuing it, resuming it.

These are the services the Celery tasks, the API and the ``run_inquiry`` command call; they
own the graph invocation so that nothing else needs to know LangGraph's calling conventions.
What a run did is written down by ``recording``; inquiries come in through ``intake``.
"""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

import psycopg
from django.db import InterfaceError, OperationalError
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from agents.escalations.services import decisions_for_wait
from agents.events import publish, step_payload
from agents.graph.db_connections import driving_graph
from agents.graph.run_context import run_config
from agents.graph.wiring import build_graph
from agents.models import Inquiry, InquiryStatus
from agents.runs.checkpointer import get_checkpointer
from agents.runs.lease import run_lease
from agents.runs.outcome import FINAL_STATUSES, RunOutcome
from agents.runs.recording import inquiry_mark_running, inquiry_record_crash, inquiry_record_run
from agents.shapes import Decision

logger = logging.getLogger(__name__)

# The steps an operator follows on the live timeline (bookkeeping nodes are left out).
TIMELINE_NODES = frozenset({"classify", "specialist", "review", "act_on_decisions", "merge"})
# Errors that mean the database connection went away: retry the task, don't fail the run.
DATABASE_GONE = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)


@cache
def support_graph() -> CompiledStateGraph:
    """The process's one compiled graph, bound to the configured checkpointer."""
    return build_graph(get_checkpointer())


def inquiry_advance(*, inquiry_id: str) -> str:
    """Take the inquiry's run as far as it can go now; safe to call any number of times.

    Under the inquiry's lease: a second worker given the same inquiry returns at once.
    """
    with run_lease(inquiry_id) as held:
        if not held:
            return "busy"
        inquiry = Inquiry.objects.select_related("customer").filter(pk=inquiry_id).first()
        if inquiry is None:
            # A message outlived its inquiry (redelivered after the broker's visibility
            # timeout, or sent for a row that was since erased): nothing to run, no retry.
            logger.warning("no inquiry %s to advance; message dropped", inquiry_id)
            return "gone"
        if inquiry.status in FINAL_STATUSES:
            return str(inquiry.status)
        try:
            return _advance(inquiry).status
        except DATABASE_GONE:
            raise  # the database went away: the task retries from the last checkpoint
        except Exception as exc:
            logger.exception("run of %s failed", inquiry_id)
            inquiry_record_crash(inquiry=inquiry, exc=exc)
            return InquiryStatus.FAILED


def inquiry_run(*, inquiry: Inquiry) -> RunOutcome:
    """Run the inquiry in this process (the ``run_inquiry`` command, tests)."""
    with run_lease(str(inquiry.pk)):
        return _advance(inquiry)


def inquiry_resume(*, inquiry: Inquiry, decisions: dict[str, Decision]) -> RunOutcome:
    """Resume a waiting run with decisions keyed by action id, in this process."""
    config = run_config(inquiry_id=str(inquiry.pk), customer_id=inquiry.customer.code)
    graph = support_graph()
    if graph.get_state(config).interrupts:
        _drive(graph, Command(resume=decisions), config)
    return inquiry_record_run(inquiry=inquiry, snapshot=graph.get_state(config))


def _advance(inquiry: Inquiry) -> RunOutcome:
    config = run_config(inquiry_id=str(inquiry.pk), customer_id=inquiry.customer.code)
    graph = support_graph()
    snapshot = graph.get_state(config)
    if snapshot.interrupts:
        decisions = decisions_for_wait(wait_key=str(snapshot.interrupts[0].id))
        waiting_on = {a["action_id"] for a in snapshot.interrupts[0].value["actions"]}
        if waiting_on and waiting_on <= decisions.keys():
            return inquiry_resume(inquiry=inquiry, decisions={k: decisions[k] for k in waiting_on})
    elif snapshot.next or snapshot.tasks:
        # A worker died mid-run: continue from the last checkpoint, not from the start.
        _drive(graph, None, config)
    elif not snapshot.values:
        inquiry_mark_running(inquiry=inquiry)
        initial = {
            "inquiry_id": str(inquiry.pk),
            "customer_id": inquiry.customer.code,
            "text": inquiry.text,
            "customer_language": inquiry.customer.language,
        }
        _drive(graph, initial, config)
    return inquiry_record_run(inquiry=inquiry, snapshot=graph.get_state(config))


def _drive(graph: CompiledStateGraph, graph_input: Any, config: Any) -> None:
    """Run the graph, announcing each step as it completes (the console's live timeline).

    Checkpoints are written synchronously after every step, so a worker killed at any point
    resumes from the last finished step.
    """
    inquiry_id = config["configurable"]["thread_id"]
    steps = graph.stream(graph_input, config, stream_mode="updates", durability="sync")
    with driving_graph():
        for update in steps:
            for node, values in update.items():
                if node in TIMELINE_NODES:
                    publish("run.step", step_payload(inquiry_id, node, values or {}))
