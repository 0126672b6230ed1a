"""create_staff and create_api_token."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from netshop.models import ApiToken
from netshop.roles import Role, user_has_role

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    monkeypatch.delenv("NETSHOP_STAFF_PASSWORD", raising=False)


def create_staff(*args: str) -> str:
    out = StringIO()
    call_command("create_staff", *args, stdout=out)
    return out.getvalue()


def create_api_token(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("create_api_token", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_create_staff_makes_an_operator():
    output = create_staff("aiko", "--role", "operator", "--password", "s3cret-pass")

    user = get_user_model().objects.get(username="aiko")
    assert "Created staff user aiko (role operator)" in output
    assert user.is_staff
    assert not user.is_superuser
    assert user.check_password("s3cret-pass")
    assert user_has_role(user, Role.OPERATOR)
    assert not user_has_role(user, Role.MANAGER)


def test_create_staff_takes_the_password_from_the_environment(monkeypatch):
    monkeypatch.setenv("NETSHOP_STAFF_PASSWORD", "from-the-env")

    create_staff("ken", "--role", "manager")

    user = get_user_model().objects.get(username="ken")
    assert user.check_password("from-the-env")
    assert user_has_role(user, Role.MANAGER)
    assert user_has_role(user, Role.OPERATOR)


def test_create_staff_changes_the_role_of_an_existing_user_and_keeps_the_password():
    create_staff("aiko", "--role", "manager", "--password", "s3cret-pass")

    output = create_staff("aiko", "--role", "operator")

    user = get_user_model().objects.get(username="aiko")
    assert "Updated staff user aiko (role operator)" in output
    assert list(user.groups.values_list("name", flat=True)) == ["operator"]
    assert not user_has_role(user, Role.MANAGER)
    assert user.check_password("s3cret-pass")


def test_create_staff_refuses_an_unknown_role():
    with pytest.raises(CommandError, match="invalid choice: 'admin'"):
        create_staff("aiko", "--role", "admin", "--password", "s3cret-pass")

    assert not get_user_model().objects.filter(username="aiko").exists()


def test_create_staff_refuses_a_new_user_without_a_password():
    with pytest.raises(CommandError, match="needs a password"):
        create_staff("aiko", "--role", "operator")

    assert not get_user_model().objects.filter(username="aiko").exists()


def test_create_staff_refuses_a_too_short_password():
    with pytest.raises(CommandError, match="too short"):
        create_staff("aiko", "--role", "operator", "--password", "abc")

    assert not get_user_model().objects.filter(username="aiko").exists()


def test_create_api_token_prints_the_key_once_and_stores_only_its_digest():
    out, err = create_api_token("storefront")

    key = out.strip()
    token = ApiToken.objects.get(name="storefront")
    assert len(key) >= 40
    assert token.key_digest == ApiToken.digest(key)
    assert token.prefix == key[:8]
    assert key not in {token.key_digest, token.name, token.prefix}
    assert "not shown again" in err


def test_create_api_token_refuses_a_duplicate_name():
    create_api_token("storefront")
    digest = ApiToken.objects.get(name="storefront").key_digest

    with pytest.raises(CommandError, match="'storefront' already exists"):
        create_api_token("storefront")

    assert ApiToken.objects.count() == 1
    assert ApiToken.objects.get(name="storefront").key_digest == digest


def test_create_api_token_revokes_a_token():
    create_api_token("storefront")

    out, _ = create_api_token("storefront", "--revoke")

    assert "Revoked API token 'storefront'" in out
    assert ApiToken.objects.get(name="storefront").revoked_at is not None


def test_create_api_token_refuses_to_revoke_an_unknown_token():
    with pytest.raises(CommandError, match="No API token named 'nope'"):
        create_api_token("nope", "--revoke")


def test_create_api_token_with_a_user_issues_that_staff_members_own_token():
    create_staff("aiko", "--role", "operator", "--password", "s3cret-pass")

    out, err = create_api_token("aiko-script", "--user", "aiko")

    token = ApiToken.objects.get(name="aiko-script")
    assert token.user == get_user_model().objects.get(username="aiko")
    assert token.key_digest == ApiToken.digest(out.strip())
    assert "staff member 'aiko'" in err


@pytest.mark.parametrize(
    ("username", "problem"),
    [("nobody", "No user named 'nobody'"), ("shopper", "'shopper' is not an active operator")],
)
def test_create_api_token_refuses_a_user_who_is_not_staff(username, problem):
    get_user_model().objects.create_user("shopper", password="x")

    with pytest.raises(CommandError, match=problem):
        create_api_token("their-token", "--user", username)

    assert not ApiToken.objects.exists()
