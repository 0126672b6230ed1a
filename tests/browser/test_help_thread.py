"""The customer's help page as a customer uses it: a thread, a reply, the AI's answer live.

Given the demo shop, daphne and a real Celery worker, when a customer whose question the AI
already answered opens ``/help/``, replies in that conversation and waits, then the thread
shows both turns, the AI's second answer arrives without a reload, and nothing the page
shows breaks the content security policy.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from agents.models import Inquiry, InquiryStatus, MessageAuthor
from agents.support.conversations.intake import inquiry_create
from netshop.models import Customer
from tests.browser.conftest import OpenSession
from tests.support.browser import wait_for_js
from tests.support.workers import Worker, wait_until, worker_consuming

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FIRST = "送料はいくらですか？"
SECOND = "返品はできますか？"
RUN_TIMEOUT_MS = 60_000


def answered(inquiry: Inquiry, count: int) -> bool:
    """The AI has written ``count`` messages and the run is over."""
    inquiry.refresh_from_db()
    ai = inquiry.messages.filter(author_kind=MessageAuthor.AI).count()
    return ai >= count and inquiry.status not in (InquiryStatus.QUEUED, InquiryStatus.RUNNING)


def test_a_customer_replies_in_their_thread_and_sees_the_answer_arrive_live(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    inquiry = inquiry_create(customer=Customer.objects.get(code="C0001"), text=FIRST)
    wait_until(lambda: answered(inquiry, 1), timeout=RUN_TIMEOUT_MS / 1000)
    customer = open_session("c0001")
    page = customer.page
    page.goto("/help/")
    card = page.locator(f"#inquiry-{inquiry.pk}")
    thread = card.locator(".thread .message")
    expect(thread).to_have_count(2)
    expect(thread.nth(0)).to_have_class("message author-customer")
    expect(thread.nth(0).locator(".message-text")).to_have_text(FIRST)
    expect(thread.nth(1)).to_have_class("message author-ai")
    customer.shot(shots, "1-thread")

    # The worker takes no task while the customer replies, so the answer can only reach a
    # page that is already live (the reply itself reloads the page: it is a form post).
    worker_consuming(worker, on=False)
    card.locator(".reply-text").fill(SECOND)
    card.locator(".reply-submit").click()
    expect(page).to_have_url(re.compile(rf"/help/\?sent={inquiry.pk}#inquiry-{inquiry.pk}$"))
    expect(thread).to_have_count(3)
    expect(thread.nth(2).locator(".message-text")).to_have_text(SECOND)
    wait_for_js(page, f"document.getElementById('inquiry-{inquiry.pk}').dataset.live === '1'")
    customer.set_marker()
    worker_consuming(worker, on=True)

    expect(thread).to_have_count(4, timeout=RUN_TIMEOUT_MS)
    expect(thread.nth(3)).to_have_class("message author-ai")
    assert customer.kept_marker()  # the answer came to the open page, not with a reload
    customer.shot(shots, "2-answer-arrived")

    ai = inquiry.messages.filter(author_kind=MessageAuthor.AI).order_by("created_at")
    latest = ai.last()
    assert latest is not None
    expect(thread.nth(3).locator(".message-text")).to_have_text(latest.text)
    # Stamped in the shop's time, like the messages the server rendered, not the browser's.
    shop_time = timezone.localtime(latest.created_at).strftime("%Y-%m-%d %H:%M")
    expect(thread.nth(3).locator("time")).to_have_text(shop_time)
    background = "(item) => getComputedStyle(item).backgroundColor"
    assert thread.nth(2).evaluate(background) != thread.nth(3).evaluate(background)
    assert [m.text for m in inquiry.messages.filter(author_kind="customer")] == [FIRST, SECOND]
    assert (customer.errors, customer.dialogs, customer.csp_violations()) == ([], [], [])
