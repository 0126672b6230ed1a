"""The console's and the help page's sockets: who may listen, and exactly what they hear.

Given users of every kind with a session cookie, when they open ``/ws/console/`` or
``/ws/help/<inquiry>/`` against the real ASGI application, then only staff hear staff events,
only the owner hears their inquiry, refusals close with 4401 (not signed in) or 4403 (signed
in without the right), and a detail page shares who else is viewing it.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client

from agents.models import ConsoleEvent, Escalation, Inquiry
from agents.support.escalations.claims import escalation_claim
from agents.support.events.bus import events_batch, publish
from agents.support.events.names import CHANNEL_BATCH_TYPE, STAFF_GROUP, inquiry_group
from agents.support.events.payloads import escalation_payload, inquiry_payload
from netshop.roles import Role
from operators.console.presence import viewer_leave
from tests.factories import CustomerFactory
from tests.operators.api_helpers import escalation_for, inquiry_for, staff_user
from tests.support.sockets import socket_headers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("redis_channel_layer"),
]

SIGNED_OUT, FORBIDDEN = 4401, 4403


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(scenario)()


def socket(path: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    """A client of the real application; ``headers`` from ``cookie`` (made outside the loop)."""
    from netshop.asgi import application

    return WebsocketCommunicator(application, path, headers=headers)


def customer_user(username: str) -> User:
    user = User.objects.create_user(username, password="x")
    CustomerFactory.create(user=user)
    return user


async def refused(communicator: WebsocketCommunicator) -> int | None:
    connected, _ = await communicator.connect()
    assert connected  # accepted only to close with a code the browser can read
    closing = await communicator.receive_output()
    await communicator.wait()
    assert closing["type"] == "websocket.close"
    return closing.get("code")


def send_to(group: str, event: str, seq: int | None, payload: dict[str, Any]) -> None:
    message = {"type": "console.event", "event": event, "seq": seq, "payload": payload}
    async_to_sync(get_channel_layer().group_send)(group, message)


# --- /ws/console/ ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "code"),
    [("anonymous", SIGNED_OUT), ("customer", FORBIDDEN), ("staff_without_role", FORBIDDEN)],
)
def test_the_console_socket_refuses_everyone_but_operators(who: str, code: int) -> None:
    user = {
        "anonymous": lambda: None,
        "customer": lambda: customer_user("cust"),
        "staff_without_role": lambda: User.objects.create_user("clerk", is_staff=True),
    }[who]()
    headers = socket_headers(user)

    async def scenario() -> None:
        assert await refused(socket("/ws/console/", headers)) == code

    run(scenario)


def test_a_socket_from_a_foreign_origin_is_rejected() -> None:
    user = staff_user("op1", Role.OPERATOR)
    client = Client()
    client.force_login(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    headers = [
        (b"origin", b"https://evil.example"),
        (b"cookie", f"sessionid={session}".encode()),
    ]

    async def scenario() -> None:
        from netshop.asgi import application

        connected, _ = await WebsocketCommunicator(application, "/ws/console/", headers).connect()
        assert not connected

    run(scenario)


@pytest.mark.parametrize("role", [Role.OPERATOR, Role.MANAGER])
def test_staff_hear_an_event_sent_to_the_staff_group_exactly(role: Role) -> None:
    headers = socket_headers(staff_user("staff1", role))
    payload = {"id": "e1", "inquiry_id": "i1", "kind": "approval", "claimed_by": None}

    async def scenario() -> None:
        communicator = socket("/ws/console/", headers)
        connected, _ = await communicator.connect()
        assert connected
        await database_sync_to_async(send_to)(STAFF_GROUP, "escalation.created", 41, payload)
        assert await communicator.receive_json_from(timeout=5) == {
            "event": "escalation.created",
            "seq": 41,
            "payload": payload,
        }
        await communicator.disconnect()

    run(scenario)


def test_a_claim_reaches_the_console_as_its_numbered_event_after_commit() -> None:
    op1 = staff_user("op1", Role.OPERATOR)
    headers = socket_headers(op1)
    escalation = escalation_for()

    def claim() -> Escalation:
        return escalation_claim(escalation_id=escalation.pk, user=op1)

    async def scenario() -> None:
        communicator = socket("/ws/console/", headers)
        await communicator.connect()
        claimed = await database_sync_to_async(claim)()
        message = await communicator.receive_json_from(timeout=5)
        assert message["event"] == "escalation.claimed"
        assert isinstance(message["seq"], int)
        assert message["payload"] == escalation_payload(claimed)
        assert message["payload"]["claimed_by"] == "op1"
        await communicator.disconnect()

    run(scenario)


def test_a_note_reaches_the_console_as_a_conversation_message_after_commit() -> None:
    op1 = staff_user("op1", Role.OPERATOR)
    headers = socket_headers(op1)
    inquiry = inquiry_for(text="届きません")

    def write() -> Any:
        from agents.support.conversations.services import note_add

        return note_add(inquiry_id=inquiry.pk, user=op1, text="Called the depot.")

    async def scenario() -> None:
        communicator = socket("/ws/console/", headers)
        await communicator.connect()
        note = await database_sync_to_async(write)()
        message = await communicator.receive_json_from(timeout=5)
        assert message["event"] == "conversation.message"
        assert isinstance(message["seq"], int)
        assert {k: message["payload"][k] for k in ("id", "inquiry_id", "author_kind", "text")} == {
            "id": str(note.pk),
            "inquiry_id": str(inquiry.pk),
            "author_kind": "note",
            "text": "Called the depot.",
        }
        await communicator.disconnect()

    run(scenario)


def test_events_published_together_reach_the_console_as_a_frame_each_in_order() -> None:
    headers = socket_headers(staff_user("op1", Role.OPERATOR))
    inquiry = inquiry_for(text="届きません")

    def record() -> list[int]:
        with transaction.atomic(), events_batch():
            first = {"inquiry_id": str(inquiry.pk), "node": "merge", "status": "resolved"}
            publish("run.step", first)
            publish("inquiry.updated", inquiry_payload(inquiry))
        return list(ConsoleEvent.objects.order_by("-pk").values_list("pk", flat=True)[:2])[::-1]

    async def scenario() -> None:
        communicator = socket("/ws/console/", headers)
        await communicator.connect()
        seqs = await database_sync_to_async(record)()
        frames = [await communicator.receive_json_from(timeout=5) for _ in seqs]
        assert [(f["event"], f["seq"]) for f in frames] == list(
            zip(["run.step", "inquiry.updated"], seqs, strict=True)
        )
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()

    run(scenario)


def test_the_console_ignores_what_clients_send() -> None:
    headers = socket_headers(staff_user("op1", Role.OPERATOR))

    async def scenario() -> None:
        communicator = socket("/ws/console/", headers)
        await communicator.connect()
        await communicator.send_json_to({"event": "escalation.decided", "payload": {}})
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()

    run(scenario)


# --- Presence on a detail page --------------------------------------------------------------


def test_a_detail_page_socket_shares_who_is_viewing() -> None:
    op1, op2 = (
        socket_headers(staff_user("op1", Role.OPERATOR)),
        socket_headers(staff_user("op2", Role.OPERATOR)),
    )
    escalation = escalation_for()
    path = f"/ws/console/escalations/{escalation.pk}/"
    viewers_of = {"event": "escalation.viewers", "seq": None}

    async def scenario() -> None:
        first, second = socket(path, op1), socket(path, op2)
        await first.connect()
        assert await first.receive_json_from(timeout=5) == {
            **viewers_of,
            "payload": {"id": str(escalation.pk), "viewers": ["op1"]},
        }
        await second.connect()
        both = {**viewers_of, "payload": {"id": str(escalation.pk), "viewers": ["op1", "op2"]}}
        assert await first.receive_json_from(timeout=5) == both
        assert await second.receive_json_from(timeout=5) == both

        await second.disconnect()
        assert await first.receive_json_from(timeout=5) == {
            **viewers_of,
            "payload": {"id": str(escalation.pk), "viewers": ["op1"]},
        }
        await first.disconnect()
        assert await viewer_leave(escalation_id=escalation.pk, channel="nobody") == []

    run(scenario)


def test_viewers_of_one_escalation_are_not_told_about_another() -> None:
    op1, op2 = (
        socket_headers(staff_user("op1", Role.OPERATOR)),
        socket_headers(staff_user("op2", Role.OPERATOR)),
    )
    one, other = escalation_for(), escalation_for()

    async def scenario() -> None:
        first = socket(f"/ws/console/escalations/{one.pk}/", op1)
        await first.connect()
        await first.receive_json_from(timeout=5)
        second = socket(f"/ws/console/escalations/{other.pk}/", op2)
        await second.connect()
        await second.receive_json_from(timeout=5)
        assert await first.receive_nothing(timeout=0.3)
        await first.disconnect()
        await second.disconnect()

    run(scenario)


# --- /ws/help/<inquiry>/ --------------------------------------------------------------------


@pytest.mark.parametrize("together", [False, True], ids=["one_by_one", "in_one_batch"])
def test_the_owner_hears_their_inquiry_updates_only(together: bool) -> None:
    owner = customer_user("c1")
    inquiry = inquiry_for(owner.customer)
    headers = socket_headers(owner)
    update = {"id": str(inquiry.pk), "status": "resolved", "reply": "done", "updated_at": None}
    sent = [
        {"type": "console.event", "event": "escalation.created", "seq": 7, "payload": {"id": "x"}},
        {"type": "console.event", "event": "inquiry.updated", "seq": 8, "payload": update},
    ]
    messages = [{"type": CHANNEL_BATCH_TYPE, "events": sent}] if together else sent

    async def scenario() -> None:
        communicator = socket(f"/ws/help/{inquiry.pk}/", headers)
        connected, _ = await communicator.connect()
        assert connected
        for message in messages:
            await get_channel_layer().group_send(inquiry_group(inquiry.pk), message)
        assert await communicator.receive_json_from(timeout=5) == {
            "event": "inquiry.updated",
            "seq": 8,
            "payload": update,
        }
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()

    run(scenario)


def test_the_owner_does_not_hear_the_staff_group() -> None:
    owner = customer_user("c1")
    inquiry = inquiry_for(owner.customer)
    headers = socket_headers(owner)

    async def scenario() -> None:
        communicator = socket(f"/ws/help/{inquiry.pk}/", headers)
        await communicator.connect()
        payload = {"id": str(inquiry.pk), "status": "resolved", "reply": "secret"}
        await database_sync_to_async(send_to)(STAFF_GROUP, "inquiry.updated", 9, payload)
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()

    run(scenario)


@pytest.mark.parametrize(
    ("who", "code"),
    [("anonymous", SIGNED_OUT), ("other_customer", FORBIDDEN), ("operator", FORBIDDEN)],
)
def test_the_help_socket_refuses_anyone_but_the_owner(who: str, code: int) -> None:
    owner = customer_user("c1")
    inquiry: Inquiry = inquiry_for(owner.customer)
    user = {
        "anonymous": lambda: None,
        "other_customer": lambda: customer_user("c2"),
        "operator": lambda: staff_user("op1", Role.OPERATOR),
    }[who]()
    headers = socket_headers(user)

    async def scenario() -> None:
        assert await refused(socket(f"/ws/help/{inquiry.pk}/", headers)) == code

    run(scenario)


def test_the_help_socket_refuses_an_inquiry_that_does_not_exist() -> None:
    headers = socket_headers(customer_user("c1"))

    async def scenario() -> None:
        assert await refused(socket(f"/ws/help/{uuid.uuid4()}/", headers)) == FORBIDDEN

    run(scenario)
