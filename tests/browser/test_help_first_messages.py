"""A new customer's first message on ``/help/``, answered as a good human agent would (issue 24).

Given customers built for the test (their orders from the scenarios, not the demo's), daphne
and a real Celery worker, when each writes a first message in the help page's form, then:
a broken mug from a delivered order gets a return proposed for the mug's price and a reply
saying a person checks it; an angry message with no request gets an apology and a question,
never an FAQ entry or an order; "the status of my order" from a customer with three orders
under way gets a question listing them, never the newest one's details.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agents.models import Escalation, Inquiry, InquiryStatus, MessageAuthor
from agents.support.escalations.drafts import draft_send
from netshop.models import Customer, Language
from tests.browser.conftest import PASSWORD, OpenSession
from tests.factories import CustomerFactory
from tests.support.scenarios import Shopper, customer_login, delivered_with, shopper
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RUN_TIMEOUT_S = 60


def signed_in(open_session: OpenSession, customer: Customer) -> Page:
    user = customer_login(customer)
    user.set_password(PASSWORD)
    user.save()
    return open_session(user.username).page


def send(page: Page, text: str, customer: Customer) -> Inquiry:
    """Write ``text`` in the help page's form and wait for the AI's answer to be shown."""
    page.goto("/help/")
    page.locator("#inquiry-form textarea").fill(text)
    page.locator("#inquiry-submit").click()
    wait_until(lambda: _answered(customer), timeout=RUN_TIMEOUT_S)
    inquiry = Inquiry.objects.filter(customer=customer).latest("created_at")
    page.goto("/help/")
    ai = page.locator(f"#inquiry-{inquiry.pk} .thread .message.author-ai")
    expect(ai).to_have_count(1, timeout=RUN_TIMEOUT_S * 1000)
    return inquiry


def _answered(customer: Customer) -> bool:
    inquiry = Inquiry.objects.filter(customer=customer).order_by("-created_at").first()
    return (
        inquiry is not None
        and inquiry.messages.filter(author_kind=MessageAuthor.AI).exists()
        and inquiry.status not in (InquiryStatus.QUEUED, InquiryStatus.RUNNING)
    )


def english_shopper(name: str) -> Shopper:
    """An English customer with three orders under way (pending, being prepared, paid by
    transfer) and one delivered."""
    return shopper(
        name=name, language=Language.ENGLISH, pending=("glass", 16500), delivered=("towel", 4300, 2)
    )


def shown_reply(page: Page, inquiry: Inquiry) -> str:
    return page.locator(f"#inquiry-{inquiry.pk} .author-ai .message-text").inner_text()


def test_a_broken_mug_gets_its_return_proposed_for_the_mugs_price(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    olivia = CustomerFactory.create(name="Olivia Grant", language=Language.ENGLISH)
    older = delivered_with(olivia, [("湯呑み", "Teacup", 1800, 2)], days_ago=20)
    last = delivered_with(
        olivia,
        [("有田焼 マグ", "Arita Mug", 2200, 1), ("風呂敷", "Furoshiki Cloth", 2750, 1)],
        days_ago=3,
    )
    page = signed_in(open_session, olivia)

    inquiry = send(page, "I want to return the mug from my last order, it arrived broken", olivia)

    inquiry.refresh_from_db()
    assert inquiry.status == InquiryStatus.AWAITING_APPROVAL
    escalation = Escalation.objects.get(inquiry=inquiry, status="open")
    [action] = escalation.package["recommended_actions"]
    assert action["params"]["order_number"] == last.number != older.number
    assert action["params"]["amount"] == 2200  # the mug, not the cloth beside it
    reply = shown_reply(page, inquiry)
    assert "2,200" in reply
    assert "staff" in reply
    page.screenshot(path=str(shots / "mug.png"))


def test_an_angry_message_with_no_request_gets_an_apology_and_a_question(
    open_session: OpenSession, worker: Worker
) -> None:
    """A complaint's reply is a draft (issue 25): a person sends it, then the customer reads it."""
    grace = english_shopper("Grace Howard")
    page = signed_in(open_session, grace.customer)
    page.goto("/help/")
    page.locator("#inquiry-form textarea").fill(
        "This is ridiculous, nothing ever works with you people."
    )
    page.locator("#inquiry-submit").click()
    drafts = Escalation.objects.filter(inquiry__customer=grace.customer, kind="draft")
    wait_until(drafts.exists, timeout=RUN_TIMEOUT_S)
    assert drafts.get().reason == "complaint"

    draft_send(escalation_id=drafts.get().pk, user=User.objects.get(username="operator"))

    inquiry = Inquiry.objects.get(customer=grace.customer)
    assert inquiry.status == InquiryStatus.AWAITING_CUSTOMER
    page.goto("/help/")
    reply = shown_reply(page, inquiry)
    assert "sorry" in reply.lower()
    assert "?" in reply
    for order in (grace.pending, grace.delivered, grace.preparing, grace.bank_transfer):
        assert order.number not in reply


def test_the_status_of_my_order_with_three_under_way_is_a_question_listing_them(
    open_session: OpenSession, worker: Worker
) -> None:
    emily = english_shopper("Emily Ward")
    page = signed_in(open_session, emily.customer)

    inquiry = send(page, "can you tell me the status of my order?", emily.customer)

    inquiry.refresh_from_db()
    assert inquiry.status == InquiryStatus.AWAITING_CUSTOMER
    reply = shown_reply(page, inquiry)
    for order in (emily.pending, emily.preparing, emily.bank_transfer):
        assert order.number in reply
    assert emily.delivered.number not in reply
    assert "Which order" in reply
