"""A customer's "not solved" reaches the operators at once, and the AI holds (issue 25, part 3).

Headless Chromium against daphne with a real Celery worker: a customer on ``/help/`` presses
"not solved" under an AI answer; within 2 s the operator's console, open in another browser,
shows the conversation in the queue (live, through the socket). The customer then writes again:
the message is stored and the AI does not answer it. The operator marks the answer in the
review; only then does the AI answer, and the answer reaches the customer's open page. The
customer reads everything in their language (C0001 Japanese, C0002 English).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from agents.models import Escalation, Inquiry, InquiryStatus, MessageAuthor
from agents.support.vocabulary import NOT_SOLVED, Skill
from netshop.models import Customer
from tests.browser.conftest import OpenSession
from tests.support.browser import wait_for_js
from tests.support.reviews import ai_resolved
from tests.support.workers import Worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

QUEUE_WITHIN_MS = 2_000
RUN_TIMEOUT_MS = 60_000
# How long the customer's second message is left with a worker free to answer it.
SILENCE_S = 3


@pytest.mark.parametrize(
    ("username", "code", "button", "thanks", "status", "follow_up"),
    [
        (
            "c0001",
            "C0001",
            "解決しなかった",
            "担当スタッフが確認し、こちらでご返信いたします",
            "スタッフに引き継ぎました",
            "返品の送料を知りたいのですが",
        ),
        (
            "c0002",
            "C0002",
            "Not solved",
            "A member of our staff will look into it and reply here.",
            "Passed to our staff",
            "I wanted to know the return shipping cost",
        ),
    ],
    ids=["ja", "en"],
)
def test_not_solved_reaches_the_queue_at_once_and_the_ai_holds_until_a_person_acts(
    open_session: OpenSession,
    worker: Worker,
    shots: Path,
    username: str,
    code: str,
    button: str,
    thanks: str,
    status: str,
    follow_up: str,
) -> None:
    inquiry = ai_resolved(Skill.SEARCH_FAQ, Customer.objects.get(code=code))
    operator = open_session("operator")
    operator.page.goto("/console/")
    wait_for_js(operator.page, "window.netshopConsole && window.netshopConsole.connected === true")
    operator.set_marker()
    reviews = operator.page.locator(f'tr.queue-row[data-kind="review"]:has-text("{code}")')
    expect(reviews).to_have_count(0)
    customer = open_session(username)
    page = customer.page
    page.goto("/help/")
    card = page.locator(f"#inquiry-{inquiry.pk}")
    answer = card.locator(".message.author-ai").first
    expect(answer.locator(".feedback-not-solved")).to_have_text(button)

    answer.locator(".feedback-more summary").click()
    answer.locator(".feedback-comment").fill(follow_up)
    answer.locator(".feedback-not-solved").click()
    clicked = time.monotonic()
    expect(reviews).to_have_count(1, timeout=QUEUE_WITHIN_MS)
    reached_queue_s = time.monotonic() - clicked
    assert operator.kept_marker()  # the row came live, through the socket
    operator.shot(shots, f"{username}-1-queue")

    expect(card.locator(".feedback-given")).to_contain_text(thanks)
    expect(card.locator(".inquiry-status")).to_have_text(status)
    customer.shot(shots, f"{username}-2-thanked")

    # The customer writes again: stored, shown, and not answered while a person has it.
    wait_for_js(page, f"document.getElementById('inquiry-{inquiry.pk}').dataset.live === '1'")
    card.locator(".reply-text").fill(follow_up)
    card.locator(".reply-submit").click()
    thread = card.locator(".thread .message")
    expect(thread).to_have_count(3)
    wait_for_js(page, f"document.getElementById('inquiry-{inquiry.pk}').dataset.live === '1'")
    customer.set_marker()
    time.sleep(SILENCE_S)  # the worker is free: it would have answered by now
    assert inquiry.messages.filter(author_kind=MessageAuthor.AI).count() == 1
    assert Inquiry.objects.get(pk=inquiry.pk).status == InquiryStatus.ESCALATED
    expect(thread).to_have_count(3)

    # A person acts: the review's verdict. The AI answers the waiting message, live.
    review = Escalation.objects.get(inquiry=inquiry, reason=NOT_SOLVED)
    operator.page.goto(f"/console/escalations/{review.pk}/")
    expect(operator.page.locator("#not-solved-card")).to_contain_text(follow_up)
    operator.page.check("#verdict-correct")
    operator.page.click("#verdict-button")

    expect(thread).to_have_count(4, timeout=RUN_TIMEOUT_MS)
    expect(thread.nth(3)).to_have_class("message author-ai")
    assert customer.kept_marker()  # arrived on the open page, not with a reload
    customer.shot(shots, f"{username}-3-answered-after-the-verdict")
    print(f"not solved reached the console in {reached_queue_s * 1000:.0f} ms")
    assert (customer.errors, customer.dialogs, customer.csp_violations()) == ([], [], [])
    assert (operator.errors, operator.csp_violations()) == ([], [])
