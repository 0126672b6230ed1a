"""A console whose login ends says so and stops listening (issue 10, finding 3, in a browser).

Given an operator's live console in Chromium against daphne, when they log out in another tab
or lose the operator role, then the open page shows that the session has ended instead of
"reconnecting", without reloading, and its socket stays closed.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from playwright.sync_api import Page, expect

from netshop.roles import Role
from tests.browser.conftest import OpenSession
from tests.support.browser import wait_for_js

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def wait_live(page: Page) -> None:
    """Connected, and the re-read after the open is done: a read still on its way when the
    login ends would be refused (403) and show the banner before the socket hears of it."""
    wait_for_js(page, "window.netshopConsole && window.netshopConsole.connected === true")
    wait_for_js(page, "window.netshopConsole.refreshes >= 1")


def assert_signed_out(page: Page) -> None:
    expect(page.locator("#signed-out-banner")).to_be_visible()
    expect(page.locator("#reconnecting-banner")).to_be_hidden()
    assert page.evaluate("window.netshopConsole.connected") is False
    assert page.evaluate("window.netshopConsole.resyncs") == 1  # it never opened again


def test_logging_out_in_another_tab_ends_the_open_console(
    open_session: OpenSession, shop: None
) -> None:
    operator = open_session("operator")
    wait_live(operator.page)
    operator.set_marker()

    other_tab = operator.context.new_page()
    other_tab.goto("/console/")
    other_tab.get_by_role("button", name="Log out").click()
    expect(other_tab).to_have_url(re.compile(r"/accounts/login/"))

    assert_signed_out(operator.page)
    assert operator.kept_marker()


def test_losing_the_role_ends_the_open_console(open_session: OpenSession, shop: None) -> None:
    operator = open_session("operator")
    wait_live(operator.page)
    operator.set_marker()

    User.objects.get(username="operator").groups.remove(Group.objects.get(name=Role.OPERATOR))

    assert_signed_out(operator.page)
    assert operator.kept_marker()
