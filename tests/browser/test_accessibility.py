"""Every page passes axe-core (WCAG 2.1 A/AA and best practices) with nothing serious.

Given the demo shop with a working day's data (a queue with every kind of badge: claimed, mine,
overdue, soon due, waiting for a manager's second approval; a conversation with customer, AI,
operator and note messages; an answered help inquiry; decisions that draw the dashboard's
charts and fill the audit log), when axe runs on each page each role opens, then it finds no
violation of impact serious or critical, and each page starts with a "Skip to content" link to
its one ``<main>``.

axe-core comes from the npm registry (``tests/support/axe.py``: pinned, integrity checked,
cached). Its script is put in as an inline ``<script>``, which the product's content security
policy refuses, so these tests' browser contexts are opened with ``bypass_csp=True``; the
policy itself is tested in ``test_content_security_policy.py`` with contexts that enforce it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from agents.models import Escalation, Inquiry, MessageAuthor
from agents.simulation.services import run_create
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.messages import message_store
from agents.support.conversations.services import (
    conversation_take_over,
    customer_message_post,
    note_add,
    operator_message_send,
)
from agents.support.escalations.claims import escalation_claim
from agents.support.escalations.services import escalation_decide
from netshop.knowledge.services import article_draft_save, article_publish
from netshop.models import Customer
from operators.models import CannedReply
from tests.browser.conftest import PASSWORD
from tests.factories import delivered_order, help_article
from tests.operators.api_helpers import REFUND_ACTION, escalation_for
from tests.operators.knowledge.conversations import ai_answer
from tests.operators.simulations.stored_runs import (
    Outcome,
    finished_run,
    replayed_run,
    stored_suite,
)
from tests.support.axe import SERIOUS, axe_violations
from tests.support.browser import Session, log_in, new_session
from tests.support.reviews import ai_resolved, answer_grounds
from tests.support.servers import LiveServer

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

UUID = re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}")
FOUR_EYES_AMOUNT = 36000  # at or above the four-eyes amount, within the operator's limit
AxeSession = Callable[[str | None], Session]
# Moderate findings fixed along with the serious ones: landmarks a screen reader lists twice
# or not at all, and a page without its skip link.
LANDMARK_RULES = (
    "landmark-no-duplicate-banner",
    "landmark-no-duplicate-contentinfo",
    "landmark-no-duplicate-main",
    "landmark-one-main",
    "landmark-unique",
    "bypass",
)


@dataclass(frozen=True)
class Desk:
    """What the pages show: the rows a test opens."""

    refund: Escalation
    first_approved: Escalation
    conversation: Inquiry
    answered: Inquiry


@pytest.fixture
def axe_session(
    browser: Browser, daphne_server: LiveServer, transactional_db: None
) -> Iterator[AxeSession]:
    """``axe_session("operator")`` signs in (``None``: nobody) in a context that lets axe's
    inline script in (``bypass_csp``)."""
    opened: list[Session] = []

    def open_one(username: str | None) -> Session:
        session = (
            new_session(browser, daphne_server.url, bypass_csp=True)
            if username is None
            else log_in(browser, daphne_server.url, username, PASSWORD, bypass_csp=True)
        )
        opened.append(session)
        return session

    yield open_one
    for session in opened:
        session.context.close()


@pytest.fixture
def desk(shop: None) -> Desk:
    operator, manager = (User.objects.get(username=name) for name in ("operator", "manager"))
    c0001, c0002 = (Customer.objects.get(code=code) for code in ("C0001", "C0002"))
    refund = escalation_for(inquiry_of(c0001, "商品が壊れていました。返金してください。"))
    escalation_claim(escalation_id=refund.pk, user=operator)
    _queue_of_every_badge(c0002, manager)
    decided = escalation_for(inquiry_of(c0002, "The mug was broken, refund please"))
    escalation_decide(
        escalation_id=decided.pk,
        user=operator,
        decision="reject",
        reason="already refunded by phone",
        confirm_language=True,
    )
    return Desk(
        refund=refund,
        first_approved=_first_approved(c0001, operator),
        conversation=_conversation(c0002, operator),
        answered=ai_resolved("search_faq", customer=c0001),
    )


def inquiry_of(customer: Customer, text: str) -> Inquiry:
    return inquiry_create(customer=customer, text=text, start=False)


def _queue_of_every_badge(customer: Customer, manager: User) -> None:
    now = timezone.now()
    late = escalation_for(
        inquiry_of(customer, "Where is my parcel?"), kind="failure", reason="tool_failure"
    )
    Escalation.objects.filter(pk=late.pk).update(
        deadline=now - timedelta(minutes=5), overdue_at=now
    )
    soon = escalation_for(
        inquiry_of(customer, "Please call me"), kind="customer_request", reason="customer_request"
    )
    Escalation.objects.filter(pk=soon.pk).update(deadline=now + timedelta(minutes=10))
    escalation_for(
        inquiry_of(customer, "Is this in stock?"), kind="follow_up", reason="missing_knowledge"
    )
    claimed = escalation_for(inquiry_of(customer, "Wrong size, refund"))
    escalation_claim(escalation_id=claimed.pk, user=manager)


def _first_approved(customer: Customer, operator: User) -> Escalation:
    """A refund at the four-eyes amount the operator approved once: their buttons are
    disabled, with the reason beside them."""
    order = delivered_order(customer=customer, captured=FOUR_EYES_AMOUNT)
    inquiry = inquiry_of(customer, "The kettle leaks. Please refund it.")
    action = {
        **REFUND_ACTION,
        "params": {"order_number": order.number, "amount": FOUR_EYES_AMOUNT, "reason": "damaged"},
        "amount_at_risk": FOUR_EYES_AMOUNT,
        "facts": {"payment": {"refundable": FOUR_EYES_AMOUNT}},
    }
    escalation = escalation_for(inquiry)
    Escalation.objects.filter(pk=escalation.pk).update(
        actions=[action], amount_at_risk=FOUR_EYES_AMOUNT
    )
    escalation_claim(escalation_id=escalation.pk, user=operator)
    escalation_decide(
        escalation_id=escalation.pk, user=operator, decision="approve", confirm_language=True
    )
    escalation.refresh_from_db()
    assert escalation.awaits_second_approval
    return escalation


def _conversation(customer: Customer, operator: User) -> Inquiry:
    inquiry = inquiry_of(customer, "I want to change the delivery address")
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text="Which order is it about?",
        channel="web",
        grounds=answer_grounds("change_address", "en"),
    )
    conversation_take_over(inquiry_id=inquiry.pk, user=operator)
    operator_message_send(inquiry_id=inquiry.pk, user=operator, text="Which address, please?")
    note_add(inquiry_id=inquiry.pk, user=operator, text="Moved last week.")
    customer_message_post(inquiry_id=inquiry.pk, customer=customer, text="1-2-3 Shibuya, Tokyo")
    return inquiry


def audit(session: Session, path: str, shows: str, shots: Path) -> list[str]:
    """What is wrong with ``path`` for a person using assistive technology: each serious or
    critical axe violation, each landmark finding and a missing skip link, as
    ``path: rule (impact: help) at targets``. ``shows`` is an element the page's data draws
    (a badge, a chart), so that axe checks it."""
    page = visit(session, path)
    expect(page.locator(shows).first).to_be_visible()
    taken = len(list(shots.glob("*.png")))
    session.shot(shots, f"{taken}-" + re.sub(r"[^a-z]+", "-", UUID.sub("", path)).strip("-"))
    found = axe_violations(page)
    wrong = [v for v in found if v.impact in SERIOUS or v.rule in LANDMARK_RULES]
    return [f"{path}: {violation}" for violation in wrong] + skip_link_problems(page, path)


def visit(session: Session, path: str) -> Page:
    page = session.page
    response = page.goto(path)
    assert response is not None
    assert response.status == 200, path
    page.wait_for_load_state("load")
    return page


FIRST_FOCUSABLE = """() => {
  const all = document.querySelectorAll(
    "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])");
  const first = Array.from(all).find((e) => !e.disabled && e.type !== "hidden");
  return first ? [first.tagName, first.className, first.getAttribute("href")] : null;
}"""


def skip_link_problems(page: Page, path: str) -> list[str]:
    """The first thing Tab reaches is the skip link; it shows, and leads to the page's one
    ``<main>``, which takes the focus."""
    first = page.evaluate(FIRST_FOCUSABLE)
    mains = page.locator("main").count()
    if first != ["A", "skip-link", "#content"] or mains != 1:
        return [f"{path}: first focusable {first}; {mains} <main>"]
    link = page.locator("a.skip-link")
    link.focus()
    expect(link).to_be_visible()
    link.press("Enter")
    landed = page.evaluate("() => document.activeElement.id")
    return [] if landed == "content" else [f"{path}: the skip link moved the focus to {landed!r}"]


def test_the_login_page_passes_axe(axe_session: AxeSession, shots: Path) -> None:
    session = axe_session(None)

    problems = audit(session, "/accounts/login/", "#login-form", shots)

    assert problems == [], "\n".join(problems)
    expect(session.page.locator("a.skip-link")).to_have_text("Skip to content")


def test_the_operators_pages_pass_axe(axe_session: AxeSession, desk: Desk, shots: Path) -> None:
    session = axe_session("operator")
    pages = [
        ("/console/", "#queue-body .badge.second-approval"),
        (f"/console/escalations/{desk.refund.pk}/", ".badge.risk"),
        (f"/console/escalations/{desk.first_approved.pk}/", "#second-approval-note"),
        ("/console/conversations/", "tr.inbox-row .badge"),
        (f"/console/conversations/{desk.conversation.pk}/", "#thread .grounds .badge"),
    ]

    problems = [problem for page in pages for problem in audit(session, *page, shots)]

    assert problems == [], "\n".join(problems)


def test_the_customers_help_page_passes_axe(
    axe_session: AxeSession, desk: Desk, shots: Path
) -> None:
    session = axe_session("c0001")

    problems = audit(session, "/help/", f"#inquiry-{desk.answered.pk} .badge", shots)

    assert problems == [], "\n".join(problems)
    expect(session.page.locator("a.skip-link")).to_have_text("本文へスキップ")  # C0001's language


def test_the_managers_pages_pass_axe(axe_session: AxeSession, desk: Desk, shots: Path) -> None:
    session = axe_session("manager")
    pages = [
        ("/audit/dashboard/", "svg a rect.bar"),
        ("/audit/", "table.audit-rows .badge.kind-decision"),
        (f"/audit/inquiries/{desk.refund.inquiry_id}/", "table.audit-rows .badge.kind-wait"),
        ("/audit/autonomy/", "h1"),
        ("/audit/policy/", "#policy-table"),
    ]

    problems = [problem for page in pages for problem in audit(session, *page, shots)]

    assert problems == [], "\n".join(problems)
    bar = visit(session, "/audit/dashboard/").locator("svg a").first
    bar.focus()
    expect(bar).to_have_accessible_name(re.compile(r"\d"))  # the bar's title: its day and count
    assert bar.locator("rect").evaluate("(r) => getComputedStyle(r).strokeWidth") == "2px"


def test_the_simulation_pages_pass_axe(axe_session: AxeSession, desk: Desk, shots: Path) -> None:
    suite = stored_suite("payments", "pay-en", "pay-ja")
    before = finished_run(suite, {"pay-en": Outcome(True), "pay-ja": Outcome(True)})
    after = finished_run(
        suite, {"pay-en": Outcome(True), "pay-ja": Outcome(False, reasons=["empty reply"])}
    )
    queued = run_create(suite=suite)
    replay = replayed_run(
        [
            {
                "case_id": str(desk.refund.inquiry_id),
                "inquiry_id": desk.refund.inquiry_id,
                "category": "process_refund",
                "agreement": False,
                "operator_decision": [{"kind": "process_refund", "decision": "approve"}],
                "proposed": [],
                "reply_diff": "--- then\n+++ now\n@@ -1 +1 @@\n-refunded\n+a person will look",
            }
        ]
    )
    session = axe_session("manager")
    simulations = "/audit/simulations"
    pages = [
        (f"{simulations}/", "#upload-form"),
        (f"{simulations}/suites/{suite.pk}/", "#run-form"),
        (f"{simulations}/suites/{suite.pk}/cases/pay-ja", "#case-form textarea"),
        (f"{simulations}/runs/{after.pk}/", "#case-results .badge.regression"),
        (f"{simulations}/runs/{queued.pk}/", "#run-progress"),
        (f"{simulations}/runs/{replay.pk}/", "#case-results .badge.verdict-fail"),
        (f"{simulations}/compare/?before={before.pk}&after={after.pk}", "#compared-cases"),
        (f"{simulations}/replay/", "#replay-form"),
    ]

    problems = [problem for page in pages for problem in audit(session, *page, shots)]

    assert problems == [], "\n".join(problems)


def test_the_knowledge_pages_pass_axe(axe_session: AxeSession, shop: None, shots: Path) -> None:
    manager = User.objects.get(username="manager")
    first = help_article(title="店舗で受け取れますか？", body="東京店のみです。", key="axe-article")
    article = first.article
    article_draft_save(
        article=article, language="ja", title=first.title, body="東京店と大阪店です。", user=manager
    )
    article_publish(
        version=article_draft_save(
            article=article, language="en", title="Store pickup", body="Tokyo only.", user=manager
        ),
        user=manager,
    )
    ai_answer("のし紙は付けられますか？")
    reply = CannedReply.objects.create(title="お詫び", language="ja", body="申し訳ございません。")
    session = axe_session("manager")
    pages = [
        ("/knowledge/", "tr.article-row .badge.live"),
        (f"/knowledge/articles/{article.pk}/", "#publish-ja"),
        (f"/knowledge/articles/{article.pk}/history/ja", "#versions .version"),
        ("/knowledge/articles/new", "#article-new-form"),
        ("/knowledge/gaps/", "tr.gap .badge"),
        ("/knowledge/canned-replies/", "tr.canned-row"),
        (f"/knowledge/canned-replies/{reply.pk}/", "#canned-edit-form"),
    ]

    problems = [problem for page in pages for problem in audit(session, *page, shots)]

    assert problems == [], "\n".join(problems)
