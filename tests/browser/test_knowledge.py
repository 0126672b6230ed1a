"""Issue 27's "done when": a manager rewrites a help article in the console and publishes it;
the next customer question about it is answered from the new version, with no restart.

Given a published article (version 1: store pickup "at the Tokyo shop only"), daphne and one
Celery worker that has already answered a question from version 1 (so its index was built
before the change), when the manager rewrites the Japanese text in the console, saves the
draft and publishes it, and a customer then asks on ``/help/``, then the same worker's reply
states the new fact, its grounds name the article and version 2, and the console's
conversation page shows those grounds: no process was restarted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agents.models import Inquiry, InquiryStatus, Message, MessageAuthor
from agents.support.conversations.intake import inquiry_create
from netshop.knowledge.selectors import article_live_version
from netshop.models import Customer
from tests.browser.conftest import PASSWORD, OpenSession
from tests.factories import CustomerFactory, help_article
from tests.support.scenarios import customer_login
from tests.support.workers import Worker, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RUN_TIMEOUT_S = 60
QUESTION = "店舗での受け取りはできますか？"
OLD_FACT = "店舗受け取りは東京店のみで承ります。"
NEW_FACT = "店舗受け取りは東京店と大阪店で承ります。"


def answer_to(inquiry: Inquiry) -> Message:
    """The AI's answer once the run is over (waits for it)."""

    def answered() -> bool:
        inquiry.refresh_from_db()
        done = inquiry.status not in (InquiryStatus.QUEUED, InquiryStatus.RUNNING)
        return done and inquiry.messages.filter(author_kind=MessageAuthor.AI).exists()

    wait_until(answered, timeout=RUN_TIMEOUT_S)
    return inquiry.messages.filter(author_kind=MessageAuthor.AI).latest("created_at")


def articles_used(answer: Message) -> list[tuple[str, int, bool]]:
    grounds = answer.grounds or {}
    return [(r["article"], r["version"], r["quoted"]) for r in grounds["records"]["faq"]]


def customer_page(open_session: OpenSession, customer: Customer) -> Page:
    user = customer_login(customer)
    user.set_password(PASSWORD)
    user.save()
    return open_session(user.username).page


def test_a_published_rewrite_answers_the_next_question_with_no_restart(
    open_session: OpenSession, worker: Worker, shots: Path
) -> None:
    article = help_article(
        title="店舗で受け取れますか？", body=OLD_FACT, key="store-pickup", category="delivery"
    ).article
    customer = CustomerFactory.create(name="店舗 花子", language="ja")
    before = answer_to(inquiry_create(customer=customer, text=QUESTION))  # the worker's index
    assert OLD_FACT in before.text
    assert ("store-pickup", 1, True) in articles_used(before)

    manager = open_session("manager")
    page = manager.page
    page.goto("/knowledge/")
    page.locator('tr[data-article="store-pickup"] a').first.click()
    expect(page.locator("#body_ja")).to_have_value(OLD_FACT)
    page.locator("#body_ja").fill(NEW_FACT)
    page.locator("#article-save").click()
    expect(page.locator("#status-ja")).to_contain_text("draft 2 pending")
    manager.shot(shots, "1-draft-saved")
    page.locator("#publish-ja").click()
    expect(page.locator("#status-ja")).to_contain_text("version 2 published")
    manager.shot(shots, "2-published")
    live = article_live_version(article=article, language="ja")
    assert live is not None
    assert (live.number, live.published_by) == (2, User.objects.get(username="manager"))

    help_page = customer_page(open_session, customer)
    help_page.goto("/help/")
    help_page.locator("#inquiry-form textarea").fill(QUESTION)
    help_page.locator("#inquiry-submit").click()
    wait_until(lambda: Inquiry.objects.filter(customer=customer).count() == 2, timeout=10)
    asked = Inquiry.objects.filter(customer=customer).latest("created_at")
    after = answer_to(asked)

    assert NEW_FACT in after.text
    assert OLD_FACT not in after.text
    assert ("store-pickup", 2, True) in articles_used(after)
    help_page.goto("/help/")
    reply = help_page.locator(f"#inquiry-{asked.pk} .author-ai .message-text")
    expect(reply).to_contain_text(NEW_FACT)
    page.goto(f"/console/conversations/{asked.pk}/")
    expect(page.locator("#thread .grounds-faq")).to_contain_text("store-pickup, version 2")
    manager.shot(shots, "3-grounds")
