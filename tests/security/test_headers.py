"""What every page's answer carries: the content security policy, no caching, and markup the
policy lets run; and password reset only where mail can go out.

Given the shared shop, when each kind of caller GETs every URL pattern the root URLconf
declares (so a new page cannot be forgotten), then every answer has exactly our policy and
``Cache-Control: no-store``, and no HTML page holds an inline script, style or event handler
(the policy would block it: the browser suite checks the same pages in Chromium).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from tests.security.conftest import RoutePaths, Shop, url_routes

pytestmark = pytest.mark.usefixtures("quiet_refusals")

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "font-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
PAGE_CALLERS = ("anonymous", "customer", "operator", "manager")
# Markup a policy without 'unsafe-inline' refuses. A <script> without src is inline unless it
# is a data block (json_script, Swagger UI's settings), which browsers never execute.
INLINE = {
    "inline script": re.compile(
        r"<script(?![^>]*\ssrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I
    ),
    "style element": re.compile(r"<style[\s>]", re.I),
    "style attribute": re.compile(r"<[a-z][^>]*\sstyle=", re.I),
    "event handler": re.compile(r"<[a-z][^>]*\son[a-z]+=", re.I),
    "javascript: URL": re.compile(r"=\s*\"javascript:", re.I),
}
RESET_PAGES = (
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/MQ/set-password/",
    "/accounts/reset/done/",
)


def policy_of(response: Any) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


def inline_markup(html: str) -> list[str]:
    return [f"{kind}: {hit[:80]}" for kind, rule in INLINE.items() for hit in rule.findall(html)]


def get_routes() -> list[str]:
    """Every pattern but the POST-only ones (they answer GET with 405, which is checked too)."""
    return sorted(url_routes())


@pytest.mark.parametrize("caller", PAGE_CALLERS)
def test_every_page_carries_the_policy_and_no_store_and_no_inline_markup(
    shop: Shop, caller: str
) -> None:
    paths = RoutePaths(shop)
    client = shop.client(caller)
    wrong: dict[str, Any] = {}

    for route in get_routes():
        response = client.get(paths(route))
        problems: list[str] = []
        if policy_of(response) != POLICY:
            problems.append(f"policy {response['Content-Security-Policy']}")
        if "no-store" not in response.get("Cache-Control", ""):
            problems.append(f"Cache-Control {response.get('Cache-Control')}")
        if response.get("Content-Type", "").startswith("text/html") and not response.streaming:
            problems += inline_markup(response.content.decode())
        if problems:
            wrong[route] = problems

    assert wrong == {}


def test_the_lockout_page_carries_them_too(shop: Shop) -> None:
    client = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(5):
        response = client.post("/accounts/login/", {"username": "operator", "password": "x"})

    assert response.status_code == 429
    assert policy_of(response) == POLICY
    assert "no-store" in response["Cache-Control"]
    assert inline_markup(response.content.decode()) == []


def test_the_markup_check_sees_what_the_policy_would_block() -> None:
    html = (
        '<script>alert(1)</script><style>p{}</style><p style="color:red">'
        '<a href="javascript:void(0)" onclick="x()">'
        '<script type="application/json" id="d">{}</script><script src="/static/a.js"></script>'
    )

    assert [found.split(":")[0] for found in inline_markup(html)] == [
        "inline script",
        "style element",
        "style attribute",
        "event handler",
        "javascript",
    ]


def test_static_files_keep_their_own_caching(shop: Shop) -> None:
    response = Client().get("/static/css/app.css")

    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def test_a_view_that_sets_its_own_cache_control_keeps_it(shop: Shop) -> None:
    response = shop.client("manager").get("/audit/export.csv")

    assert response["Cache-Control"] == "no-store"


# --- Password reset ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", RESET_PAGES)
def test_password_reset_is_not_found_without_a_mail_server(
    shop: Shop, settings: Any, path: str
) -> None:
    settings.EMAIL_HOST = ""

    response = Client().get(path)

    assert response.status_code == 404


def test_a_reset_request_without_a_mail_server_sends_nothing(shop: Shop, settings: Any) -> None:
    settings.EMAIL_HOST = ""
    email = shop.user("customer").email

    response = Client().post("/accounts/password_reset/", {"email": email})

    assert response.status_code == 404
    assert mail.outbox == []


def test_with_a_mail_server_a_reset_link_is_mailed(shop: Shop, settings: Any) -> None:
    settings.EMAIL_HOST = "smtp.example.com"  # the test runner swaps in the in-memory backend
    email = shop.user("customer").email

    page = Client().get("/accounts/password_reset/")
    response = Client().post("/accounts/password_reset/", {"email": email})

    assert page.status_code == 200
    assert (response.status_code, response["Location"]) == (302, "/accounts/password_reset/done/")
    assert [message.to for message in mail.outbox] == [[email]]
