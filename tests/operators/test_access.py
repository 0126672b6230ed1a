"""The rule an open socket lives by: ``socket_standing`` at connect, ``socket_recheck`` later.

Given a login with a stored session, when the login, its groups or its session change (by the
services, by a queryset update that no signal reports, or by the session store), then the rule
answers ``None`` while the socket may stay open and otherwise the exact close code.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser, Group, User
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from netshop.roles import Role, role_assign, user_has_role
from operators.access import (
    SocketClose,
    session_digest,
    session_user,
    socket_recheck,
    socket_standing,
)
from operators.customer_page.selectors import customer_owns_inquiry
from tests.factories import CustomerFactory
from tests.operators.api_helpers import inquiry_for, staff_user

pytestmark = pytest.mark.django_db

SIGNED_OUT, FORBIDDEN = 4401, 4403
STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"


def is_operator(user: User) -> bool:
    return user_has_role(user, Role.OPERATOR)


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return str(client.session.session_key)


def console_recheck(session_key: str | None, user: User) -> SocketClose | None:
    return socket_recheck(session_key=session_key, user_id=user.pk, permits=is_operator)


def test_the_codes_are_one_per_reason() -> None:
    assert {code.name: int(code) for code in SocketClose} == {
        "BAD_FRAME": 4400,
        "SIGNED_OUT": 4401,
        "FORBIDDEN": 4403,
        "NOT_FOUND": 4404,
    }


@pytest.mark.parametrize("script", ["console/socket.js", "help.js"])
def test_the_pages_stop_on_the_same_codes(script: str) -> None:
    text = (STATIC_JS / script).read_text(encoding="utf-8")

    declared = dict(re.findall(r"(?:var|const) (SIGNED_OUT|FORBIDDEN) = (\d+);", text))

    assert declared == {
        "SIGNED_OUT": str(int(SocketClose.SIGNED_OUT)),
        "FORBIDDEN": str(int(SocketClose.FORBIDDEN)),
    }


# --- At connect --------------------------------------------------------------------------------


def test_an_operator_may_open_the_console() -> None:
    assert socket_standing(user=staff_user("op1", Role.OPERATOR), permits=is_operator) is None


def test_nobody_signed_in_is_told_signed_out() -> None:
    assert socket_standing(user=AnonymousUser(), permits=is_operator) == SIGNED_OUT
    assert socket_standing(user=None, permits=is_operator) == SIGNED_OUT


def test_a_signed_in_user_without_the_right_is_forbidden() -> None:
    clerk = staff_user("clerk", None)

    assert socket_standing(user=clerk, permits=is_operator) == FORBIDDEN


def test_an_inactive_user_is_signed_out_even_with_the_role() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    operator.is_active = False

    assert socket_standing(user=operator, permits=is_operator) == SIGNED_OUT


# --- Later, read afresh ------------------------------------------------------------------------


def test_a_live_session_of_an_operator_keeps_the_console() -> None:
    operator = staff_user("op1", Role.OPERATOR)

    assert console_recheck(session_of(operator), operator) is None


def test_a_manager_keeps_the_console_too() -> None:
    manager = staff_user("mgr", Role.MANAGER)

    assert console_recheck(session_of(manager), manager) is None


def test_a_deleted_session_is_signed_out() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    key = session_of(operator)

    Session.objects.filter(session_key=key).delete()  # logged out elsewhere, or cleared

    assert console_recheck(key, operator) == SIGNED_OUT


def test_an_expired_session_is_signed_out() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    key = session_of(operator)

    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - dt.timedelta(1))

    assert console_recheck(key, operator) == SIGNED_OUT


def test_a_deactivation_no_signal_reported_is_signed_out() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    key = session_of(operator)

    User.objects.filter(pk=operator.pk).update(is_active=False)

    assert console_recheck(key, operator) == SIGNED_OUT


def test_a_role_removed_behind_the_services_back_is_forbidden() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    key = session_of(operator)

    User.groups.through.objects.filter(user=operator).delete()

    assert console_recheck(key, operator) == FORBIDDEN


def test_a_renamed_role_group_is_forbidden() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    key = session_of(operator)

    Group.objects.filter(name=Role.OPERATOR).update(name="former operators")

    assert console_recheck(key, operator) == FORBIDDEN


def test_a_password_changed_elsewhere_signs_the_session_out() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    key = session_of(operator)

    operator.set_password("a new password")
    operator.save()

    assert console_recheck(key, operator) == SIGNED_OUT


def test_a_session_of_another_login_is_signed_out() -> None:
    operator, other = staff_user("op1", Role.OPERATOR), staff_user("op2", Role.OPERATOR)

    assert console_recheck(session_of(other), operator) == SIGNED_OUT


def test_no_session_key_is_signed_out() -> None:
    operator = staff_user("op1", Role.OPERATOR)

    assert console_recheck(None, operator) == SIGNED_OUT
    assert console_recheck("not-a-session", operator) == SIGNED_OUT


def test_a_rotated_secret_key_keeps_the_session_and_changes_nothing(settings: Settings) -> None:
    operator = staff_user("op1", Role.OPERATOR)
    key = session_of(operator)
    stored = Session.objects.get(session_key=key).session_data

    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-newer-secret-key-for-this-test-only"

    # Decoding needs the session's own signature: it verifies with the fallbacks too.
    assert console_recheck(key, operator) is None
    assert Session.objects.get(session_key=key).session_data == stored  # not cycled, not flushed


def test_a_reassigned_role_keeps_a_manager_who_becomes_an_operator() -> None:
    manager = staff_user("mgr", Role.MANAGER)
    key = session_of(manager)

    role_assign(user=manager, role=Role.OPERATOR)

    assert console_recheck(key, manager) is None


# --- The help page's rule ----------------------------------------------------------------------


def test_a_customer_keeps_their_inquiry_until_deactivated() -> None:
    user = User.objects.create_user("c1", password="x")
    customer = CustomerFactory.create(user=user)
    inquiry = inquiry_for(customer)
    key = session_of(user)

    def owns(who: User) -> bool:
        return customer_owns_inquiry(user=who, inquiry_id=inquiry.pk)

    before = socket_recheck(session_key=key, user_id=user.pk, permits=owns)
    User.objects.filter(pk=user.pk).update(is_active=False)
    after = socket_recheck(session_key=key, user_id=user.pk, permits=owns)

    assert (before, after) == (None, SIGNED_OUT)


# --- Naming a session --------------------------------------------------------------------------


def test_a_session_is_named_by_a_digest_not_by_its_key() -> None:
    operator = staff_user("op1", Role.OPERATOR)
    key = session_of(operator)

    digest = session_digest(key)

    assert digest is not None
    assert len(digest) == 64
    assert key not in digest
    assert session_digest(key) == digest
    assert session_digest(None) is None
    assert session_user(session_key=key) == operator
