"""Driving an inquiry's run through the graph: starting it, continuing it, resuming it.

These are the services the Celery tasks, the API and the ``run_inquiry`` command call; they
own the graph invocation so that nothing else needs to know LangGraph's calling conventions.
What a run did is written down by ``recording``; inquiries come in through ``intake``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

import psycopg
from django.db import InterfaceError, OperationalError
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, Durability, Overwrite

from agents.models import Inquiry, InquiryStatus
from agents.support.conversations.selectors import ai_may_answer, waits_for_ai
from agents.support.conversations.thread import turn_input
from agents.support.escalations.services import decisions_for_wait
from agents.support.events.bus import steps_held
from agents.support.events.payloads import step_payloads
from agents.support.run_requests import enqueue_run
from agents.support.shapes import Decision
from agents.team.db_connections import driving_graph, release_db_connection
from agents.team.run_context import run_config
from agents.team.runs.lease import run_lease
from agents.team.runs.outcome import FINAL_STATUSES, RunOutcome, RunStop
from agents.team.runs.recording import (
    inquiry_mark_running,
    inquiry_record_crash,
    inquiry_record_run,
)
from agents.team.runs.resends import run_taken
from agents.team.runs.support_graph import support_graph

logger = logging.getLogger(__name__)

# The steps an operator follows on the live timeline (bookkeeping nodes are left out).
TIMELINE_NODES = frozenset({"classify", "specialist", "review", "act_on_decisions", "merge"})
# A task answers at most this many turns before handing on to a fresh task (which the
# check after the lease sends): one chatty customer does not hold a worker for ever.
MAX_TURNS_PER_TASK = 5
# Checkpoints are written when a leg of the run ends (it finishes, or stops to wait for a
# person), not after every step. A leg may be re-run from its start after a crash: it reads,
# it proposes actions a person must approve, and every side effect it has (the tools that act
# without approval, the approved actions, the reply) is keyed by an operation id, so doing it
# again does nothing twice. Checkpointing each step cost more than the rest of the run.
RUN_DURABILITY: Durability = "exit"
# Where LangGraph's stream puts the interrupts a step raised (its documented key).
INTERRUPTED = "__interrupt__"
# Errors that mean the database connection went away: retry the task, don't fail the run.
DATABASE_GONE = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)


def inquiry_advance(*, inquiry_id: str) -> str:
    """Take the conversation's run as far as it can go now; safe to call any number of times.

    Under the conversation's lease (one run at a time per conversation): a second worker
    given the same one returns at once. Customer messages that arrive while a turn runs are
    taken by the next turn, in this same call; one that arrives as the lease is let go is
    caught by the check after it.
    """
    with run_lease(inquiry_id) as held:
        if not held:
            return "busy"
        with run_taken(inquiry_id):
            status = _advance_turns(inquiry_id)
    inquiry = Inquiry.objects.select_related("customer").filter(pk=inquiry_id).first()
    if inquiry is not None and (_answers_next(inquiry) or _decided_while_held(inquiry)):
        enqueue_run(inquiry_id)
    return status


def _decided_while_held(inquiry: Inquiry) -> bool:
    """Whether a person decided the run's wait while this call held the lease: the decision's
    own dispatch found the lease taken ("busy") and gave up, so this call sends it on."""
    if inquiry.status != InquiryStatus.AWAITING_APPROVAL:
        return False
    config = _config(inquiry)
    return _decided_wait(support_graph().get_state(config)) is not None


def _advance_turns(inquiry_id: str) -> str:
    status = "gone"
    for _ in range(MAX_TURNS_PER_TASK):
        inquiry = Inquiry.objects.select_related("customer").filter(pk=inquiry_id).first()
        if inquiry is None:
            # A message outlived its inquiry (redelivered after the broker's visibility
            # timeout, or sent for a row that was since erased): nothing to run, no retry.
            logger.warning("no inquiry %s to advance; message dropped", inquiry_id)
            return status
        status = str(inquiry.status)
        if inquiry.status in FINAL_STATUSES and not _answers_next(inquiry):
            return status
        try:
            outcome = _advance(inquiry)
        except DATABASE_GONE:
            raise  # the database went away: the task retries from the last checkpoint
        except Exception as exc:
            logger.exception("run of %s failed", inquiry_id)
            inquiry_record_crash(inquiry=inquiry, exc=exc)
            return InquiryStatus.FAILED
        if outcome is None:
            return status
        status = outcome.status
    return status


def _answers_next(inquiry: Inquiry) -> bool:
    """Whether a customer message waits for the AI, and the AI may answer it."""
    return waits_for_ai(inquiry_id=inquiry.pk) and ai_may_answer(inquiry)


def inquiry_run(*, inquiry: Inquiry) -> RunOutcome:
    """Run the inquiry in this process (the ``run_inquiry`` command, tests)."""
    with run_lease(str(inquiry.pk)):
        outcome = _advance(inquiry)
    if outcome is not None:
        return outcome
    stop = RunStop.of(support_graph().get_state(_config(inquiry)))
    return inquiry_record_run(inquiry=inquiry, stop=stop)


def inquiry_resume(*, inquiry: Inquiry, decisions: dict[str, Decision]) -> RunOutcome:
    """Resume a waiting run with decisions keyed by action id, in this process."""
    config = _config(inquiry)
    graph = support_graph()
    waiting = bool(graph.get_state(config).interrupts)
    return _resume(graph, config, inquiry, decisions, waiting=waiting)


def _resume(
    graph: CompiledStateGraph,
    config: Any,
    inquiry: Inquiry,
    decisions: dict[str, Decision],
    *,
    waiting: bool,
) -> RunOutcome:
    """Resume the run if it still ``waiting`` for these decisions, and record where it stands."""
    if not waiting:
        return inquiry_record_run(inquiry=inquiry, stop=RunStop.of(graph.get_state(config)))
    return _record_leg(inquiry, _drive(graph, Command(resume=decisions), config))


def _advance(inquiry: Inquiry) -> RunOutcome | None:
    """One step of the conversation's work: resume a decided wait, finish a turn a dead
    worker left, or start the next turn; ``None`` when there is nothing to do now."""
    config = _config(inquiry)
    graph = support_graph()
    if inquiry.turns == 0 and inquiry_mark_running(inquiry=inquiry, turn=1, first=True):
        # No turn has started on the thread, so it has no checkpoint to read: the first turn.
        return _record_leg(inquiry, _drive(graph, turn_input(inquiry=inquiry, turn=1), config))
    snapshot = graph.get_state(config)
    if snapshot.interrupts:
        decisions = _decided_wait(snapshot)
        if decisions is None:
            _record_if_unsettled(inquiry, snapshot)  # still waiting for a person
            return None
        return _resume(graph, config, inquiry, decisions, waiting=True)
    if snapshot.next or snapshot.tasks:
        # A worker died mid-run: continue from the last checkpoint, not from the start.
        leg = _drive(graph, None, config)
    elif not snapshot.values or _answers_next(inquiry):
        turn = int(snapshot.values.get("turn", 0)) + 1 if snapshot.values else 1
        inquiry_mark_running(inquiry=inquiry, turn=turn)
        leg = _drive(graph, turn_input(inquiry=inquiry, turn=turn), config)
    else:
        _record_if_unsettled(inquiry, snapshot)
        return None
    return _record_leg(inquiry, leg)


def _config(inquiry: Inquiry) -> Any:
    """The run's config, carrying the customer's row the inquiry was read with."""
    customer = inquiry.customer
    return run_config(inquiry_id=str(inquiry.pk), customer_id=customer.code, customer=customer)


def _decided_wait(snapshot: Any) -> dict[str, Decision] | None:
    """The decisions on every action the run waits on, or None while any is undecided."""
    if not snapshot.interrupts:
        return None
    decisions = decisions_for_wait(wait_key=str(snapshot.interrupts[0].id))
    waiting_on = {a["action_id"] for a in snapshot.interrupts[0].value["actions"]}
    if not (waiting_on and waiting_on <= decisions.keys()):
        return None
    return {k: decisions[k] for k in waiting_on}


# The row says a run is moving: if the graph has in fact stopped, its record may be missing.
UNSETTLED = frozenset(
    {InquiryStatus.QUEUED, InquiryStatus.RUNNING, InquiryStatus.AWAITING_APPROVAL}
)


def _record_if_unsettled(inquiry: Inquiry, snapshot: Any) -> None:
    """Record a stopped run whose record a dead worker may not have written (it died after
    the last checkpoint, before the row, the wait or the reply were stored). Recording is
    idempotent, so one that was written is written again unchanged."""
    if snapshot.values and inquiry.status in UNSETTLED:
        inquiry_record_run(inquiry=inquiry, stop=RunStop.of(snapshot))


@dataclass(frozen=True)
class _Leg:
    """A leg of the run as its stream told it: where it stopped (None if the stream said
    nothing of it) and its last steps, which the run's record announces."""

    stop: RunStop | None
    steps: list[dict[str, Any]]


def _drive(graph: CompiledStateGraph, graph_input: Any, config: Any) -> _Leg:
    """Run the graph, announcing its steps (the console's live timeline) before each wait
    for a model.

    Checkpoints are written when the leg ends (``RUN_DURABILITY``): a worker killed mid-leg
    leaves the run where the leg began, and the next worker runs the leg again. A stream that
    ends without an error has saved where it stopped, so that state is the one its last
    ``values`` chunk holds, and is not read back.
    """
    inquiry_id = config["configurable"]["thread_id"]
    chunks = cast(
        Iterator[tuple[str, dict[str, Any]]],
        graph.stream(
            graph_input, config, stream_mode=["updates", "values"], durability=RUN_DURABILITY
        ),
    )
    state: dict[str, Any] | None = None
    interrupts: tuple[Any, ...] = ()
    with driving_graph(), steps_held() as held:
        for mode, chunk in chunks:
            if mode == "values":  # the state after each step: the last is where it stopped
                state = {k: v for k, v in chunk.items() if k != INTERRUPTED}
                continue
            for node, update in chunk.items():
                if node == INTERRUPTED:
                    interrupts = tuple(update)
                elif node in TIMELINE_NODES:
                    held.add(step_payloads(inquiry_id, node, _plain(update or {})))
            # The next step may wait seconds for the model on other threads: give the
            # connection back meanwhile.
            release_db_connection()
        steps = held.take()
    return _Leg(None if state is None else RunStop(state, interrupts), steps)


def _record_leg(inquiry: Inquiry, leg: _Leg) -> RunOutcome:
    """Record where the leg stopped, read back from its checkpoint only if its stream did not
    say."""
    stop = leg.stop or RunStop.of(support_graph().get_state(_config(inquiry)))
    return inquiry_record_run(inquiry=inquiry, stop=stop, steps=leg.steps)


def _plain(update: dict[str, Any]) -> dict[str, Any]:
    """A node's update with the values a new turn overwrote shown as the values themselves."""
    return {k: v.value if isinstance(v, Overwrite) else v for k, v in update.items()}
