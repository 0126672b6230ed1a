"""What every socket does besides forwarding: close politely, and close once access ends.

Given an open console or help socket on the real ASGI application (in this process, on the
channels-redis layer), when the client sends a frame that is not JSON text, then the socket is
closed with 4400 and nothing is logged as an error; when its login's group hears
``access.revoked``, or its timer fires, then it re-checks and closes with the rule's code, or
stays open while the login still holds it. The same through daphne: ``test_socket_revocation``.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.db import OperationalError
from django.test import Client
from pytest_django import Settings

from agents.support.events.names import STAFF_GROUP, user_group
from netshop.asgi import application  # at import: its django.setup() re-configures logging
from netshop.roles import Role
from operators import sockets
from operators.access import session_digest
from tests.factories import CustomerFactory
from tests.operators.api_helpers import inquiry_for, staff_user

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("redis_channel_layer"),
]

BAD_FRAME, SIGNED_OUT, FORBIDDEN, NOT_FOUND = 4400, 4401, 4403, 4404
EVENT = {"id": "e1", "kind": "approval"}


def socket(path: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=headers)


def customer_user(username: str) -> User:
    user = User.objects.create_user(username, password="x")
    CustomerFactory.create(user=user)
    return user


def signed_in_socket(user: User, path: str = "/ws/console/") -> tuple[WebsocketCommunicator, str]:
    """A socket on a fresh session of ``user``, and that session's key."""
    client = Client()
    client.force_login(user)
    key = str(client.session.session_key)
    headers = [(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())]
    return socket(path, headers), key


def revoke(user: User, session: str | None = None) -> None:
    """What ``access_revoked_publish`` sends, sent at once (the signals are tested apart)."""
    message = {"type": "access.revoked", "event": "access.revoked", "session": session}
    async_to_sync(get_channel_layer().group_send)(user_group(user.pk), message)


def send_to(group: str, event: str, seq: int | None, payload: dict[str, Any]) -> None:
    message = {"type": "console.event", "event": event, "seq": seq, "payload": payload}
    async_to_sync(get_channel_layer().group_send)(group, message)


async def closed_with(communicator: WebsocketCommunicator) -> int | None:
    """The code of the next output, which must be the close (an event first fails)."""
    output = await communicator.receive_output(timeout=5)
    assert output["type"] == "websocket.close", output
    await communicator.disconnect(code=output.get("code", 1000))
    return output.get("code")


async def still_open(communicator: WebsocketCommunicator) -> bool:
    """Open and forwarding: it hears an event sent to the staff group after the change."""
    await database_sync_to_async(send_to)(STAFF_GROUP, "escalation.created", 5, EVENT)
    message = await communicator.receive_json_from(timeout=5)
    return bool(message == {"event": "escalation.created", "seq": 5, "payload": EVENT})


# --- Paths no socket lives at ----------------------------------------------------------------


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/help/", "/ws/help/not-a-uuid/", "/ws/"])
def test_a_path_no_socket_lives_at_is_refused_quietly(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    communicator = socket(path, [(b"origin", b"http://testserver")])

    async def scenario() -> tuple[bool, int | None]:
        connected, code = await communicator.connect()
        await communicator.disconnect()
        return connected, code

    with caplog.at_level(logging.INFO):
        assert async_to_sync(scenario)() == (False, NOT_FOUND)

    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


# --- Frames that are not JSON text ----------------------------------------------------------


@pytest.mark.parametrize(
    "frame",
    [{"text": "not json"}, {"text": ""}, {"text": "{"}, {"bytes": b"\x00\x01"}],
    ids=["words", "empty", "broken", "binary"],
)
def test_a_frame_that_is_not_json_text_closes_the_console_with_4400(
    frame: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    communicator, _ = signed_in_socket(staff_user("op1", Role.OPERATOR))

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        await communicator.send_input({"type": "websocket.receive", **frame})
        assert await closed_with(communicator) == BAD_FRAME

    with caplog.at_level(logging.INFO):
        async_to_sync(scenario)()

    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    assert "not JSON text" in caplog.text


def test_a_frame_that_is_not_json_closes_the_help_socket_with_4400(
    caplog: pytest.LogCaptureFixture,
) -> None:
    owner = customer_user("c1")
    inquiry = inquiry_for(owner.customer)
    communicator, _ = signed_in_socket(owner, f"/ws/help/{inquiry.pk}/")

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        await communicator.send_to(text_data="hello?")
        assert await closed_with(communicator) == BAD_FRAME

    async_to_sync(scenario)()

    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


# --- Told by the login's group ----------------------------------------------------------------


def test_a_logout_of_this_session_closes_it_signed_out() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    communicator, key = signed_in_socket(operator)

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        await database_sync_to_async(revoke)(operator, session_digest(key))
        assert await closed_with(communicator) == SIGNED_OUT

    async_to_sync(scenario)()


def test_a_logout_of_another_session_keeps_this_one_open() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    communicator, _ = signed_in_socket(operator)

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        await database_sync_to_async(revoke)(operator, session_digest("another-session"))
        assert await still_open(communicator)
        await communicator.disconnect()

    async_to_sync(scenario)()


def test_a_recheck_after_a_removed_role_closes_it_forbidden() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    communicator, _ = signed_in_socket(operator)

    def remove_role() -> None:
        User.groups.through.objects.filter(user=operator).delete()  # no signal
        revoke(operator)

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        await database_sync_to_async(remove_role)()
        assert await closed_with(communicator) == FORBIDDEN

    async_to_sync(scenario)()


def test_a_recheck_while_still_allowed_keeps_it_open() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    communicator, _ = signed_in_socket(operator)

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        await database_sync_to_async(revoke)(operator)
        assert await still_open(communicator)
        await communicator.disconnect()

    async_to_sync(scenario)()


def test_a_customer_deactivated_is_signed_out_of_the_help_socket() -> None:
    owner = customer_user("c1")
    inquiry = inquiry_for(owner.customer)
    communicator, _ = signed_in_socket(owner, f"/ws/help/{inquiry.pk}/")

    def deactivate() -> None:
        User.objects.filter(pk=owner.pk).update(is_active=False)
        revoke(owner)

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        await database_sync_to_async(deactivate)()
        assert await closed_with(communicator) == SIGNED_OUT

    async_to_sync(scenario)()


# --- Told by nobody: the timer -------------------------------------------------------------


def test_the_timer_closes_a_socket_whose_login_was_deactivated_silently(
    settings: Settings,
) -> None:
    settings.NETSHOP_SOCKET_RECHECK_S = 0.2
    operator = staff_user("op1", Role.OPERATOR)
    communicator, _ = signed_in_socket(operator)

    def deactivate() -> None:
        User.objects.filter(pk=operator.pk).update(is_active=False)  # no signal

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        await database_sync_to_async(deactivate)()
        assert await closed_with(communicator) == SIGNED_OUT

    async_to_sync(scenario)()


def test_the_timer_keeps_a_socket_whose_login_is_unchanged(settings: Settings) -> None:
    settings.NETSHOP_SOCKET_RECHECK_S = 0.05
    operator = staff_user("op1", Role.OPERATOR)
    communicator, _ = signed_in_socket(operator)

    async def scenario() -> None:
        assert (await communicator.connect())[0]
        assert await communicator.receive_nothing(timeout=0.5)  # about ten re-checks
        assert await still_open(communicator)
        await communicator.disconnect()

    async_to_sync(scenario)()


@pytest.mark.parametrize(
    ("outcomes", "closed"),
    [(["fail", "ok", "fail", "ok"], False), (["ok", "fail", "fail"], True)],
    ids=["a hiccup keeps it", "two failures running close it"],
)
def test_a_socket_that_cannot_be_rechecked_twice_running_is_closed(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, outcomes: list[str], closed: bool
) -> None:
    # Given a re-check whose database answers as ``outcomes`` say (then keeps answering)
    settings.NETSHOP_SOCKET_RECHECK_S = 0.05
    communicator, _ = signed_in_socket(staff_user("op1", Role.OPERATOR))
    answers = iter(outcomes)

    def recheck(**_: Any) -> None:
        if next(answers, "ok") == "fail":
            raise OperationalError("the database is not answering")

    monkeypatch.setattr(sockets, "socket_recheck", recheck)

    async def scenario() -> bool:
        assert (await communicator.connect())[0]
        if closed:
            assert await closed_with(communicator) == SIGNED_OUT
            return True
        assert await communicator.receive_nothing(timeout=0.5)
        open_ = await still_open(communicator)
        await communicator.disconnect()
        return not open_

    # Then one failure is forgiven, two in a row are not
    assert async_to_sync(scenario)() is closed
