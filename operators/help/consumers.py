"""The help page's socket: a customer hears status changes of their own inquiry only."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from agents.events import inquiry_group
from operators.help.selectors import customer_owns_inquiry

FORBIDDEN = 4403
FORWARDED = frozenset({"inquiry.updated"})


class HelpConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/help/<inquiry_id>/``"""

    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        inquiry_id = self.scope["url_route"]["kwargs"]["inquiry_id"]
        owns = user is not None and await database_sync_to_async(customer_owns_inquiry)(
            user=user, inquiry_id=inquiry_id
        )
        if not owns:
            await self.accept()
            await self.close(code=FORBIDDEN)
            return
        self.group = inquiry_group(inquiry_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients only listen."""

    async def console_event(self, message: dict[str, Any]) -> None:
        if message.get("event") in FORWARDED:
            await self.send_json(
                {"event": message["event"], "seq": message["seq"], "payload": message["payload"]}
            )
