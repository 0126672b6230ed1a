"""The console as people use it: headless Chromium against daphne with a real Celery worker.

Given the demo shop committed to the test database, a daphne server and a worker on the test
Redis, when customers write and operators decide in their own browser contexts, then every
page changes live (no reload), decisions happen once, and customer text stays text.
"""

from __future__ import annotations

import re
from pathlib import Path
from uuid import UUID

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import APIResponse, Page, expect

from agents.models import Escalation, Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.services import escalation_decide
from netshop.models import Customer, Refund
from netshop.roles import Role, role_assign
from tests.browser.conftest import PASSWORD, OpenSession
from tests.support.browser import Session, wait_for_js
from tests.support.servers import running_server
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REFUND_TEXT = "ORD-1003が壊れていました。返金してください。"
TOWEL_TEXT = "ORD-2001のタオルが破れていました。返金してください。"
CHIPPED_TEXT = "ORD-1003の包丁が欠けていました。返金を希望します。"
LATER_TEXT = "ORD-1003の包丁の刃こぼれがひどいです。返金してください。"
APPROVE_LABEL = "Approve refund of ¥12,800 to ORD-1003"
RUN_TIMEOUT_MS = 60_000  # an inquiry's run in the worker, then the event over the socket


def submit(text: str, customer: str = "C0001") -> Inquiry:
    return inquiry_create(customer=Customer.objects.get(code=customer), text=text)


def escalation_of(inquiry_id: UUID | str, timeout: float = 60) -> Escalation:
    found = Escalation.objects.filter(inquiry_id=inquiry_id)
    wait_until(found.exists, timeout=timeout)
    return found.get()


def refunds_on_ord_1003() -> int:
    return Refund.objects.filter(payment__order__number="ORD-1003").count()


def wait_live(page: Page) -> None:
    """The console's socket is open (and its first resync has been asked for)."""
    wait_for_js(page, "window.netshopConsole && window.netshopConsole.connected === true")


def assert_clean(*sessions: Session) -> None:
    for session in sessions:
        assert session.dialogs == []
        assert session.errors == []


def test_a_refund_arrives_live_is_approved_with_one_click_and_the_customer_sees_the_reply(
    open_session: OpenSession, worker: Worker, shots: Path, staying_after_a_decision: None
) -> None:
    operator = open_session("operator")
    queue = operator.page
    expect(queue).to_have_url(re.compile(r"/console/$"))
    expect(queue.locator("#queue-empty")).to_be_visible()
    wait_live(queue)
    operator.set_marker()

    customer = open_session("c0001")
    help_page = customer.page
    expect(help_page).to_have_url(re.compile(r"/help/$"))
    help_page.fill("#inquiry-text", REFUND_TEXT)
    help_page.click("#inquiry-submit")
    card = help_page.locator("article.inquiry.just-sent")
    expect(card).to_be_visible()
    inquiry_id = str(card.get_attribute("data-inquiry-id"))
    customer.set_marker()

    escalation = escalation_of(inquiry_id)
    row = queue.locator(f"tr#row-{escalation.pk}.queue-row")
    expect(row).to_be_visible(timeout=RUN_TIMEOUT_MS)
    expect(row).to_have_attribute("data-kind", "approval")
    expect(row.locator(".amount")).to_have_text("¥12,800")
    expect(queue.locator("#queue-empty")).to_be_hidden()
    assert operator.kept_marker()  # it arrived over the socket, not by a reload
    operator.shot(shots, "1-queue-with-new-escalation")

    row.locator("a.open-link").click()
    expect(queue.locator("#detail-page")).to_have_attribute(
        "data-escalation-id", str(escalation.pk)
    )
    expect(queue.locator("#customer-message")).to_have_text(REFUND_TEXT)
    approve = queue.locator("#approve-button")
    expect(approve).to_have_text(APPROVE_LABEL)
    expect(approve).to_be_enabled()
    wait_live(queue)
    operator.shot(shots, "2-detail-before-approval")
    assert refunds_on_ord_1003() == 0

    approve.click()
    expect(queue.locator("#status-card")).to_have_attribute("data-decided-by", "operator")
    expect(queue.locator("#decision-controls")).to_have_js_property("disabled", True)
    expect(queue.locator("#inquiry-status")).to_have_attribute(
        "data-status", "resolved", timeout=RUN_TIMEOUT_MS
    )
    expect(queue.locator("#final-reply")).to_contain_text("12,800")
    operator.shot(shots, "3-detail-resolved")

    answered = help_page.locator(f"#inquiry-{inquiry_id}")
    expect(answered).to_have_attribute("data-status", "resolved", timeout=RUN_TIMEOUT_MS)
    expect(answered.locator(".thread .message.author-ai").last).to_contain_text("12,800")
    assert customer.kept_marker()  # the reply came live to the customer's open page
    customer.shot(shots, "4-help-page-with-reply")

    assert Inquiry.objects.get(pk=inquiry_id).status == "resolved"
    assert refunds_on_ord_1003() == 1
    assert_clean(operator, customer)


def test_two_operators_one_claims_the_other_sees_it_at_once_and_cannot_decide(
    open_session: OpenSession, worker: Worker, shots: Path, staying_after_a_decision: None
) -> None:
    second = User.objects.create_user("operator2", password=PASSWORD)
    role_assign(user=second, role=Role.OPERATOR)
    escalation = escalation_of(submit(REFUND_TEXT).pk)
    detail = f"/console/escalations/{escalation.pk}/"
    a, b = open_session("operator"), open_session("operator2")
    for session in (a, b):
        session.page.goto(detail)
        wait_live(session.page)
    expect(b.page.locator("#viewers li")).to_have_text(["operator", "operator2 (you)"])
    expect(b.page.locator("#approve-button")).to_be_enabled()
    b.set_marker()

    a.page.click("#claim-button")
    expect(a.page.locator("#status-card")).to_have_attribute("data-state", "claimed_by_me")
    card = b.page.locator("#status-card")
    expect(card).to_have_attribute("data-claimed-by", "operator")
    expect(card).to_have_attribute("data-state", "claimed_by_other")
    expect(b.page.locator("#state-banner")).to_contain_text("Claimed by operator")
    # Playwright's to_be_disabled ignores a fieldset's own state; its buttons inherit it.
    expect(b.page.locator("#decision-controls")).to_have_js_property("disabled", True)
    expect(b.page.locator("#approve-button")).to_be_disabled()
    assert b.kept_marker()
    b.shot(shots, "1-claimed-by-the-other-operator")

    forced = _force_approve(b, escalation.pk)
    assert forced.status == 409
    assert "Claimed by operator: only they can decide or release it." in forced.text()
    escalation.refresh_from_db()
    assert (escalation.status, escalation.decided_by) == ("open", None)
    assert refunds_on_ord_1003() == 0

    a.page.click("#approve-button")
    expect(card).to_have_attribute("data-decided-by", "operator")
    expect(card).to_have_attribute("data-state", "decided")
    expect(b.page.locator("#state-banner")).to_contain_text("by operator")
    assert b.kept_marker()
    b.shot(shots, "2-decided-by-the-other-operator")

    late = _force_approve(b, escalation.pk)
    assert late.status == 409
    assert "Already approved by operator at" in late.text()
    expect(a.page.locator("#inquiry-status")).to_have_attribute(
        "data-status", "resolved", timeout=RUN_TIMEOUT_MS
    )
    assert refunds_on_ord_1003() == 1
    assert_clean(a, b)


def _force_approve(session: Session, escalation_id: object) -> APIResponse:
    """What a page with its controls re-enabled by hand would send."""
    return session.page.request.post(
        f"/console/escalations/{escalation_id}/decide",
        form={"csrfmiddlewaretoken": session.csrf_token(), "decision": "approve"},
    )


HOSTILE_TEXT = (
    "<script>window.__pwned=1;alert('script')</script>"
    "<img src=x onerror=\"window.__pwned=2;alert('img')\">注文ORD-1003を返金して"
)


def test_a_customer_message_with_html_and_script_is_shown_as_text_and_runs_nothing(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    operator = open_session("operator")
    queue = operator.page
    wait_live(queue)

    escalation = escalation_of(submit(HOSTILE_TEXT).pk)
    row = queue.locator(f"#row-{escalation.pk}")
    expect(row).to_be_visible(timeout=RUN_TIMEOUT_MS)  # inserted live by the page's script
    expect(row.locator(".snippet")).to_contain_text("<script>window.__pwned=1;")
    _assert_inert(queue)
    queue.reload()  # and rendered by the server
    wait_live(queue)
    expect(row.locator(".snippet")).to_contain_text("<script>window.__pwned=1;")
    _assert_inert(queue)
    operator.shot(shots, "1-queue-with-hostile-text")

    row.locator("a.open-link").click()
    expect(queue.locator("#customer-message")).to_have_text(HOSTILE_TEXT)
    wait_live(queue)
    _assert_inert(queue)
    operator.shot(shots, "2-detail-with-hostile-text")

    customer = open_session("c0001")
    opening = customer.page.locator(
        f"#inquiry-{escalation.inquiry_id} .author-customer .message-text"
    ).first
    expect(opening).to_have_text(HOSTILE_TEXT)
    _assert_inert(customer.page)
    assert_clean(operator, customer)


def _assert_inert(page: Page) -> None:
    """Every place that shows customer text (``.customer-text``) holds text only."""
    expect(page.locator(".customer-text").first).to_be_visible()
    expect(page.locator(".customer-text").locator("script, img, [onerror]")).to_have_count(0)
    assert page.evaluate("typeof window.__pwned") == "undefined"


def test_after_the_server_drops_the_socket_the_queue_shows_what_changed_meanwhile(
    open_session: OpenSession, worker: Worker, artifacts: Path, shots: Path
) -> None:
    stale = escalation_of(submit(TOWEL_TEXT, customer="C0002").pk)
    with running_server(artifacts / "daphne-restarted.log") as server:
        operator = open_session("operator", server=server)
        queue = operator.page
        expect(queue.locator("tr.queue-row")).to_have_count(1)
        wait_live(queue)
        operator.set_marker()

        server.stop()
        expect(queue.locator("#reconnecting-banner")).to_be_visible()
        expect(queue.locator("#live-indicator")).to_have_text("offline")
        escalation_decide(
            escalation_id=stale.pk,
            user=User.objects.get(username="manager"),
            decision="reject",
            reason="Decided while the console was offline.",
            confirm_language=True,
        )
        arrived = [escalation_of(submit(text).pk) for text in (REFUND_TEXT, CHIPPED_TEXT)]
        operator.shot(shots, "1-reconnecting")
        expect(queue.locator(f"#row-{stale.pk}")).to_be_visible()  # nothing heard while down

        server.start()  # on the same port: the page's own retries find it
        expect(queue.locator("#reconnecting-banner")).to_be_hidden(timeout=30_000)
        expect(queue.locator("#live-indicator")).to_have_text("live")
        expect(queue.locator("tr.queue-row")).to_have_count(2)
        for escalation in arrived:
            expect(queue.locator(f"tr#row-{escalation.pk}.queue-row")).to_be_visible()
        expect(queue.locator(f"#row-{stale.pk}")).to_have_count(0)
        assert operator.kept_marker()
        assert queue.evaluate("window.netshopConsole.resyncs") == 2  # the first open, then one
        operator.shot(shots, "2-resynchronised")

        later = escalation_of(submit(LATER_TEXT).pk)  # the new socket carries events again
        expect(queue.locator(f"tr#row-{later.pk}")).to_be_visible(timeout=RUN_TIMEOUT_MS)
        assert operator.kept_marker()
        assert_clean(operator)


def test_the_live_timeline_shows_the_newest_step_as_it_arrives(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    escalation = escalation_of(submit(REFUND_TEXT).pk)
    operator = open_session("operator")
    page = operator.page
    page.goto(f"/console/escalations/{escalation.pk}/")
    wait_live(page)

    escalation_decide(
        escalation_id=escalation.pk, user=User.objects.get(username="operator"), decision="approve"
    )
    expect(page.locator("#inquiry-status")).to_have_attribute(
        "data-status", "resolved", timeout=RUN_TIMEOUT_MS
    )
    newest = page.locator("#timeline li").last
    expect(newest).to_contain_text("resolved")
    page.locator("#timeline").evaluate("box => box.scrollIntoView({block: 'end'})")
    operator.shot(shots, "1-timeline-after-the-run")
    wait_for_js(page, NEWEST_STEP_SHOWN, timeout_ms=5_000)


NEWEST_STEP_SHOWN = """() => {
  const box = document.getElementById("timeline");
  const newest = box.lastElementChild.getBoundingClientRect();
  const shown = box.getBoundingClientRect();
  return newest.top >= shown.top - 1 && newest.bottom <= shown.bottom + 1;
}"""
