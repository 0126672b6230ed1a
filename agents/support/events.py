"""The live events, declared once: their names, who hears them, and their payloads.

``publish`` numbers each event (a ``ConsoleEvent`` row, in the caller's transaction) and sends
it to the channel-layer groups only after that transaction commits. The numbers let a console
that lost its socket fetch exactly what it missed (channel layers deliver at most once).
Events published together (``events_batch``) travel together: one hand-over to the channel
layer, and one message per group however many events it carries.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.dispatch import Signal

from agents.models import CUSTOMER_VISIBLE_AUTHORS, ConsoleEvent, Escalation, Inquiry, Message
from netshop.services.coupons import coupon_codes_withheld
from netshop.transactions import after_commit

logger = logging.getLogger(__name__)

EventName = Literal[
    "escalation.created",
    "escalation.claimed",
    "escalation.released",
    "escalation.assigned",
    "escalation.claim_timed_out",
    "escalation.overdue",
    "conversation.assigned",
    "escalation.action_decided",  # one action decided (or first-approved); others still wait
    "escalation.decided",
    "escalation.resolved",
    "inquiry.updated",
    "conversation.message",
    "run.step",
]

# Sent by ``publish`` inside the caller's transaction (``event``, ``payload``, ``seq``): how
# the operators' side (e.g. its notifications) hears of events without agents importing it.
event_published = Signal()

STAFF_GROUP = "console.staff"
CHANNEL_MESSAGE_TYPE = "console.event"  # the consumer method: console_event
# Several events for one group, in order (``events_batch``); the consumer method:
# console_events, which handles each as ``console_event`` would.
CHANNEL_BATCH_TYPE = "console.events"


def inquiry_group(inquiry_id: object) -> str:
    """The group of one inquiry's watchers (the customer page, a detail page)."""
    return f"inquiry.{inquiry_id}"


# Access may have been revoked: sent to one login's open sockets, which re-check and close.
# Unnumbered and never recorded: it is no history, and no other console may read it.
ACCESS_REVOKED_EVENT = "access.revoked"
ACCESS_MESSAGE_TYPE = "access.revoked"  # the consumer method: access_revoked


def user_group(user_id: object) -> str:
    """The group of one login's open sockets (console and help page alike)."""
    return f"user.{user_id}"


def access_revoked_publish(*, user_id: object, session: str | None = None) -> None:
    """Tell ``user_id``'s sockets, after commit, to re-check their access.

    ``session`` (a digest, never the key) names a session being ended: logout sends its signal
    before the session is deleted, so a re-check at once would still find it; the socket
    holding it closes without one.
    """
    message = {"type": ACCESS_MESSAGE_TYPE, "event": ACCESS_REVOKED_EVENT, "session": session}
    after_commit(lambda: _send([(user_group(user_id), message)]))


def escalation_payload(escalation: Escalation) -> dict[str, Any]:
    return {
        "id": str(escalation.pk),
        "inquiry_id": str(escalation.inquiry_id),
        "kind": escalation.kind,
        "reason": escalation.reason,
        "summary": escalation.summary,
        "status": escalation.status,
        "amount_at_risk": escalation.amount_at_risk,
        "deadline": escalation.deadline.isoformat(),
        "created_at": escalation.created_at.isoformat(),
        "claimed_by": escalation.claimed_by.username if escalation.claimed_by else None,
        "decided_by": escalation.decided_by.username if escalation.decided_by else None,
        "decision": (escalation.decision or {}).get("decision"),
    }


def inquiry_payload(inquiry: Inquiry) -> dict[str, Any]:
    return {
        "id": str(inquiry.pk),
        "status": inquiry.status,
        "reply": inquiry.reply,
        "human_owned": inquiry.human_owner_id is not None,
        "updated_at": inquiry.updated_at.isoformat() if inquiry.updated_at else None,
    }


def message_payload(message: Message) -> dict[str, Any]:
    """One message of a conversation as its watchers see it (``conversation.message``)."""
    return {
        "id": str(message.pk),
        "inquiry_id": str(message.inquiry_id),
        "author_kind": message.author_kind,
        "author": message.author.username if message.author else None,
        "text": message.text,
        "channel": message.channel,
        "language": message.language,
        "turn": message.turn,
        "created_at": message.created_at.isoformat(),
    }


def step_payloads(inquiry_id: str, node: str, update: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished step as the timeline shows it: one per specialist it ran (a lane of the
    fan-out brings back several envelopes at once)."""
    envelopes = update.get("envelopes") or {}
    if len(envelopes) <= 1:
        return [step_payload(inquiry_id, node, update)]
    return [
        step_payload(inquiry_id, node, {**update, "envelopes": {agent: envelope}})
        for agent, envelope in envelopes.items()
    ]


def step_payload(inquiry_id: str, node: str, update: dict[str, Any]) -> dict[str, Any]:
    """One finished step of a run: which node, which specialist, how it ended (no content)."""
    payload: dict[str, Any] = {"inquiry_id": inquiry_id, "node": node}
    envelopes = update.get("envelopes") or {}
    if envelopes:
        agent, envelope = next(iter(envelopes.items()))
        payload |= {
            "agent": agent,
            "status": envelope.get("status"),
            "attempt": envelope.get("attempt"),
        }
    if update.get("classification"):
        payload |= {"intent": update["classification"].get("intent")}
    if update.get("status"):
        payload |= {"status": update["status"]}
    return payload


# Told of every event as it is published, inside the transaction that publishes it (the
# storefront's webhooks are recorded with the conversation as it is now). Registered by the
# side that listens (``agents.apps``): the bus names no subscriber.
Subscriber = Callable[[EventName, dict[str, Any], Inquiry | None], None]
_subscribers: list[Subscriber] = []


def subscribe(subscriber: Subscriber) -> None:
    """Tell ``subscriber`` of every event from now on (once, however often it registers)."""
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)


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
        for subscriber in _subscribers:
            subscriber(event, payload, subject)
    with events_batch():
        _batch.pending.extend((event, payload) for payload in payloads)


class HeldSteps:
    """A run's finished steps, announced when the run is about to wait, not one by one.

    Steps that follow each other without waiting (the lanes coming back, the review) reach the
    consoles together: at the run's next model call (``announce_held_steps``, from
    ``agents.providers.invoke``), or with the run's record when the leg ends. A console has every
    step before the run waits on anything: a person watching it sees no step later than before.
    """

    def __init__(self) -> None:
        self.payloads: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def add(self, payloads: list[dict[str, Any]]) -> None:
        with self.lock:
            self.payloads.extend(payloads)

    def announce(self) -> None:
        # Under the lock: two lanes calling their models at once still publish in order.
        with self.lock:
            if self.payloads:
                publish_all("run.step", self.payloads)
                self.payloads = []

    def take(self) -> list[dict[str, Any]]:
        """What is still held, for the caller to publish (the leg's last steps)."""
        with self.lock:
            taken, self.payloads = self.payloads, []
            return taken


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
        after_commit(lambda: _send(sends))


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
        sends.append((STAFF_GROUP, _message(event, record.pk, record.payload)))
        if _customer_hears(event, payload):
            group = inquiry_group(payload.get("inquiry_id") or payload["id"])
            sends.append((group, _message(event, record.pk, customer_view(payload))))
        event_published.send(sender=publish, event=event, payload=record.payload, seq=record.pk)
    return sends


def _customer_hears(event: EventName, payload: dict[str, Any]) -> bool:
    """Customers hear of their conversation's status and of its messages, never of a note."""
    if event == "conversation.message":
        return payload["author_kind"] in CUSTOMER_VISIBLE_AUTHORS
    return event == "inquiry.updated"


def customer_view(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as the customer hears it: which member of staff wrote is staff's to know."""
    return {key: value for key, value in payload.items() if key != "author"}


def staff_view(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as staff may see it: a reply's coupon code is the customer's alone."""
    withheld = {
        key: coupon_codes_withheld(value)
        for key in ("reply", "text")
        if isinstance(value := payload.get(key), str)
    }
    return {**payload, **withheld} if withheld else payload


def _message(event: EventName, seq: int, payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": CHANNEL_MESSAGE_TYPE, "event": event, "seq": seq, "payload": payload}


Sends = list[tuple[str, dict[str, Any]]]  # (group, message), in order


def _send(sends: Sends) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    sends = _per_group(sends)
    try:
        if isinstance(layer, InMemoryChannelLayer):  # its queues belong to the server's loop
            async_to_sync(_group_send)(layer, sends)
        else:
            _loops().send(layer, sends)
    except Exception:  # a live update lost is recovered by the console's resync
        groups = [group for group, _ in sends]
        event = sends[0][1].get("event", CHANNEL_BATCH_TYPE)
        logger.warning("could not send %s to %s", event, groups, exc_info=True)


def _per_group(sends: Sends) -> Sends:
    """One message per group: a group's several events travel as one batch, in order."""
    by_group: dict[str, list[dict[str, Any]]] = {}
    for group, message in sends:
        by_group.setdefault(group, []).append(message)
    return [
        (group, messages[0] if len(messages) == 1 else _batch_message(messages))
        for group, messages in by_group.items()
    ]


def _batch_message(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": CHANNEL_BATCH_TYPE, "events": messages}


def channel_events(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The events one channel-layer message carries, in order: a batch's, or itself."""
    return message["events"] if message.get("type") == CHANNEL_BATCH_TYPE else [message]


async def _group_send(layer: Any, sends: Sends) -> None:
    """Each group its message, the groups at once (``_per_group`` gives a group one message,
    so its events keep their order); a lone group is awaited as it is: a task costs more."""
    async with asyncio.timeout(SEND_TIMEOUT_S):
        if len(sends) == 1:
            await layer.group_send(*sends[0])
        else:
            await asyncio.gather(*(layer.group_send(group, message) for group, message in sends))


class _SendLoops:
    """Event loops on which synchronous code sends to the channel layer, lent one per send.

    The publishing thread sends its events itself, in order, on a loop it borrows: handing
    each send to a thread of its own and waiting for it cost more than the send. A loop, and
    the channel layer's connections on it, stays for the next send by whichever thread; there
    are as many as sends ever ran at once. ``async_to_sync`` would build a loop, and
    channels-redis a connection, for every event.
    """

    def __init__(self) -> None:
        self.idle: list[asyncio.AbstractEventLoop] = []
        self.guard = threading.Lock()
        self.aside: ThreadPoolExecutor | None = None

    def send(self, layer: Any, sends: Sends) -> None:
        if _loop_running_here():
            # A thread already running an event loop (a test driving a browser through
            # Playwright's sync API) cannot run another: the send goes from a thread of its own.
            with self.guard:
                self.aside = self.aside or ThreadPoolExecutor(1, thread_name_prefix="events")
            self.aside.submit(self.send, layer, sends).result(timeout=2 * SEND_TIMEOUT_S)
            return
        with self.guard:
            loop = self.idle.pop() if self.idle else asyncio.new_event_loop()
        try:
            loop.run_until_complete(_group_send(layer, sends))
        finally:
            with self.guard:
                self.idle.append(loop)


def _loop_running_here() -> bool:
    """Whether this thread is inside a running event loop (which ``run_until_complete``
    refuses to start another in)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


SEND_TIMEOUT_S = 5.0
_send_loops: dict[int, _SendLoops] = {}
_send_loops_guard = threading.Lock()


def _loops() -> _SendLoops:
    """This process's loops (a forked worker makes its own: its parent's are not its to use)."""
    with _send_loops_guard:
        loops = _send_loops.get(os.getpid())
        if loops is None:
            loops = _send_loops[os.getpid()] = _SendLoops()
        return loops
