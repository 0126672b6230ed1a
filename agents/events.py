"""The live events, declared once: their names, who hears them, and their payloads.

``publish`` numbers each event (a ``ConsoleEvent`` row, in the caller's transaction) and sends
it to the channel-layer groups only after that transaction commits. The numbers let a console
that lost its socket fetch exactly what it missed (channel layers deliver at most once).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from typing import Any, Literal

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.dispatch import Signal

from agents.conversations.storefront_events import storefront_announce
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


def publish(event: EventName, payload: dict[str, Any], *, subject: Inquiry | None = None) -> int:
    """Record ``event`` and send it after commit; returns its sequence number.

    Staff and the stored history (``/api/v1/events``) get the payload with coupon codes
    withheld; only the inquiry's own group, its customer, hears the reply as written.
    ``subject``, the conversation the event is about when the caller holds it, saves looking
    up whether a storefront listens.
    """
    staff_payload = staff_view(payload)
    record = ConsoleEvent.objects.create(type=event, payload=staff_payload)
    _announce(event, payload, record, subject)
    return record.pk


def publish_all(event: EventName, payloads: list[dict[str, Any]]) -> None:
    """``publish`` for several events of one kind at once (the steps a lane of the fan-out
    brings back together): their rows in one insert, in order."""
    records = ConsoleEvent.objects.bulk_create(
        [ConsoleEvent(type=event, payload=staff_view(payload)) for payload in payloads]
    )
    for payload, record in zip(payloads, records, strict=True):
        _announce(event, payload, record, None)


def _announce(
    event: EventName, payload: dict[str, Any], record: ConsoleEvent, subject: Inquiry | None
) -> None:
    """Everything a recorded event sets off: webhooks in this transaction, sockets after it."""
    staff_payload = record.payload
    storefront_announce(event, payload, subject)  # the storefront's webhooks, in this transaction
    sends = [(STAFF_GROUP, _message(event, record.pk, staff_payload))]
    if _customer_hears(event, payload):
        group = inquiry_group(payload.get("inquiry_id") or payload["id"])
        sends.append((group, _message(event, record.pk, customer_view(payload))))
    after_commit(lambda: _send(sends))
    event_published.send(sender=publish, event=event, payload=staff_payload, seq=record.pk)


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
    try:
        if isinstance(layer, InMemoryChannelLayer):  # its queues belong to the server's loop
            async_to_sync(_group_send)(layer, sends)
        else:
            _sender().send(layer, sends)
    except Exception:  # a live update lost is recovered by the console's resync
        groups = [group for group, _ in sends]
        logger.warning("could not send %s to %s", sends[0][1]["event"], groups, exc_info=True)


async def _group_send(layer: Any, sends: Sends) -> None:
    for group, message in sends:
        await layer.group_send(group, message)


class _Sender:
    """One event loop per process for channel-layer sends from synchronous code.

    ``async_to_sync`` would build a loop, and channels-redis a connection, for every event;
    a loop that lives as long as the process keeps its connections, and a lock keeps the
    events in the order they were published.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.lock: asyncio.Lock | None = None
        threading.Thread(target=self.loop.run_forever, name="event-sender", daemon=True).start()

    def send(self, layer: Any, sends: Sends) -> None:
        future = asyncio.run_coroutine_threadsafe(self._send(layer, sends), self.loop)
        future.result(timeout=SEND_TIMEOUT_S)

    async def _send(self, layer: Any, sends: Sends) -> None:
        if self.lock is None:
            self.lock = asyncio.Lock()
        async with self.lock:
            await _group_send(layer, sends)


SEND_TIMEOUT_S = 5.0
_senders: dict[int, _Sender] = {}
_senders_guard = threading.Lock()


def _sender() -> _Sender:
    """This process's sender (a forked worker gets its own: threads do not survive a fork)."""
    with _senders_guard:
        sender = _senders.get(os.getpid())
        if sender is None:
            sender = _senders[os.getpid()] = _Sender()
        return sender
