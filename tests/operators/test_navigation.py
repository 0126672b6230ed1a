"""The staff menu: the pages each role may open, the same on the console and the audit pages."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from netshop.roles import Role
from tests.operators.api_helpers import signed_in, staff_user

pytestmark = pytest.mark.django_db

CONSOLE_LINKS = [("nav-queue", "/console/"), ("nav-conversations", "/console/conversations/")]
MANAGER_LINKS = [
    *CONSOLE_LINKS,
    ("nav-audit", "/audit/"),
    ("nav-dashboard", "/audit/dashboard/"),
    ("nav-autonomy", "/audit/autonomy/"),
    ("nav-policy", "/audit/policy/"),
    ("nav-simulations", "/audit/simulations/"),
    ("nav-articles", "/knowledge/"),
    ("nav-gaps", "/knowledge/gaps/"),
    ("nav-canned", "/knowledge/canned-replies/"),
]


def menu(client: Client, url: str) -> list[tuple[str, str]]:
    """The menu's links on ``url``: (id, address), in order."""
    page = client.get(url).content.decode()
    nav = re.search(r'<nav class="topnav"[^>]*>(.*?)</nav>', page, flags=re.S)
    assert nav is not None
    return re.findall(r'<a href="([^"]+)" id="([^"]+)"', nav.group(1))


def links(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(url, key) for key, url in pairs]


@pytest.mark.parametrize(
    "url",
    [
        "/console/",
        "/console/conversations/",
        "/audit/",
        "/audit/dashboard/",
        "/audit/simulations/",
        "/knowledge/",
    ],
)
def test_a_manager_has_the_console_and_the_manager_pages_in_one_menu(url: str) -> None:
    manager = signed_in(staff_user("kanrisha", Role.MANAGER))

    assert menu(manager, url) == links(MANAGER_LINKS)


@pytest.mark.parametrize("url", ["/console/", "/console/conversations/"])
def test_an_operator_is_offered_no_page_they_cannot_open(url: str) -> None:
    operator = signed_in(staff_user("tantousha", Role.OPERATOR))

    assert menu(operator, url) == links(CONSOLE_LINKS)
    assert operator.get("/audit/").status_code == 403  # why the links are left out


@pytest.mark.parametrize(
    ("url", "current"),
    [
        ("/audit/dashboard/", "nav-dashboard"),
        ("/knowledge/", "nav-articles"),
        ("/knowledge/canned-replies/", "nav-canned"),
    ],
)
def test_the_menu_marks_the_page_being_read(url: str, current: str) -> None:
    manager = signed_in(staff_user("kanrisha", Role.MANAGER))

    page = manager.get(url).content.decode()

    assert re.findall(r'id="(nav-\w+)" aria-current="page"', page) == [current]
