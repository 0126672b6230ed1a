"""The help page's socket: a customer hears their own conversation's status changes and its
messages (never a note: those are not sent to the conversation's group)."""

from __future__ import annotations

from typing import Any

from agents.support.events.names import inquiry_group
from operators.customer_page.selectors import customer_owns_inquiry
from operators.sockets import GuardedJsonConsumer

FORWARDED = frozenset({"inquiry.updated", "conversation.message"})


class HelpConsumer(GuardedJsonConsumer):
    """``/ws/help/<inquiry_id>/``"""

    inquiry_id = ""

    def permits(self, user: Any) -> bool:
        return customer_owns_inquiry(user=user, inquiry_id=self.inquiry_id)

    async def connect(self) -> None:
        self.inquiry_id = str(self.scope["url_route"]["kwargs"]["inquiry_id"])
        if not await self.admit():
            return
        await self.join(inquiry_group(self.inquiry_id))
        await self.accept()

    async def console_event(self, message: dict[str, Any]) -> None:
        if message.get("event") in FORWARDED:
            await self.forward(message)
