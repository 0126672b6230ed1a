"""What every socket of the product does besides forwarding events.

A socket stays open only while its login may hold it: it joins its user's group, where logout,
deactivation and role changes are announced (``agents.support.events.access_revoked_publish``), and
re-checks on a timer for what no signal announces. A client frame that is not JSON text is the
client's mistake: the socket closes with ``SocketClose.BAD_FRAME``, not with a server error.
Who may hold which socket is ``operators.access``'s rule; consumers only apply it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.conf import settings

from agents.support.events.names import user_group
from agents.support.events.transport import channel_events
from operators.access import SocketClose, session_digest, socket_recheck, socket_standing

logger = logging.getLogger(__name__)

RECHECK_FAILURES_TOLERATED = 2  # consecutive re-checks that could not reach the database


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    """A listen-only JSON socket for one login, closed as soon as that login loses it."""

    user_id: Any = None
    session_key: str | None = None
    closed_with: SocketClose | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.joined: list[str] = []
        self.rechecks: asyncio.Task[None] | None = None

    def permits(self, user: Any) -> bool:
        """May this signed-in, active ``user`` hold the socket? Runs in a thread (ORM allowed)."""
        raise NotImplementedError

    async def admit(self) -> bool:
        """True if the socket may open; otherwise it is accepted and closed with the reason,
        so that the browser can read the code and stop retrying."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            # Joined before the check, so a change between the two is still announced here.
            self.user_id, self.session_key = user.pk, self.scope["session"].session_key
            await self.join(user_group(self.user_id))
        refusal = await database_sync_to_async(socket_standing)(user=user, permits=self.permits)
        if refusal is not None:
            await self.accept()
            await self.end(refusal)
            return False
        self.rechecks = asyncio.create_task(self._recheck_every(settings.NETSHOP_SOCKET_RECHECK_S))
        return True

    async def join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.joined.append(group)

    async def end(self, code: SocketClose) -> None:
        """Close once, leaving every group first so that nothing more is forwarded."""
        if self.closed_with is not None:
            return
        self.closed_with = code
        await self._leave()
        await self.close(code=int(code))

    async def forward(self, message: dict[str, Any]) -> None:
        if self.closed_with is None:
            await self.send_json(
                {"event": message["event"], "seq": message["seq"], "payload": message["payload"]}
            )

    async def console_event(self, message: dict[str, Any]) -> None:
        """One live event for a group this socket joined (``agents.support.events.bus.publish``)."""
        await self.forward(message)

    async def console_events(self, message: dict[str, Any]) -> None:
        """Events published together (``agents.support.events.bus.events_batch``): each in
        turn, as if it had come alone, so the browser sees one frame per event."""
        for event in channel_events(message):
            await self.console_event(event)

    async def disconnect(self, code: int) -> None:
        if self.rechecks is not None:
            self.rechecks.cancel()
        await self._leave()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Clients only listen: JSON text is ignored, anything else closes the socket."""
        if text_data is not None and _is_json(text_data):
            return
        logger.info("closing %s: the client sent a frame that is not JSON text", self._path())
        await self.end(SocketClose.BAD_FRAME)

    async def access_revoked(self, message: dict[str, Any]) -> None:
        """The login changed: a named session ends its own sockets, anything else re-checks."""
        ended = message.get("session")
        if ended is None:
            await self.recheck()
        elif ended == session_digest(self.session_key):
            await self.end(SocketClose.SIGNED_OUT)

    async def recheck(self) -> None:
        refusal = await database_sync_to_async(socket_recheck)(
            session_key=self.session_key, user_id=self.user_id, permits=self.permits
        )
        if refusal is not None:
            logger.info("closing %s with %d: access ended", self._path(), refusal)
            await self.end(refusal)

    async def _recheck_every(self, seconds: float) -> None:
        # The first wait is drawn at random so that sockets opened together (every console
        # reconnecting after a restart) do not all re-check together; no wait exceeds ``seconds``.
        wait = random.uniform(0, seconds)  # noqa: S311  (spreads load; nothing secret)
        failures = 0
        while self.closed_with is None:
            await asyncio.sleep(wait)
            wait = seconds
            try:
                await self.recheck()
                failures = 0
            except Exception:
                # One database hiccup keeps the socket; a socket that cannot be re-checked
                # twice running is closed, since the signal that would have closed it may
                # have been lost too (the channel layer delivers at most once).
                failures += 1
                logger.warning("could not re-check %s", self._path(), exc_info=True)
                if failures >= RECHECK_FAILURES_TOLERATED:
                    await self.end(SocketClose.SIGNED_OUT)

    async def _leave(self) -> None:
        joined, self.joined = self.joined, []
        for group in joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    def _path(self) -> str:
        return str(self.scope.get("path", "socket"))


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


class NoSuchSocket(AsyncWebsocketConsumer):
    """Every socket path no route declares: refused at the handshake, quietly.

    Without it Channels answers an unknown path with a server error and a traceback per
    connection, which lets anyone fill the log.
    """

    async def connect(self) -> None:
        await self.close(code=SocketClose.NOT_FOUND)
