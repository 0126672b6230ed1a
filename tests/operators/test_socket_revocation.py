"""An open socket ends with its login's access, through the real server (issue 10, finding 3).

Given a daphne server on the test database and the channels-redis layer, and a console or help
socket opened on it with a real session cookie, when the login logs out (through the server),
is deactivated, loses the operator role, or (on the server that re-checks often) is changed
where no signal sees it, then the socket is closed with the declared code within 2 s, and an
event published after the change never reaches it. A frame that is not JSON text closes the
socket with 4400 and leaves no error or traceback in the server's log.

The ``server`` re-checks once an hour, so what closes a socket there is the signal path alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.contrib.sessions.models import Session
from django.test import Client
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from agents.models import Inquiry
from agents.support.events.bus import publish
from agents.support.events.payloads import inquiry_payload
from netshop.roles import Role, role_assign
from tests.factories import CustomerFactory
from tests.operators.api_helpers import escalation_for, inquiry_for, staff_user
from tests.support.servers import LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BAD_FRAME, SIGNED_OUT, FORBIDDEN = 4400, 4401, 4403
CLOSED_WITHIN_S = 2.0  # the bar for the signal path
RECHECK_S = "0.5"  # the re-checking server's timer
RECHECK_CLOSED_WITHIN_S = 10.0  # several of its periods: the timer path, not a signal


@contextmanager
def serving(log: Path, recheck_s: str) -> Iterator[LiveServer]:
    server = LiveServer(log)
    # Sessions are made here and read there: both sides must sign them with one key.
    server.env["SECRET_KEY"] = settings.SECRET_KEY
    server.env["NETSHOP_SOCKET_RECHECK_S"] = recheck_s
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def server(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with serving(tmp_path_factory.mktemp("signals") / "daphne.log", recheck_s="3600") as live:
        yield live


@pytest.fixture(scope="module")
def rechecking_server(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    with serving(tmp_path_factory.mktemp("recheck") / "daphne.log", recheck_s=RECHECK_S) as live:
        yield live


def session_of(user: User) -> str:
    """A new session of ``user`` in the shared database, as a login through the server makes."""
    client = Client()
    client.force_login(user)
    return str(client.session.session_key)


def open_socket(server: LiveServer, path: str, session_key: str) -> ClientConnection:
    """Use with ``with``. Handshake done means joined: the consumer joins before it accepts."""
    return connect(
        f"ws://127.0.0.1:{server.port}{path}",
        origin=Origin(server.url),
        additional_headers={"Cookie": f"sessionid={session_key}"},
        proxy=None,
        open_timeout=10,
    )


def log_out(server: LiveServer, session_key: str) -> None:
    """``POST /accounts/logout/`` through the server, with the CSRF token a page hands out."""
    with httpx.Client(base_url=server.url, cookies={"sessionid": session_key}) as http:
        http.get("/accounts/login/").raise_for_status()
        token = http.cookies["csrftoken"]
        answer = http.post("/accounts/logout/", data={"csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    assert not Session.objects.filter(session_key=session_key).exists()


def close_code(socket: ClientConnection, within: float = CLOSED_WITHIN_S) -> int | None:
    """The code the server closes with; a frame it sends first fails the test."""
    try:
        frame = socket.recv(timeout=within)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    pytest.fail(f"the socket heard {frame!r} after access ended")


def heard(socket: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(socket.recv(timeout=10)))


def hears_a_new_escalation(socket: ClientConnection) -> bool:
    """The console socket is open and forwarding: it hears an escalation created now."""
    escalation = escalation_for()
    message = heard(socket)
    while message["event"] == "conversation.message":  # the escalated conversation's message
        assert message["payload"]["inquiry_id"] == str(escalation.inquiry_id)
        message = heard(socket)
    return (message["event"], message["payload"]["id"]) == (
        "escalation.created",
        str(escalation.pk),
    )


def hears_an_update(socket: ClientConnection, inquiry: Inquiry) -> bool:
    """The help socket is open and forwarding: it hears its inquiry's update sent now."""
    publish("inquiry.updated", inquiry_payload(inquiry))
    message = heard(socket)
    return (message["event"], message["payload"]["id"]) == ("inquiry.updated", str(inquiry.pk))


@contextmanager
def operator_console(server: LiveServer) -> Iterator[tuple[User, str, ClientConnection]]:
    """An operator's live console socket (checked live), and their session key."""
    user = staff_user("op1", Role.OPERATOR)
    key = session_of(user)
    with open_socket(server, "/ws/console/", key) as socket:
        assert hears_a_new_escalation(socket)
        yield user, key, socket


@contextmanager
def customer_help(server: LiveServer) -> Iterator[tuple[User, str, Inquiry, ClientConnection]]:
    """A customer's live help socket on their own inquiry (checked live)."""
    user = User.objects.create_user("c1", password="x")
    inquiry = inquiry_for(CustomerFactory.create(user=user))
    key = session_of(user)
    with open_socket(server, f"/ws/help/{inquiry.pk}/", key) as socket:
        assert hears_an_update(socket, inquiry)
        yield user, key, inquiry, socket


# --- The console, through the signals ---------------------------------------------------------


def test_an_operator_who_logs_out_loses_the_console(server: LiveServer) -> None:
    with operator_console(server) as (_, key, socket):
        log_out(server, key)
        escalation_for()  # published after the logout: must not be heard

        assert close_code(socket) == SIGNED_OUT


def test_logging_out_of_one_session_keeps_the_others_console(server: LiveServer) -> None:
    with operator_console(server) as (user, key, socket):
        log_out(server, session_of(user))

        assert hears_a_new_escalation(socket)
        assert Session.objects.filter(session_key=key).exists()


def test_a_deactivated_operator_loses_the_console(server: LiveServer) -> None:
    with operator_console(server) as (user, _, socket):
        user.is_active = False
        user.save()
        escalation_for()

        assert close_code(socket) == SIGNED_OUT


def test_an_operator_who_loses_the_role_loses_the_console(server: LiveServer) -> None:
    with operator_console(server) as (user, _, socket):
        user.groups.remove(Group.objects.get(name=Role.OPERATOR))
        escalation_for()

        assert close_code(socket) == FORBIDDEN


def test_a_change_that_keeps_the_role_keeps_the_console(server: LiveServer) -> None:
    with operator_console(server) as (user, _, socket):
        role_assign(user=user, role=Role.MANAGER)  # leaves the operator group: re-checked

        assert hears_a_new_escalation(socket)


def test_a_detail_page_socket_closes_too(server: LiveServer) -> None:
    user = staff_user("op1", Role.OPERATOR)
    escalation = escalation_for()
    path = f"/ws/console/escalations/{escalation.pk}/"
    with open_socket(server, path, session_of(user)) as socket:
        assert heard(socket)["event"] == "escalation.viewers"

        user.is_staff = False  # staff no more: the role no longer counts
        user.save()
        escalation_for()

        assert close_code(socket) == FORBIDDEN


# --- The help page, through the signals -------------------------------------------------------


def test_a_customer_who_logs_out_loses_the_help_socket(server: LiveServer) -> None:
    with customer_help(server) as (_, key, inquiry, socket):
        log_out(server, key)
        publish("inquiry.updated", inquiry_payload(inquiry))  # after the logout: not heard

        assert close_code(socket) == SIGNED_OUT


def test_a_deactivated_customer_loses_the_help_socket(server: LiveServer) -> None:
    with customer_help(server) as (user, _, inquiry, socket):
        user.is_active = False
        user.save()
        publish("inquiry.updated", inquiry_payload(inquiry))

        assert close_code(socket) == SIGNED_OUT


# --- What no signal reports: the timer --------------------------------------------------------


def test_a_deactivation_by_queryset_update_closes_the_console(
    rechecking_server: LiveServer,
) -> None:
    with operator_console(rechecking_server) as (user, _, socket):
        User.objects.filter(pk=user.pk).update(is_active=False)  # no post_save

        assert close_code(socket, within=RECHECK_CLOSED_WITHIN_S) == SIGNED_OUT


def test_a_session_deleted_behind_the_servers_back_closes_the_help_socket(
    rechecking_server: LiveServer,
) -> None:
    with customer_help(rechecking_server) as (_, key, _, socket):
        Session.objects.filter(session_key=key).delete()  # e.g. cleared by an administrator

        assert close_code(socket, within=RECHECK_CLOSED_WITHIN_S) == SIGNED_OUT


# --- A frame that is not JSON -----------------------------------------------------------------


def test_a_frame_that_is_not_json_is_closed_politely(server: LiveServer) -> None:
    with operator_console(server) as (_, _, socket):
        logged_before = server.log.stat().st_size

        socket.send("this is not JSON")

        assert close_code(socket) == BAD_FRAME
    logged = server.log.read_bytes()[logged_before:].decode("utf-8", errors="replace")
    assert "Traceback" not in logged
    assert " ERROR " not in logged
    assert "not JSON text" in logged
