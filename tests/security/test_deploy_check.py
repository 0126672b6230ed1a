"""HTTPS settings come from the environment, and the documented production one passes Django's
deployment check.

Given ``docs/production.env`` (the environment the README documents), when ``manage.py check
--deploy --fail-level WARNING`` runs in a fresh process with it, then it passes; without one of
its HTTPS settings it fails naming that setting. In process, the settings it names behave as a
proxy in front of the app needs: plain HTTP is redirected (the health probe excepted), a
request the proxy marks as HTTPS is served with HSTS.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = ROOT / "docs" / "production.env"
pytestmark = pytest.mark.slow

SETTINGS_PROBE = """
import json
from django.conf import settings
print(json.dumps({
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "hsts": [settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS,
             settings.SECURE_HSTS_PRELOAD],
    "proxy_header": settings.SECURE_PROXY_SSL_HEADER,
    "secure_cookies": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
    "login": [settings.AXES_FAILURE_LIMIT,
              settings.AXES_COOLOFF_TIME and settings.AXES_COOLOFF_TIME.total_seconds()],
    "proxies": settings.NETSHOP_TRUSTED_PROXY_COUNT,
}))
"""


def documented_env() -> dict[str, str]:
    """The documented variables, with this run's own secret, database and Redis."""
    env: dict[str, str] = {}
    for line in PRODUCTION_ENV.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    env |= {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "NETSHOP_AUDIT_KEY": "k1:" + secrets.token_urlsafe(32),
        "DATABASE_URL": os.environ["DATABASE_URL"],
        "MIGRATION_DATABASE_URL": os.environ["DATABASE_URL"],
        "REDIS_URL": os.environ["REDIS_URL"],
    }
    return env


def run(args: list[str], variables: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    env |= {"DJANGO_SETTINGS_MODULE": "netshop.settings", **variables}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def deploy_check(variables: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], variables)


def probe(variables: dict[str, str]) -> dict[str, Any]:
    import json

    result = run(["-c", f"import django; django.setup()\n{SETTINGS_PROBE}"], variables)
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def test_the_documented_production_environment_passes_the_deployment_check() -> None:
    result = deploy_check(documented_env())

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize(
    ("left_out", "warning"),
    [
        ("SECURE_HSTS_SECONDS", "security.W004"),
        ("SECURE_SSL_REDIRECT", "security.W008"),
        ("SECURE_COOKIES", "security.W012"),
    ],
)
def test_without_one_https_setting_the_check_fails_and_names_it(
    left_out: str, warning: str
) -> None:
    env = documented_env()
    del env[left_out]

    result = deploy_check(env)

    assert result.returncode == 1
    assert warning in result.stderr


def test_the_https_settings_are_read_from_the_environment() -> None:
    assert probe(documented_env()) == {
        "ssl_redirect": True,
        "hsts": [31536000, True, True],
        "proxy_header": ["HTTP_X_FORWARDED_PROTO", "https"],
        "secure_cookies": [True, True],
        "login": [5, 1800.0],
        "proxies": 1,
    }


def test_without_them_a_plain_http_run_keeps_working() -> None:
    env = {"DEBUG": "1", "DATABASE_URL": os.environ["DATABASE_URL"], "REDIS_URL": "redis://x/0"}
    env |= {"NETSHOP_LOGIN_FAILURE_LIMIT": "3", "NETSHOP_LOGIN_COOLOFF_MINUTES": "0"}
    env |= {"NETSHOP_AUDIT_KEY": os.environ["NETSHOP_AUDIT_KEY"]}

    assert probe(env) == {
        "ssl_redirect": False,
        "hsts": [0, False, False],
        "proxy_header": None,
        "secure_cookies": [False, False],
        "login": [3, None],
        "proxies": 0,
    }


# --- Behind the proxy, in process --------------------------------------------------------------


@pytest.fixture
def behind_https_proxy(settings: Any) -> None:
    """The production HTTPS settings; a Client made afterwards builds its middleware with them."""
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


@pytest.mark.django_db
@pytest.mark.usefixtures("behind_https_proxy")
def test_plain_http_is_redirected_to_https() -> None:
    response = Client().get("/accounts/login/")

    assert (response.status_code, response["Location"]) == (
        301,
        "https://testserver/accounts/login/",
    )


@pytest.mark.django_db
@pytest.mark.usefixtures("behind_https_proxy")
def test_the_health_probe_answers_over_plain_http() -> None:
    response = Client().get("/healthz")

    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("behind_https_proxy")
def test_a_request_the_proxy_marks_as_https_is_served_with_hsts() -> None:
    response = Client(headers={"X-Forwarded-Proto": "https"}).get("/accounts/login/")

    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
