"""Sending events to the channel layer's groups, after commit, from any thread.

A publishing thread sends itself, on an event loop lent from a small pool; events published
together reach each group as one message (``channel_events`` unpacks it in the consumer).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from agents.support.events.names import (
    ACCESS_MESSAGE_TYPE,
    ACCESS_REVOKED_EVENT,
    CHANNEL_BATCH_TYPE,
    CHANNEL_MESSAGE_TYPE,
    EventName,
    user_group,
)
from netshop.transactions import after_commit

logger = logging.getLogger(__name__)


def channel_message(event: EventName, seq: int, payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": CHANNEL_MESSAGE_TYPE, "event": event, "seq": seq, "payload": payload}


Sends = list[tuple[str, dict[str, Any]]]  # (group, message), in order


def send(sends: Sends) -> None:
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


def access_revoked_publish(*, user_id: object, session: str | None = None) -> None:
    """Tell ``user_id``'s sockets, after commit, to re-check their access.

    ``session`` (a digest, never the key) names a session being ended: logout sends its signal
    before the session is deleted, so a re-check at once would still find it; the socket
    holding it closes without one.
    """
    message = {"type": ACCESS_MESSAGE_TYPE, "event": ACCESS_REVOKED_EVENT, "session": session}
    after_commit(lambda: send([(user_group(user_id), message)]))
