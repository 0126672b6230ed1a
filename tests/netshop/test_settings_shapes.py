"""Both settings shapes boot from a clean environment, and unsafe settings are refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

EMBEDDED_PROBE = """
import django
django.setup()
from django.conf import settings
from django.db import connection
assert connection.vendor == "sqlite", connection.vendor
assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer")
assert settings.EMBEDDED is True
print("embedded ok")
"""

PRODUCTION_PROBE = """
import django
django.setup()
from django.conf import settings
from django.db import connection
assert connection.vendor == "postgresql", connection.vendor
assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
assert settings.EMBEDDED is False
assert settings.CELERY_BROKER_URL == settings.REDIS_URL
print("production ok")
"""


def clean_env(**extra: str) -> dict[str, str]:
    """Only what a fresh shell has, plus ``extra``: no DATABASE_URL, REDIS_URL or SECRET_KEY."""
    env = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    env["DJANGO_SETTINGS_MODULE"] = "netshop.settings"
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_embedded_shape_migrates_and_boots_on_sqlite(tmp_path):
    env = clean_env(DEBUG="1", NETSHOP_VAR_DIR=str(tmp_path))

    for args in (["manage.py", "migrate", "--noinput"], ["manage.py", "check"]):
        result = run(args, env)
        assert result.returncode == 0, result.stderr
    probe = run(["-c", EMBEDDED_PROBE], env)

    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "embedded ok"
    assert (tmp_path / "netshop.sqlite3").stat().st_size > 0
    # a development audit key of its own, kept beside the database, readable by its owner only
    assert (tmp_path / "audit_key").read_text().startswith("dev:")
    assert (tmp_path / "audit_key").stat().st_mode & 0o777 == 0o600


def test_production_shape_boots_on_postgresql_and_redis(tmp_path):
    env = clean_env(
        DATABASE_URL=os.environ["DATABASE_URL"],
        REDIS_URL=os.environ["REDIS_URL"],
        SECRET_KEY="test-only-secret-key",
        NETSHOP_AUDIT_KEY="test:test-only-audit-key-0123456789abcdef",
        ALLOWED_HOSTS="localhost",
        NETSHOP_VAR_DIR=str(tmp_path),
    )

    check = run(["manage.py", "check"], env)
    probe = run(["-c", PRODUCTION_PROBE], env)

    assert check.returncode == 0, check.stderr
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "production ok"
    assert not (tmp_path / "netshop.sqlite3").exists()


@pytest.mark.parametrize("debug", [None, "0"])
def test_settings_refuse_to_load_without_a_secret_key_outside_debug(tmp_path, debug):
    env = clean_env(NETSHOP_VAR_DIR=str(tmp_path))
    if debug is not None:
        env["DEBUG"] = debug

    result = run(["manage.py", "check"], env)

    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set" in result.stderr


READ_SETTINGS_ONLY = """
from django.conf import settings
settings.DATABASES  # reading the settings module makes nothing on disk
print("read")
"""


def test_reading_the_settings_creates_no_folder_and_no_key_start_does(tmp_path):
    var = tmp_path / "var"
    env = clean_env(DEBUG="1", NETSHOP_VAR_DIR=str(var))

    read = run(["-c", READ_SETTINGS_ONLY], env)

    assert (read.returncode, read.stdout.strip()) == (0, "read"), read.stderr
    assert not var.exists()

    started = run(["-c", "import django; django.setup()"], env)

    assert started.returncode == 0, started.stderr
    assert sorted(p.name for p in var.iterdir()) == ["audit_key", "staticfiles"]
    assert (var / "audit_key").stat().st_mode & 0o777 == 0o600
    assert "No directory at" not in started.stderr


def test_the_embedded_key_made_at_start_is_the_one_every_later_start_reads(tmp_path):
    env = clean_env(DEBUG="1", NETSHOP_VAR_DIR=str(tmp_path))
    probe = "import django; django.setup(); from netshop.audit.keys import keyring; " + (
        "print(keyring().current.id)"
    )

    first, second = run(["-c", probe], env), run(["-c", probe], env)

    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert first.stdout.strip() == second.stdout.strip() == "dev"
