"""The bus: ``publish`` numbers each event in the caller's transaction and sends it after commit.

The numbers (``ConsoleEvent`` rows) let a console that lost its socket fetch exactly what it
missed (channel layers deliver at most once). Events published together (``events_batch``)
travel together. Listeners subscribe with Django signals, connected by the side that listens
(``agents.apps``, ``operators.apps``): the bus names none of them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import connection
from django.dispatch import Signal

from agents.models import CUSTOMER_VISIBLE_AUTHORS, ConsoleEvent, Inquiry
from agents.support.events.names import STAFF_GROUP, EventName, inquiry_group
from agents.support.events.payloads import customer_view, staff_view
from agents.support.events.transport import Sends, channel_message, send
from netshop.transactions import after_commit

logger = logging.getLogger(__name__)

# Sent by ``publish`` inside the caller's transaction (``event``, ``payload``, ``seq``): how
# the operators' side (e.g. its notifications) hears of events without agents importing it.
event_published = Signal()


# Sent by ``publish`` at once, inside the caller's transaction, with the conversation as it is
# now (``event``, ``payload``, ``subject``: the conversation when the caller holds it): how the
# storefront's webhooks are recorded with the change they report, and roll back with it.
event_publishing = Signal()


def publish(event: EventName, payload: dict[str, Any], *, subject: Inquiry | None = None) -> None:
    """Record ``event`` and send it after commit.

    Staff and the stored history (``/api/v1/events``) get the payload with coupon codes
    withheld; only the inquiry's own group, its customer, hears the reply as written.
    ``subject``, the conversation the event is about when the caller holds it, saves looking
    up whether a storefront listens.
    """
    publish_all(event, [payload], subject=subject)


def publish_all(
    event: EventName, payloads: list[dict[str, Any]], *, subject: Inquiry | None = None
) -> None:
    """``publish`` for several events of one kind at once (the steps a lane of the fan-out
    brings back together): numbered in order, their rows in one insert."""
    for payload in payloads:
        event_publishing.send(sender=publish, event=event, payload=payload, subject=subject)
    with events_batch():
        _batch.pending.extend((event, payload) for payload in payloads)


# A step held this long is announced even though the run has not waited on a model: the
# run is waiting on something else (a slow carrier, a gateway's retries).
ANNOUNCE_AFTER_S = 0.3


class HeldSteps:
    """A run's finished steps, announced when the run is about to wait, not one by one.

    Steps that follow each other without waiting (the lanes coming back, the review) reach the
    consoles together: at the run's next call to a remote model (``announce_held_steps``, from
    ``agents.team.model_calls``), ``ANNOUNCE_AFTER_S`` after the first of them when the run is
    still busy then (a timer), or with the run's record when the leg ends. A leg that ends
    within that time (the offline model's, tens of milliseconds) announces its steps once,
    with its record. A person watching sees each step within a fraction of a second.
    """

    def __init__(self) -> None:
        self.payloads: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None

    def add(self, payloads: list[dict[str, Any]]) -> None:
        with self.lock:
            self.payloads.extend(payloads)
            if self.timer is None and self.payloads:
                self.timer = threading.Timer(ANNOUNCE_AFTER_S, self._announce_late)
                self.timer.daemon = True
                self.timer.start()

    def announce(self) -> None:
        # Under the lock: two lanes calling their models at once still publish in order.
        with self.lock:
            self._cancel_timer()
            if self.payloads:
                publish_all("run.step", self.payloads)
                self.payloads = []

    def take(self) -> list[dict[str, Any]]:
        """What is still held, for the caller to publish (the leg's last steps)."""
        with self.lock:
            self._cancel_timer()
            taken, self.payloads = self.payloads, []
            return taken

    def _cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def announce_now(self) -> None:
        """Announce what is held, if the database lets us: for a leg that failed."""
        try:
            self.announce()
        except Exception:  # a live update lost is recovered by the console's resync
            logger.warning("could not announce a run's held steps", exc_info=True)

    def _announce_late(self) -> None:
        """The timer's thread: announce what is held, on a connection of its own."""
        try:
            self.announce_now()
        finally:
            connection.close()  # this thread's own: back to the pool, or closed


# The steps of the run this context drives; LangGraph and the lanes copy the context into
# the threads they run a step on, so a model call on any of them finds the same holder.
_held_steps: ContextVar[HeldSteps | None] = ContextVar("held_steps", default=None)


@contextmanager
def steps_held() -> Iterator[HeldSteps]:
    """Hold the steps published in this context (``HeldSteps``)."""
    holder = HeldSteps()
    token = _held_steps.set(holder)
    try:
        yield holder
    except BaseException:
        # A leg that fails still finished its earlier steps: they are announced now, from the
        # run's own thread, not by a timer that would fire after the run (and its worker's
        # task, or a test's database) is gone.
        holder.announce_now()
        raise
    finally:
        _held_steps.reset(token)


def announce_held_steps() -> None:
    """The run is about to wait: announce the steps it finished meanwhile."""
    holder = _held_steps.get()
    if holder is not None:
        holder.announce()


_batch = threading.local()


@contextmanager
def events_batch() -> Iterator[None]:
    """Record every event published inside the block together, and send them together once
    the transaction commits.

    For code that publishes several events in a row (a run's record, a lane's steps): their
    rows go in one insert when the block ends, numbered in the order published, and each group
    gets one message carrying its events in order, where it got one message per event. As
    with ``audit_batch``, an event published inside a savepoint that rolls back is still
    recorded with the others.
    """
    if getattr(_batch, "pending", None) is not None:  # already batching: join the outer one
        yield
        return
    _batch.pending = []
    try:
        yield
        pending: list[tuple[EventName, dict[str, Any]]] = _batch.pending
    finally:
        _batch.pending = None
    if pending:
        sends = _record(pending)
        after_commit(lambda: send(sends))


def _record(pending: list[tuple[EventName, dict[str, Any]]]) -> Sends:
    """Number ``pending`` (their rows, in one insert) and tell this process's listeners; the
    channel-layer messages that announce them, in order."""
    if len(pending) == 1:  # one row: a plain insert costs half a bulk one
        event, payload = pending[0]
        records = [ConsoleEvent.objects.create(type=event, payload=staff_view(payload))]
    else:
        records = ConsoleEvent.objects.bulk_create(
            [ConsoleEvent(type=event, payload=staff_view(payload)) for event, payload in pending]
        )
    sends: Sends = []
    for (event, payload), record in zip(pending, records, strict=True):
        sends.append((STAFF_GROUP, channel_message(event, record.pk, record.payload)))
        if _customer_hears(event, payload):
            group = inquiry_group(payload.get("inquiry_id") or payload["id"])
            sends.append((group, channel_message(event, record.pk, customer_view(payload))))
        event_published.send(sender=publish, event=event, payload=record.payload, seq=record.pk)
    return sends


def _customer_hears(event: EventName, payload: dict[str, Any]) -> bool:
    """Customers hear of their conversation's status and of its messages, never of a note."""
    if event == "conversation.message":
        return payload["author_kind"] in CUSTOMER_VISIBLE_AUTHORS
    return event == "inquiry.updated"
