"""A console whose refresh fails says so and tries again (issue 11, in a browser).

Given an operator's live console in Chromium against daphne, when the server answers the
console's fragment reads with 500 for a while, then the page shows "Could not refresh,
retrying…" instead of silently keeping stale rows, asks again with back-off, and once the
server answers again the notice goes and the page shows what changed meanwhile, without a
reload. A row action the server cannot answer is reported too, not swallowed.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, Route, expect

from agents.models import Escalation
from agents.support.conversations.intake import inquiry_create
from netshop.models import Customer
from tests.browser.conftest import OpenSession
from tests.operators.api_helpers import escalation_for
from tests.support.browser import TIMEOUT_MS, Session, wait_for_js

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NOTICE = "#refresh-failed-banner"
NOTICE_TEXT = "Could not refresh, retrying…"
ROWS = re.compile(r"/console/rows(\?|$)")
RETRIED_TIMEOUT_MS = 30_000  # a few back-off steps on a loaded machine


def escalation_of(customer: str, text: str) -> Escalation:
    inquiry = inquiry_create(customer=Customer.objects.get(code=customer), text=text, start=False)
    return escalation_for(inquiry)


def wait_live(page: Page) -> None:
    """Connected, and the re-read that follows the open is done (so none is on its way)."""
    wait_for_js(page, "window.netshopConsole && window.netshopConsole.connected === true")
    wait_for_js(page, "window.netshopConsole.refreshes >= 1")


class FailingServer:
    """Answers the routed URL with 500 and counts how often the page asked."""

    def __init__(self) -> None:
        self.refused: list[str] = []

    def __call__(self, route: Route) -> None:
        self.refused.append(route.request.url)
        route.fulfill(status=500, content_type="text/html", body="<h1>Server Error</h1>")

    def wait_for(self, page: Page, count: int) -> None:
        """Until the page has asked ``count`` times (route handlers run while Playwright waits)."""
        deadline = time.monotonic() + RETRIED_TIMEOUT_MS / 1000
        while len(self.refused) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"asked {len(self.refused)} times, not {count}")
            page.wait_for_timeout(50)


def assert_clean(session: Session) -> None:
    assert session.csp_violations() == []
    assert session.errors == []
    assert session.dialogs == []


def test_a_failing_queue_refresh_is_shown_retried_and_cleared(
    open_session: OpenSession, shop: None
) -> None:
    operator = open_session("operator")
    queue = operator.page
    wait_live(queue)
    operator.set_marker()
    expect(queue.locator(NOTICE)).to_be_hidden()
    failing = FailingServer()
    queue.route(ROWS, failing)

    arrived = escalation_of("C0001", "ORD-1003が壊れていました。返金してください。")

    expect(queue.locator(NOTICE)).to_be_visible()
    expect(queue.locator(NOTICE)).to_have_text(NOTICE_TEXT)
    failing.wait_for(queue, 3)  # the row read, then the full re-reads retried after it
    expect(queue.locator(NOTICE)).to_be_visible()  # still failing: still said
    expect(queue.locator(f"tr#row-{arrived.pk}")).to_have_count(0)

    queue.unroute(ROWS)

    expect(queue.locator(NOTICE)).to_be_hidden(timeout=RETRIED_TIMEOUT_MS)
    expect(queue.locator(f"tr#row-{arrived.pk}")).to_be_visible()  # the retry brought it
    assert operator.kept_marker()  # no reload did it
    assert queue.evaluate("window.netshopConsole.connected") is True
    assert_clean(operator)


def test_a_failing_detail_refresh_is_shown_retried_and_cleared(
    open_session: OpenSession, shop: None
) -> None:
    escalation = escalation_of("C0001", "ORD-1003が壊れていました。返金してください。")
    live = re.compile(rf"/console/escalations/{escalation.pk}/live$")
    operator = open_session("operator")
    page = operator.page
    page.goto(f"/console/escalations/{escalation.pk}/")
    wait_live(page)
    operator.set_marker()
    failing = FailingServer()
    page.route(live, failing)

    page.evaluate("window.netshopConsole.dropSocket()")  # the reconnect re-reads the panel

    expect(page.locator(NOTICE)).to_have_text(NOTICE_TEXT)
    expect(page.locator(NOTICE)).to_be_visible()
    failing.wait_for(page, 2)
    expect(page.locator("#status-card")).to_be_visible()  # the last good panel stays

    page.unroute(live)

    expect(page.locator(NOTICE)).to_be_hidden(timeout=RETRIED_TIMEOUT_MS)
    expect(page.locator("#reconnecting-banner")).to_be_hidden()
    assert operator.kept_marker()
    assert page.evaluate("window.netshopConsole.resyncs") == 2  # the first open, then one
    assert_clean(operator)


def test_a_row_action_the_server_cannot_answer_is_reported(
    open_session: OpenSession, shop: None
) -> None:
    escalation = escalation_of("C0001", "ORD-1003が壊れていました。返金してください。")
    claim = re.compile(rf"/console/escalations/{escalation.pk}/claim$")
    operator = open_session("operator")
    queue = operator.page
    wait_live(queue)
    failing = FailingServer()
    queue.route(claim, failing)

    queue.locator(f"tr#row-{escalation.pk} .claim-button").click()

    expect(queue.locator("#messages .message.error")).to_have_text(
        "Could not send that. Please try again.", timeout=TIMEOUT_MS
    )
    assert len(failing.refused) == 1
    expect(queue.locator(f"tr#row-{escalation.pk} .claim-button")).to_be_enabled()  # re-read
    escalation.refresh_from_db()
    assert escalation.claimed_by_id is None  # the refused claim changed nothing
    assert_clean(operator)
