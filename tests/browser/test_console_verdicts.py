"""A reviewer goes through the review queue one click per answer (issue 25, part 4).

Headless Chromium against daphne: on a sampled review's page the reviewer marks the answer
wrong, picks what was wrong, writes a note and presses "Save and next"; the verdict is recorded
and the next answer to review opens; the last one sends them back to the review queue.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from agents.models import AnswerReview, EscalationStatus
from agents.support.vocabulary import Skill
from netshop.models import Customer
from tests.browser.conftest import OpenSession
from tests.support.reviews import ai_resolved, sampled_review

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_save_and_next_walks_the_review_queue(
    open_session: OpenSession, shop: None, shots: Path
) -> None:
    customer = Customer.objects.get(code="C0001")
    first = sampled_review(ai_resolved(Skill.SEARCH_FAQ, customer))
    second = sampled_review(ai_resolved(Skill.TRACK_SHIPMENT, customer))
    second.deadline = first.deadline + timedelta(minutes=1)  # next, whatever the clock
    second.save(update_fields=["deadline"])
    page = open_session("operator").page

    page.goto(f"/console/escalations/{first.pk}/")
    page.check("#verdict-wrong")
    page.select_option("#verdict-reason", "wrong_facts")
    page.fill("#verdict-note", "期限の説明が古い")
    page.screenshot(path=str(shots / "verdict-form.png"), full_page=True)
    page.click("#verdict-next-button")

    page.wait_for_url(f"**/console/escalations/{second.pk}/")
    expect(page.locator("#verdict-form")).to_be_visible()
    review = AnswerReview.objects.get(escalation=first)
    assert (review.verdict, review.reason, review.note) == (
        "wrong",
        "wrong_facts",
        "期限の説明が古い",
    )
    assert review.reviewer.username == "operator"

    page.check("#verdict-correct")
    page.click("#verdict-next-button")

    page.wait_for_url("**/console/?kind=review")
    second.refresh_from_db()
    assert second.status == EscalationStatus.DECIDED
    assert AnswerReview.objects.get(escalation=second).verdict == "correct"
