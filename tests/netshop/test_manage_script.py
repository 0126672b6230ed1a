"""scripts/manage: management commands in the environment scripts/run gives the app.

Given a shell with none of the app's settings (no SECRET_KEY, no DEBUG), ``manage.py`` alone
refuses to start; ``scripts/manage`` picks the shape, DEBUG and SECRET_KEY as scripts/run does
(scripts/lib/app-env.sh), so the operations commands work from a plain shell.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from netshop.roles import Role, user_has_role

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def plain_shell(**extra: str) -> dict[str, str]:
    """What a fresh login shell has, plus ``extra``: none of the app's settings."""
    env = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    return env | extra


def run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=180, check=False
    )


def child_database_url() -> str:
    """The test database this run migrated, for a child process to use."""
    db: dict[str, Any] = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def test_manage_py_alone_needs_a_secret_key_outside_debug(tmp_path: Path) -> None:
    env = plain_shell(NETSHOP_VAR_DIR=str(tmp_path))

    result = run([".venv/bin/python", "manage.py", "check"], env)

    assert result.returncode == 1
    assert "SECRET_KEY must be set (or DEBUG=1 for a local dev run)." in result.stderr


def test_scripts_manage_runs_a_command_in_the_embedded_shape(tmp_path: Path) -> None:
    env = plain_shell(NETSHOP_VAR_DIR=str(tmp_path))

    result = run(["scripts/manage", "check"], env)

    assert result.returncode == 0, result.stderr
    assert result.stdout == "System check identified no issues (0 silenced).\n"
    assert "scripts/manage: embedded shape" in result.stderr
    # DEBUG is off unless asked for: a key of its own, made once in var/
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600


# What the embedded shape answers for an address no view serves, from a child process with the
# environment scripts/run gives the server (scripts/lib/app-env.sh).
UNKNOWN_URL_PROBE = (
    "from django.test import Client; "
    "response = Client(HTTP_HOST='localhost').get('/no-such-page/'); "
    "content = response.content.decode(); "
    "print(response.status_code, 'Page not found' in content, 'URLconf' in content)"
)


def test_the_embedded_shape_answers_an_unknown_url_with_the_sites_404(tmp_path: Path) -> None:
    env = plain_shell(NETSHOP_VAR_DIR=str(tmp_path))

    result = run(["scripts/manage", "shell", "-c", UNKNOWN_URL_PROBE], env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "404 True False"  # the site's page, no URL patterns


def test_debug_1_is_the_opt_in_to_djangos_debug_pages(tmp_path: Path) -> None:
    env = plain_shell(NETSHOP_VAR_DIR=str(tmp_path), DEBUG="1")

    result = run(["scripts/manage", "shell", "-c", UNKNOWN_URL_PROBE], env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "404 True True"  # Django's, listing URL patterns


@pytest.mark.django_db(transaction=True)
def test_scripts_manage_in_the_production_shape_makes_and_reuses_var_secret_key(
    tmp_path: Path,
) -> None:
    env = plain_shell(
        NETSHOP_VAR_DIR=str(tmp_path),
        DATABASE_URL=child_database_url(),
        REDIS_URL=os.environ["REDIS_URL"],
        NETSHOP_STAFF_PASSWORD="from-the-env-1",
    )

    first = run(["scripts/manage", "create_staff", "alice", "--role", "operator"], env)
    key = (tmp_path / "secret_key").read_text()
    again = run(["scripts/manage", "create_staff", "alice", "--role", "manager"], env)
    audit = run(["scripts/manage", "verify_audit"], env)

    assert (first.returncode, again.returncode, audit.returncode) == (0, 0, 0), (
        first.stderr + again.stderr + audit.stderr
    )
    assert "scripts/manage: production shape" in first.stderr
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    assert len(key.strip()) >= 50
    assert (tmp_path / "secret_key").read_text() == key  # made once, then reused
    alice = get_user_model().objects.get(username="alice")
    assert user_has_role(alice, Role.MANAGER)
    # the child hashed it with the default hasher (this process's tests use a faster one)
    assert PBKDF2PasswordHasher().verify("from-the-env-1", alice.password)


def test_scripts_manage_without_a_command_prints_its_usage_and_fails() -> None:
    result = run(["scripts/manage"], plain_shell())

    assert result.returncode == 2
    assert result.stdout == ""
    assert "scripts/manage create_staff alice --role operator" in result.stderr
