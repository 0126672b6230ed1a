"""The help page's socket hears its conversation's messages, and never a note.

Given a customer's open ``/ws/help/<inquiry>/`` on the real ASGI application and channel
layer, when an operator writes to the customer and notes something, then the socket gets the
operator's message exactly as published and nothing of the note.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from agents.models import ConsoleEvent
from agents.support.conversations.services import (
    conversation_take_over,
    note_add,
    operator_message_send,
)
from netshop.roles import Role
from tests.factories import CustomerFactory
from tests.operators.api_helpers import inquiry_for, staff_user
from tests.support.sockets import socket_headers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("redis_channel_layer"),
]


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(scenario)()


def test_the_owner_hears_an_operators_message_and_not_a_note() -> None:
    owner = User.objects.create_user("c1", password="x")
    inquiry = inquiry_for(CustomerFactory.create(user=owner), text="届きません")
    operator = staff_user("op1", Role.OPERATOR)
    conversation_take_over(inquiry_id=inquiry.pk, user=operator)
    headers = socket_headers(owner)

    def write() -> None:
        note_add(inquiry_id=inquiry.pk, user=operator, text="社内メモ")
        operator_message_send(inquiry_id=inquiry.pk, user=operator, text="お調べします。")

    heard: list[dict[str, object]] = []

    async def scenario() -> None:
        from netshop.asgi import application

        communicator = WebsocketCommunicator(application, f"/ws/help/{inquiry.pk}/", headers)
        connected, _ = await communicator.connect()
        assert connected
        await database_sync_to_async(write)()
        heard.extend([await communicator.receive_json_from(timeout=5) for _ in range(2)])
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()

    run(scenario)

    message = inquiry.messages.get(text="お調べします。")
    seq = ConsoleEvent.objects.filter(type="conversation.message").order_by("-pk").first()
    assert [e["event"] for e in heard] == ["conversation.message", "inquiry.updated"]
    assert heard[0]["seq"] == seq.pk  # type: ignore[union-attr]
    # Which member of staff wrote is staff's to know: the customer hears "an operator".
    assert heard[0]["payload"] == {
        "id": str(message.pk),
        "inquiry_id": str(inquiry.pk),
        "author_kind": "operator",
        "text": "お調べします。",
        "channel": "console",
        "language": "ja",
        "turn": None,
        "answer": False,
        "created_at": message.created_at.isoformat(),
    }
