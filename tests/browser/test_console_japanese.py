"""With the console in Japanese, an approval's detail page shows no English UI words (issue 15, 6).

Headless Chromium against daphne: an operator whose language is Japanese opens a refund
waiting for approval (a real run of the graph). Its title, status chips, verdicts, agents,
plan, policy checks, facts and history labels are in Japanese, and none of the English words
the page used to show (``success``, ``HEALTHY``, ``done``, ``HUMAN``, the skill codes ...) is
on the screen. The customer's own words and order numbers are data, not UI: they stay.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from agents.models import Escalation
from agents.support.conversations.intake import inquiry_create
from agents.team.runs.driver import inquiry_run
from netshop.models import Customer
from operators.preferences import staff_preference_set
from tests.browser.conftest import OpenSession

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REFUND_TEXT = "ORD-1003の包丁が欠けて届きました。全額返金してください。"

# What the page showed in English before (codes, chips, labels, titles); none may be seen.
ENGLISH_WORDS = (
    "success",
    "escalate",
    "HEALTHY",
    "healthy",
    "WAITING_ON_APPROVAL",
    "done",
    "HUMAN",
    "human",
    "approval needed",
    "approval_required",
    "process_refund",
    "get_order_details",
    "payment_captured",
    "within_refundable",
    "delivered",
    "captured",
    "card",
    "damaged item",
    "Orders",
    "Payments",
    "Recommended action",
    "Policy checks",
    "Subtasks",
    "Timeline",
    "answered",
    "specialist",
)
JAPANESE_WORDS = (
    "ORD-1003 の ¥12,800 返金",  # the headline, from the action's fields
    "正常",  # HEALTHY
    "承認待ち",  # WAITING_ON_APPROVAL
    "完了",  # a plan step done
    "回答済み",  # a specialist's success
    "注文担当",  # the order agent
    "売上が確定している",  # the payment_captured check
    "配達済み",  # the order's status
    "商品の破損",  # the customer's reason
    "お客様",  # the history's HUMAN
)


@pytest.fixture
def refund_waiting(shop: None) -> Escalation:
    staff_preference_set(
        user=User.objects.get(username="operator"), language="ja", time_zone="Asia/Tokyo"
    )
    customer = Customer.objects.get(code="C0001")
    inquiry_run(inquiry=inquiry_create(customer=customer, text=REFUND_TEXT, start=False))
    return Escalation.objects.get(inquiry__text=REFUND_TEXT)


def test_the_japanese_detail_page_of_an_approval_shows_no_english_ui_words(
    open_session: OpenSession, refund_waiting: Escalation, shots: Path
) -> None:
    operator = open_session("operator")
    page = operator.page

    page.goto(f"/console/escalations/{refund_waiting.pk}/")
    page.wait_for_selector("#headline")
    operator.shot(shots, "detail-ja")
    text = page.locator("body").inner_text()
    title = page.title()

    english = [w for w in ENGLISH_WORDS if re.search(rf"\b{re.escape(w)}\b", text + title)]
    assert english == []
    assert [w for w in JAPANESE_WORDS if w not in text] == []
    assert title.startswith("ORD-1003 の ¥12,800 返金")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert operator.errors == []


def test_the_japanese_queue_says_what_to_do_in_japanese(
    open_session: OpenSession, refund_waiting: Escalation
) -> None:
    page = open_session("operator").page

    page.goto("/console/")
    row = page.locator(f"#row-{refund_waiting.pk}")

    assert row.locator(".headline").inner_text() == "ORD-1003 の ¥12,800 返金"
    assert row.locator(".kind").inner_text() == "承認待ち"
    assert "approval" not in row.inner_text()
