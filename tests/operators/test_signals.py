"""Changes to a login reach its open sockets as ``access.revoked`` on the login's group.

Given a channel listening on a login's group (the real channels-redis layer), when the login
logs out, is deactivated, loses a group from either side of the relation or is deleted, then
exactly one message reaches the group after commit; changes that cannot end access, and changes
rolled back, send nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import transaction

from agents.support.events.names import user_group
from netshop.roles import Role
from operators.access import session_digest
from tests.operators.api_helpers import signed_in, staff_user
from tests.support.channel_layers import heard, listener

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("redis_channel_layer"),
]

RECHECK = {"type": "access.revoked", "event": "access.revoked", "session": None}


def listening(user: User) -> Callable[[], list[dict[str, Any]]]:
    """Joins a fresh channel to ``user``'s group; the returned call drains what it heard.

    Sends finish before the change that caused them returns, so draining after it is enough.
    """
    channel = listener(user_group(user.pk))
    return lambda: heard(channel)


def operator() -> User:
    return staff_user("op1", Role.OPERATOR)


def test_a_logout_names_the_session_it_ends() -> None:
    user = operator()
    client = signed_in(user)
    digest = session_digest(client.session.session_key)
    heard = listening(user)

    client.post("/accounts/logout/")

    assert heard() == [{**RECHECK, "session": digest}]


def test_a_deactivation_asks_for_a_recheck() -> None:
    user = operator()
    heard = listening(user)

    user.is_active = False
    user.save()

    assert heard() == [RECHECK]


def test_a_change_of_the_staff_flag_asks_for_a_recheck() -> None:
    user = operator()
    heard = listening(user)

    user.is_staff = False
    user.save(update_fields=["is_staff"])

    assert heard() == [RECHECK]


@pytest.mark.parametrize(
    "remove",
    [
        lambda user, group: user.groups.remove(group),
        lambda user, group: group.user_set.remove(user),
        lambda user, group: user.groups.clear(),
        lambda user, group: group.user_set.clear(),
        lambda user, group: user.groups.set([]),
        lambda user, group: group.delete(),
    ],
    ids=["user.remove", "group.remove", "user.clear", "group.clear", "user.set", "group.delete"],
)
def test_leaving_the_role_group_asks_for_a_recheck(remove: Callable[[User, Group], Any]) -> None:
    user = operator()
    heard = listening(user)

    remove(user, Group.objects.get(name=Role.OPERATOR))

    assert heard() == [RECHECK]


def test_a_renamed_group_asks_its_members_for_a_recheck() -> None:
    user = operator()
    heard = listening(user)
    group = Group.objects.get(name=Role.OPERATOR)

    group.name = "former operators"
    group.save()

    assert heard() == [RECHECK]


def test_a_deleted_login_asks_for_a_recheck() -> None:
    user = operator()
    heard = listening(user)

    User.objects.get(pk=user.pk).delete()

    assert heard() == [RECHECK]


def test_a_login_and_its_last_login_stamp_send_nothing() -> None:
    user = operator()
    heard = listening(user)

    signed_in(user)  # updates last_login only

    assert heard() == []


def test_a_rolled_back_deactivation_sends_nothing() -> None:
    user = operator()
    heard = listening(user)

    with transaction.atomic():
        user.is_active = False
        user.save()
        transaction.set_rollback(True)

    assert heard() == []
    assert User.objects.get(pk=user.pk).is_active is True


def test_another_logins_change_is_not_announced_to_this_one() -> None:
    user, other = operator(), staff_user("op2", Role.OPERATOR)
    heard = listening(user)

    other.is_active = False
    other.save()

    assert heard() == []
