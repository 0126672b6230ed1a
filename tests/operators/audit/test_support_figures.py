"""The dashboard in support terms: each figure from data built through the services, and
each figure's link opening exactly the rows it counts."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from agents.models import Escalation, Inquiry, InquiryStatus, MessageAuthor
from agents.support import audit_trail
from agents.support.conversations.messages import message_store
from agents.support.conversations.services import customer_message_post
from agents.support.escalations.review_flags import conversation_flag
from agents.support.escalations.services import escalation_decide
from netshop.audit.models import AuditEntry
from netshop.models import Customer, Refund
from netshop.roles import Role
from netshop.services.refunds import refund_create
from operators.audit import support
from operators.audit.selectors import Window
from tests.factories import CustomerFactory, delivered_order
from tests.operators.api_helpers import escalation_for, inquiry_for, signed_in, staff_user

pytestmark = pytest.mark.django_db

MINUTE = dt.timedelta(minutes=1)


@pytest.fixture
def manager() -> Client:
    return signed_in(staff_user("mgr", Role.MANAGER))


def _received(minutes_ago: int, customer: Customer | None = None) -> Inquiry:
    inquiry = inquiry_for(customer or CustomerFactory.create())
    created = timezone.now() - minutes_ago * MINUTE
    Inquiry.objects.filter(pk=inquiry.pk).update(created_at=created)
    inquiry.refresh_from_db()
    return inquiry


def _answered(inquiry: Inquiry, *, after: int, resolved: bool, resolved_after: int = 0) -> None:
    """The AI answers ``after`` minutes in; a resolving answer resolves the conversation."""
    message = message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text="ご連絡ありがとうございます",
        channel="web",
    )
    type(message).objects.filter(pk=message.pk).update(
        created_at=inquiry.created_at + after * MINUTE
    )
    status = InquiryStatus.RESOLVED if resolved else InquiryStatus.AWAITING_APPROVAL
    audit_trail.reply_sent(
        inquiry_id=str(inquiry.pk),
        status=status,
        language="ja",
        length=12,
        actor=audit_trail.SUPERVISOR,
    )
    if resolved:
        done = inquiry.created_at + (resolved_after or after) * MINUTE
        Inquiry.objects.filter(pk=inquiry.pk).update(status=status, resolved_at=done)


def _refund(inquiry: Inquiry, *, actor: str, amount: int, reason: str) -> Refund:
    order = delivered_order(customer=inquiry.customer, captured=amount)
    return refund_create(
        order=order,
        amount=amount,
        reason=reason,
        operation_id=f"{inquiry.pk}:process_refund:{order.number}",
        actor=actor,
    )


@pytest.fixture
def month() -> dict[str, Any]:
    """Seven conversations of the last days, as a support team would have had them."""
    sato, suzuki = staff_user("sato", Role.OPERATOR), staff_user("suzuki", Role.OPERATOR)
    lead = staff_user("lead", Role.MANAGER)
    # A, B, C: the AI answers and resolves; B's customer writes again, a lead flags C.
    plain, reopened, flagged = _received(300), _received(200), _received(100)
    _answered(plain, after=1, resolved=True, resolved_after=10)
    _answered(reopened, after=2, resolved=True)
    _answered(flagged, after=3, resolved=True, resolved_after=30)
    customer_message_post(customer=reopened.customer, inquiry_id=reopened.pk, text="まだ届きません")
    conversation_flag(inquiry_id=flagged.pk, user=lead, reason="言い方が冷たい")
    # D: a refund approved by sato, then the AI's resolving reply: a person was involved.
    approved = _received(90)
    approval = escalation_for(approved)
    escalation_decide(escalation_id=approval.pk, user=sato, decision="approve")
    _refund(approved, actor="sato", amount=12800, reason="damaged item")
    _answered(approved, after=4, resolved=True, resolved_after=60)
    # E: suzuki edits the amount, after the deadline.
    edited = _received(80, approved.customer)  # who holds ORD-4003, the edit's order
    late = escalation_for(edited)
    Escalation.objects.filter(pk=late.pk).update(deadline=timezone.now() - MINUTE)
    escalation_decide(escalation_id=late.pk, user=suzuki, decision="edit", params={"amount": 5000})
    _refund(edited, actor="suzuki", amount=5000, reason="wrong item")
    # F: sato rejects; G: nobody has answered yet.
    rejected = _received(70)
    escalation_decide(
        escalation_id=escalation_for(rejected).pk,
        user=sato,
        decision="reject",
        reason="already refunded by phone",
        confirm_language=True,
    )
    waiting = _received(5)
    # An old refund, outside the window.
    old = _refund(_received(60), actor="sato", amount=3000, reason="damaged item")
    Refund.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=40))
    return {
        "plain": plain,
        "reopened": reopened,
        "flagged": flagged,
        "approved": approved,
        "edited": edited,
        "rejected": rejected,
        "waiting": waiting,
        "late": late,
    }


WINDOW_DAYS = 30


def _window() -> Window:
    return Window.ending_today(WINDOW_DAYS)


def test_first_response_and_resolution_times(month: dict[str, Any]) -> None:
    first, resolved = support.first_response(_window()), support.resolution(_window())

    # Answered after 1, 2, 3 and 4 minutes; G never was. Resolved after 10, 30 and 60 (B
    # was reopened, so it is not resolved now).
    assert (first.count, first.p50, first.p90) == (4, 2 * MINUTE, 4 * MINUTE)
    assert (resolved.count, resolved.p50, resolved.p90) == (3, 30 * MINUTE, 60 * MINUTE)


def test_the_share_resolved_by_the_ai_and_what_came_back(month: dict[str, Any]) -> None:
    ai = support.ai_resolution(_window())

    # eight conversations received (the seven and the old refund's), three resolved by the AI
    assert (ai.received, ai.by_ai, ai.reopened, ai.flagged) == (8, 3, 1, 1)
    assert ai.share == 38


def test_refunds_in_yen_by_operator_and_by_reason(month: dict[str, Any]) -> None:
    window = _window()

    assert support.refund_total(window) == 17800
    assert support.refunds_by(window, "actor") == [
        support.RefundLine("sato", 1, 12800),
        support.RefundLine("suzuki", 1, 5000),
    ]
    assert support.refunds_by(window, "reason") == [
        support.RefundLine("damaged item", 1, 12800),
        support.RefundLine("wrong item", 1, 5000),
    ]


def test_decisions_against_the_recommendation_and_deadlines_met(month: dict[str, Any]) -> None:
    against, deadlines = support.decisions_against(_window()), support.deadlines_met(_window())

    assert (against.decided, against.edited, against.rejected, against.changed) == (3, 1, 1, 2)
    assert (deadlines.decided, deadlines.met, deadlines.share) == (3, 2, 67)


def _rows(client: Client, href: str) -> list[AuditEntry]:
    response = client.get(href)
    assert response.status_code == 200
    return list(response.context["page"].entries)


def test_each_figure_links_to_the_rows_it_counts(manager: Client, month: dict[str, Any]) -> None:
    figures = manager.get(f"/audit/dashboard/?days={WINDOW_DAYS}").context["support"]

    def inquiries(key: str) -> set[Any]:
        return {e.inquiry_id for e in _rows(manager, figures[key])}

    answered = {month[n].pk for n in ("plain", "reopened", "flagged", "approved")}
    assert inquiries_of(manager, figures["first_response"]["href"]) == answered
    ai = {month[name].pk for name in ("plain", "reopened", "flagged")}
    assert inquiries("ai_href") == ai
    assert {e.action for e in _rows(manager, figures["ai_href"])} == {"reply.sent"}
    assert inquiries("reopened_href") == {month["reopened"].pk}
    assert inquiries("flagged_href") == {month["flagged"].pk}
    assert [e.action for e in _rows(manager, figures["late_href"])] == ["decision.edit"]
    assert inquiries("late_href") == {month["edited"].pk}
    assert inquiries("edited_href") == {month["edited"].pk}
    assert inquiries("rejected_href") == {month["rejected"].pk}
    by_reason = {line["key"]: line["href"] for line in figures["refunds_by_reason"]}
    assert inquiries_of(manager, by_reason["damaged item"]) == {month["approved"].pk}
    by_operator = {line["key"]: line["href"] for line in figures["refunds_by_operator"]}
    assert inquiries_of(manager, by_operator["suzuki"]) == {month["edited"].pk}
    assert figures["refund_total"] == "¥17,800"


def inquiries_of(client: Client, href: str) -> set[Any]:
    return {e.inquiry_id for e in _rows(client, href)}


def test_the_resolution_figure_links_to_the_resolved_conversations(
    manager: Client, month: dict[str, Any]
) -> None:
    figures = manager.get(f"/audit/dashboard/?days={WINDOW_DAYS}").context["support"]

    href = figures["resolution"]["href"]

    assert parse_qs(urlsplit(href).query)["figure"] == ["resolved"]
    assert inquiries_of(manager, href) == {
        month[name].pk for name in ("plain", "flagged", "approved")
    }


def test_the_dashboard_shows_the_support_figures_above_the_engineering_ones(
    manager: Client, month: dict[str, Any]
) -> None:
    html = manager.get(f"/audit/dashboard/?days={WINDOW_DAYS}").content.decode()

    assert html.index('data-figure="first-response"') < html.index("Hand-off verdicts")
    assert "¥17,800" in html
    assert "38%" in html
    assert "67%" in html
    assert ">suzuki<" in html


def test_an_operator_cannot_open_the_dashboard(month: dict[str, Any]) -> None:
    operator = signed_in(staff_user("op", Role.OPERATOR))

    assert operator.get("/audit/dashboard/").status_code == 403


def test_figures_of_an_empty_period() -> None:
    window = _window()

    assert support.first_response(window) == support.Spread(0, None, None)
    assert support.ai_resolution(window).share is None
    assert support.deadlines_met(window).share is None
    assert support.refunds_by(window, "actor") == []


def test_the_ai_did_not_resolve_what_a_person_answered_first(month: dict[str, Any]) -> None:
    customer = CustomerFactory.create()
    taken = inquiry_for(customer)
    user = User.objects.get(username="sato")
    message_store(
        inquiry=taken,
        author_kind=MessageAuthor.OPERATOR,
        author=user,
        text="対応します",
        channel="console",
    )
    _answered(taken, after=0, resolved=True)

    assert support.ai_resolution(_window()).by_ai == 3


def test_a_japanese_manager_reads_the_support_figures_in_japanese(
    manager: Client, month: dict[str, Any]
) -> None:
    html = manager.get(
        f"/audit/dashboard/?days={WINDOW_DAYS}", HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()

    assert "初回応答時間の中央値" in html
    assert "AI が解決（8 件の会話のうち 3 件）" in html
    assert "期限内の判断（3 件中 2 件が期限内）" in html
    assert "オペレーター別の返金" in html
