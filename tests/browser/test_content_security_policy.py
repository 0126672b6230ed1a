"""Every page works under the content security policy, in Chromium.

Given the demo shop, an escalation and the daphne server sending our policy (no inline script
or style, sockets and fetches to this origin only), when each role opens each of its pages,
then the browser reports no violation on any of them and the pages still do their work: the
console's socket connects and a new escalation arrives live, the dashboard draws its charts,
Swagger UI renders the API from local files, the admin's scripts run. A control shows the
listener does see what the policy blocks.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from agents.models import Escalation, Inquiry
from agents.support.conversations.intake import inquiry_create
from netshop.models import Customer, Order
from tests.browser.conftest import PASSWORD, OpenSession
from tests.operators.api_helpers import escalation_for
from tests.support.browser import Session, new_session, wait_for_js
from tests.support.servers import LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LIVE_TIMEOUT_MS = 30_000
STATUS = re.compile(r"/help/inquiries/[0-9a-f-]+/status$")


REFUND_TEXT = "ORD-1003が壊れていました。返金してください。"


def inquiry_of(customer: str, text: str = REFUND_TEXT) -> Inquiry:
    return inquiry_create(customer=Customer.objects.get(code=customer), text=text, start=False)


def visit(session: Session, path: str) -> Page:
    page = session.page
    response = page.goto(path)
    assert response is not None
    assert response.status == 200, path
    page.wait_for_load_state("load")
    return page


def assert_no_violations(session: Session, path: str) -> None:
    assert session.csp_violations() == [], path
    assert session.errors == [], path
    assert session.dialogs == [], path


def wait_live(page: Page) -> None:
    wait_for_js(page, "window.netshopConsole && window.netshopConsole.connected === true")


@pytest.fixture
def escalation(shop: None) -> Escalation:
    return escalation_for(inquiry_of("C0001"))


def test_the_operators_pages_run_clean_and_the_queue_stays_live(
    open_session: OpenSession, escalation: Escalation
) -> None:
    operator = open_session("operator")

    queue = visit(operator, "/console/")
    wait_live(queue)
    expect(queue.locator(f"tr#row-{escalation.pk}")).to_be_visible()
    operator.set_marker()
    arrived = escalation_for(inquiry_of("C0002", "ORD-2001 refund please"))
    expect(queue.locator(f"tr#row-{arrived.pk}")).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    assert operator.kept_marker()  # over the socket, not by a reload
    assert_no_violations(operator, "/console/")

    detail = f"/console/escalations/{escalation.pk}/"
    page = visit(operator, detail)
    wait_live(page)
    expect(page.locator("#detail-page")).to_be_visible()
    expect(page.locator("#viewers li")).to_have_text(["operator (you)"])
    assert_no_violations(operator, detail)


def test_the_managers_audit_pages_run_clean_and_draw_their_charts(
    open_session: OpenSession, escalation: Escalation
) -> None:
    manager = open_session("manager")
    pages = [
        "/audit/",
        f"/audit/inquiries/{escalation.inquiry_id}/",
        "/audit/dashboard/",
    ]

    for path in pages:
        page = visit(manager, path)
        assert_no_violations(manager, path)

    assert page.locator("svg rect.bar").count() > 0  # the dashboard's charts are drawn
    expect(page.locator("svg rect.bar").first).to_be_visible()


@pytest.mark.usefixtures("shop")
def test_the_customers_help_page_runs_clean_and_opens_its_socket(
    open_session: OpenSession,
) -> None:
    pending = inquiry_of("C0001")
    customer = open_session("c0001")
    page = customer.page

    with page.expect_websocket() as opened, page.expect_response(STATUS) as refreshed:
        visit(customer, "/help/")

    assert opened.value.url.endswith(f"/ws/help/{pending.pk}/")
    assert refreshed.value.status == 200  # asked once the socket opened (help.js)
    expect(page.locator(f"#inquiry-{pending.pk}")).to_be_visible()
    assert_no_violations(customer, "/help/")


def test_the_login_page_and_the_api_docs_run_clean_for_anyone(
    browser: Browser, daphne_server: LiveServer
) -> None:
    session = new_session(browser, daphne_server.url)
    try:
        visit(session, "/accounts/login/")
        expect(session.page.locator("#login-form")).to_be_visible()
        assert_no_violations(session, "/accounts/login/")

        docs = visit(session, "/api/v1/docs")
        expect(docs.locator(".swagger-ui .info .title")).to_contain_text("NetShop support API")
        expect(docs.locator(".swagger-ui .opblock").first).to_be_visible()
        assert_no_violations(session, "/api/v1/docs")
    finally:
        session.context.close()


def test_the_admin_runs_clean_for_a_manager_and_a_superuser(
    open_session: OpenSession, escalation: Escalation
) -> None:
    User.objects.create_superuser("root", "root@example.com", PASSWORD)
    order = Order.objects.get(number="ORD-1003")
    manager, root = open_session("manager"), open_session("root")
    pages = [
        (manager, ["/admin/", "/admin/netshop/order/", f"/admin/netshop/order/{order.pk}/change/"]),
        (root, ["/admin/", "/admin/auth/user/add/", "/admin/auth/user/", "/admin/axes/"]),
    ]

    for session, paths in pages:
        for path in paths:
            page = visit(session, path)
            expect(page.locator("#content")).to_be_visible()
            assert_no_violations(session, path)
    # The admin's own scripts ran: the theme toggle is wired (admin/js/theme.js).
    expect(page.locator("html")).to_have_attribute("data-theme", re.compile(r"auto|light|dark"))


@pytest.mark.usefixtures("shop")
def test_the_listener_does_see_what_the_policy_blocks(
    open_session: OpenSession,
) -> None:
    """The control: an inline script and a style attribute put in by hand are refused."""
    session = open_session("c0001")
    page = visit(session, "/help/")

    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.__ranInline = true";
          document.body.appendChild(script);
          document.body.insertAdjacentHTML("beforeend", '<p style="color: red">x</p>');
        }"""
    )

    wait_for_js(page, "window.__cspViolations.length >= 2")
    directives = sorted(v.split(" ")[0] for v in session.csp_violations())
    assert directives == ["script-src-elem", "style-src-attr"]
    assert page.evaluate("window.__ranInline === undefined")
