"""Failed logins lock a username out from one address (django-axes), and people can unlock it.

Given the shared shop's logins, when a client guesses a password over and over, then after the
configured number of failures (5 by default) that username is refused from that address, the
right password included, with a page that says so in the visitor's language and no session;
other people from the same address and the same person from elsewhere still log in; and
``manage.py axes_reset_username`` or the admin lifts the lock. While any lockout of a staff
member's login stands, their personal API tokens are refused too (401 ``account_locked``),
from every address: a token is a second way into the account, not a second address.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.utils import timezone

from netshop.audit.models import AuditEntry
from netshop.perimeter import client_ip
from tests.operators.api_helpers import bearer, staff_key
from tests.security.conftest import PASSWORD, Shop

pytestmark = pytest.mark.usefixtures("quiet_refusals")

LOGIN = "/accounts/login/"
ATTACKER = "203.0.113.7"
ELSEWHERE = "198.51.100.20"
LOCKED_TEXT = "Too many failed logins for this account from your address."


def attempt(username: str, password: str, *, address: str = ATTACKER, **headers: Any) -> Any:
    """One login POST through the real form, from ``address``; returns the response and
    whether the client came away with a session."""
    client = Client(REMOTE_ADDR=address, headers=headers)
    response = client.post(LOGIN, {"username": username, "password": password})
    return response, "_auth_user_id" in client.session


def guess(username: str, times: int, *, address: str = ATTACKER) -> list[int]:
    return [attempt(username, f"wrong-{n}", address=address)[0].status_code for n in range(times)]


@pytest.mark.parametrize("username", ["operator", "hanako"])
def test_forty_wrong_passwords_lock_the_login_and_the_right_one_is_then_refused(
    shop: Shop, username: str
) -> None:
    statuses = guess(username, 40)

    response, logged_in = attempt(username, PASSWORD)

    assert statuses == [200] * 4 + [429] * 36
    assert response.status_code == 429
    assert LOCKED_TEXT in response.content.decode()
    assert "30 minutes after the last failed attempt" in response.content.decode()
    assert 'id="login-form"' not in response.content.decode()
    assert logged_in is False
    assert not AuditEntry.objects.filter(action="console.login", actor=username).exists()


def test_failures_below_the_limit_only_say_the_password_was_wrong(shop: Shop) -> None:
    statuses = guess("operator", 4)

    response, logged_in = attempt("operator", PASSWORD)

    assert statuses == [200] * 4
    assert (response.status_code, logged_in) == (302, True)


def test_a_successful_login_starts_the_count_again(shop: Shop) -> None:
    guess("operator", 4)
    attempt("operator", PASSWORD)

    statuses = guess("operator", 4)

    assert statuses == [200] * 4
    assert attempt("operator", PASSWORD)[1] is True


def test_the_lockout_page_speaks_japanese_to_a_japanese_browser(shop: Shop) -> None:
    guess("hanako", 5)

    response, logged_in = attempt("hanako", PASSWORD, **{"Accept-Language": "ja"})

    assert response.status_code == 429
    text = response.content.decode()
    assert "ログインはロックされています" in text
    assert "最後の失敗から30分間は、正しいパスワードでもログインできません。" in text
    assert logged_in is False


def test_another_login_from_the_same_address_is_not_locked(shop: Shop) -> None:
    guess("operator", 40)

    response, logged_in = attempt("manager", PASSWORD)

    assert (response.status_code, logged_in) == (302, True)


def test_the_same_login_from_another_address_is_not_locked(shop: Shop) -> None:
    guess("operator", 40)

    response, logged_in = attempt("operator", PASSWORD, address=ELSEWHERE)

    assert (response.status_code, logged_in) == (302, True)


def test_the_admin_login_counts_and_locks_the_same_way(shop: Shop) -> None:
    client = Client(REMOTE_ADDR=ATTACKER)
    statuses = [
        client.post("/admin/login/", {"username": "manager", "password": "x"}).status_code
        for _ in range(6)
    ]

    refused = client.post("/admin/login/", {"username": "manager", "password": PASSWORD})

    assert statuses == [200] * 4 + [429] * 2
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_unlock_command_lets_the_right_password_in_again(shop: Shop) -> None:
    guess("operator", 10)
    assert attempt("operator", PASSWORD)[0].status_code == 429

    call_command("axes_reset_username", "operator", stdout=None)

    response, logged_in = attempt("operator", PASSWORD)
    assert (response.status_code, logged_in) == (302, True)


def test_the_unlock_command_leaves_other_locks_alone(shop: Shop) -> None:
    guess("operator", 5)
    guess("hanako", 5)

    call_command("axes_reset_username", "operator", stdout=None)

    assert attempt("hanako", PASSWORD)[0].status_code == 429


def test_a_superuser_unlocks_by_deleting_the_attempt_in_the_admin(shop: Shop) -> None:
    guess("operator", 5)
    locked = AccessAttempt.objects.get(username="operator")
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", "root@example.com", "x"))

    response = admin.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": [locked.pk], "post": "yes"},
    )

    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="operator").exists()
    assert attempt("operator", PASSWORD)[1] is True


def test_the_limit_and_the_cool_off_come_from_settings(shop: Shop, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    settings.AXES_COOLOFF_TIME = None

    statuses = guess("operator", 3)

    response, _ = attempt("operator", PASSWORD)
    assert statuses == [200, 429, 429]
    assert "until an administrator unlocks it" in response.content.decode()


# --- Personal API tokens ---------------------------------------------------------------------

ACCOUNT_LOCKED = {
    "code": "account_locked",
    "message": (
        "This account is locked after too many failed logins, and its API tokens with it; "
        "they work again once the account is unlocked."
    ),
}


def with_token(key: str) -> Any:
    """A staff API call with a personal token, from an address nobody guessed from."""
    return Client(REMOTE_ADDR=ELSEWHERE).get("/api/v1/escalations", headers=bearer(key))


def test_a_locked_out_staff_members_token_is_refused_until_they_are_unlocked(shop: Shop) -> None:
    key = staff_key(shop.user("operator"))
    before = with_token(key)
    guess("operator", 5)

    locked = with_token(key)
    call_command("axes_reset_username", "operator", stdout=None)
    unlocked = with_token(key)

    assert before.status_code == 200
    assert (locked.status_code, locked.json()) == (401, ACCOUNT_LOCKED)
    assert locked["WWW-Authenticate"] == 'Bearer realm="netshop"'
    assert unlocked.status_code == 200


def test_failures_below_the_limit_leave_the_token_working(shop: Shop) -> None:
    key = staff_key(shop.user("operator"))
    guess("operator", 4)

    assert with_token(key).status_code == 200


def test_a_lockout_past_its_cool_off_no_longer_refuses_the_token(shop: Shop) -> None:
    key = staff_key(shop.user("manager"))
    guess("manager", 5)
    AccessAttempt.objects.filter(username="manager").update(
        attempt_time=timezone.now() - timedelta(minutes=31)
    )

    assert with_token(key).status_code == 200


def test_another_persons_lockout_leaves_the_token_working(shop: Shop) -> None:
    key = staff_key(shop.user("manager"))
    guess("operator", 5)

    assert with_token(key).status_code == 200


# --- The audit trail -------------------------------------------------------------------------


def lockouts() -> list[tuple[str, dict[str, Any]]]:
    entries = AuditEntry.objects.filter(action="login.locked_out").order_by("pk")
    return [(entry.actor, entry.data) for entry in entries]


def test_a_lockout_is_audited_once_with_whose_login_and_no_address(shop: Shop) -> None:
    guess("operator", 40)

    assert lockouts() == [("operator", {"user_id": shop.user("operator").pk, "failures": 5})]
    assert ATTACKER not in str(AuditEntry.objects.get(action="login.locked_out").data)


def test_guesses_at_a_login_that_does_not_exist_write_nothing(shop: Shop) -> None:
    guess("no-such-login", 10)

    assert lockouts() == []


def test_failures_below_the_limit_are_not_audited(shop: Shop) -> None:
    guess("manager", 4)

    assert lockouts() == []


# --- Which address counts ----------------------------------------------------------------------


def test_without_trusted_proxies_the_socket_peer_counts_whatever_the_headers_say(
    settings: Any,
) -> None:
    settings.NETSHOP_TRUSTED_PROXY_COUNT = 0
    request = RequestFactory().post(
        LOGIN, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1"
    )

    assert client_ip(request) == "10.0.0.2"


def test_behind_one_proxy_the_address_it_appended_counts_not_the_clients_own(
    settings: Any,
) -> None:
    settings.NETSHOP_TRUSTED_PROXY_COUNT = 1
    spoofed = RequestFactory().post(
        LOGIN, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.7"
    )

    assert client_ip(spoofed) == "203.0.113.7"


def test_behind_a_proxy_rotating_a_forged_header_does_not_reset_the_count(
    shop: Shop, settings: Any
) -> None:
    settings.NETSHOP_TRUSTED_PROXY_COUNT = 1
    statuses = [
        attempt(
            "operator", "wrong", address="10.0.0.2", X_FORWARDED_FOR=f"192.0.2.{n}, {ATTACKER}"
        )[0].status_code
        for n in range(6)
    ]

    assert statuses == [200] * 4 + [429] * 2
