"""The console's socket: staff hear every live event; a detail page also shares who views it.

Consumers authenticate, join groups and forward (STYLE habit 7). Who may hold the socket, and
closing it once they may not, is ``GuardedJsonConsumer``'s (``operators.sockets``).
"""

from __future__ import annotations

from typing import Any

from agents.support.events.names import CHANNEL_MESSAGE_TYPE, STAFF_GROUP
from netshop.roles import Role, user_has_role
from operators.console.presence import viewer_join, viewer_leave, viewers_group
from operators.sockets import GuardedJsonConsumer

VIEWERS_EVENT = "escalation.viewers"  # console-only and unnumbered: presence is not history


class ConsoleConsumer(GuardedJsonConsumer):
    """``/ws/console/`` and ``/ws/console/escalations/<id>/`` (the latter also shares presence)."""

    escalation_id: str | None = None
    present = False

    def permits(self, user: Any) -> bool:
        return user_has_role(user, Role.OPERATOR)

    async def connect(self) -> None:
        kwargs = self.scope.get("url_route", {}).get("kwargs", {})
        self.escalation_id = str(kwargs["escalation_id"]) if "escalation_id" in kwargs else None
        if not await self.admit():
            return
        await self.join(STAFF_GROUP)
        if self.escalation_id:
            await self.join(viewers_group(self.escalation_id))
        await self.accept()
        if self.escalation_id:
            self.present = True
            viewers = await viewer_join(
                escalation_id=self.escalation_id,
                channel=self.channel_name,
                username=self.scope["user"].get_username(),
            )
            await self._announce(viewers)

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        if self.present:
            channel = self.channel_name
            viewers = await viewer_leave(escalation_id=self.escalation_id, channel=channel)
            await self._announce(viewers)

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
