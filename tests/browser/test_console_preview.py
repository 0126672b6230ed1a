"""The decision form shows the exact reply before it is sent (issue 12, item 4).

Headless Chromium against daphne with a real worker: the approval's reply is previewed when
the page opens; typing an English reason for a Japanese customer previews the rejection with
a language warning, a submit without the confirmation is held back, and once confirmed the
customer gets the very text the operator saw.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from agents.models import Escalation, Inquiry
from agents.support.conversations.intake import inquiry_create
from netshop.models import Customer, Refund
from tests.browser.conftest import OpenSession
from tests.support.browser import wait_for_js
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REFUND_TEXT = "ORD-1003が壊れていました。返金してください。"
ENGLISH_REASON = "Please send us a photo of the damaged item first."
RUN_TIMEOUT_MS = 60_000


def waiting_escalation() -> Escalation:
    inquiry = inquiry_create(customer=Customer.objects.get(code="C0001"), text=REFUND_TEXT)
    found = Escalation.objects.filter(inquiry_id=inquiry.pk)
    wait_until(found.exists, timeout=60)
    return found.get()


def test_the_reply_is_previewed_and_the_previewed_text_is_what_the_customer_gets(
    open_session: OpenSession, worker: Worker, staying_after_a_decision: None
) -> None:
    escalation = waiting_escalation()
    operator = open_session("operator")
    page = operator.page
    page.goto(f"/console/escalations/{escalation.pk}/")

    approval = page.locator("#approve-preview-text")
    expect(approval).to_contain_text(
        "ご注文 ORD-1003について、12,800円の返金手続きが完了いたしました。"
    )
    expect(page.locator("#approve-language-warning")).to_be_hidden()

    page.fill("#reject-reason", ENGLISH_REASON)
    wait_for_js(page, "document.getElementById('reject-form').dataset.previewState === 'shown'")
    rejection = page.locator("#reject-preview-text")
    expect(rejection).to_contain_text(f"理由: 「{ENGLISH_REASON}」")
    warning = page.locator("#reject-language-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("This text is in English, but the customer writes Japanese.")
    shown = str(rejection.text_content())

    page.click("#reject-button")  # not confirmed: held back, the confirmation asked for
    expect(page.locator("#reject-confirm-language")).to_be_focused()
    assert Escalation.objects.get(pk=escalation.pk).status == "open"

    page.check("#reject-confirm-language")
    page.click("#reject-button")
    expect(page.locator("#inquiry-status")).to_have_attribute(
        "data-status", "resolved", timeout=RUN_TIMEOUT_MS
    )

    inquiry = Inquiry.objects.get(pk=escalation.inquiry_id)
    assert inquiry.reply == shown
    assert (Escalation.objects.get(pk=escalation.pk).decision or {})["preview"]["text"] == shown
    assert not Refund.objects.filter(payment__order__number="ORD-1003").exists()
    assert operator.dialogs == []
    assert operator.errors == []
