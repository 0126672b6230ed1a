"""The console's socket: staff hear every live event; a detail page also shares who views it.

Consumers authenticate, join groups and forward (STYLE habit 7). The only database work is
the role check, run through ``database_sync_to_async``.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from agents.events import CHANNEL_MESSAGE_TYPE, STAFF_GROUP
from netshop.roles import Role, user_has_role
from operators.console.presence import viewer_join, viewer_leave, viewers_group

FORBIDDEN = 4403  # closed after accepting, so that browsers see the code and stop retrying
VIEWERS_EVENT = "escalation.viewers"  # console-only and unnumbered: presence is not history


class ConsoleConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/console/`` and ``/ws/console/escalations/<id>/`` (the latter also shares presence)."""

    joined = False
    escalation_id: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not await database_sync_to_async(user_has_role)(user, Role.OPERATOR):
            await self.accept()
            await self.close(code=FORBIDDEN)
            return
        kwargs = self.scope.get("url_route", {}).get("kwargs", {})
        self.escalation_id = str(kwargs["escalation_id"]) if "escalation_id" in kwargs else None
        await self.channel_layer.group_add(STAFF_GROUP, self.channel_name)
        if self.escalation_id:
            await self.channel_layer.group_add(viewers_group(self.escalation_id), self.channel_name)
        self.joined = True
        await self.accept()
        if self.escalation_id:
            viewers = await viewer_join(
                escalation_id=self.escalation_id,
                channel=self.channel_name,
                username=user.get_username(),
            )
            await self._announce(viewers)

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            return
        await self.channel_layer.group_discard(STAFF_GROUP, self.channel_name)
        if self.escalation_id:
            group = viewers_group(self.escalation_id)
            await self.channel_layer.group_discard(group, self.channel_name)
            channel = self.channel_name
            viewers = await viewer_leave(escalation_id=self.escalation_id, channel=channel)
            await self._announce(viewers)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients only listen."""

    async def console_event(self, message: dict[str, Any]) -> None:
        await self.send_json(
            {"event": message["event"], "seq": message["seq"], "payload": message["payload"]}
        )

    async def _announce(self, viewers: list[str]) -> None:
        await self.channel_layer.group_send(
            viewers_group(self.escalation_id),
            {
                "type": CHANNEL_MESSAGE_TYPE,
                "event": VIEWERS_EVENT,
                "seq": None,
                "payload": {"id": self.escalation_id, "viewers": viewers},
            },
        )
