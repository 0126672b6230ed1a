"""The console's pages: who may see them, what they show, and the decisions made on them.

Given escalations recorded as runs record them, when staff open the queue and the detail page
and post claims and decisions, then every page checks the role, customer text stays inert,
the approve button says exactly what happens, conflicts name who got there first, and a
refused decision changes nothing.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from agents.models import Escalation, EscalationStatus, Inquiry, InquiryStatus
from agents.support.escalations.claims import escalation_claim
from agents.support.escalations.services import escalation_decide, escalation_record_wait
from agents.support.shapes import PendingAction
from netshop.roles import Role
from operators.models import NotificationPreference, StaffPreference
from tests.factories import CustomerFactory
from tests.operators.api_helpers import escalation_for, inquiry_for, signed_in, staff_user

pytestmark = pytest.mark.django_db

HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>"
HOSTILE_ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
CANCEL_ACTION: dict[str, Any] = {
    "action_id": "c1",
    "kind": "cancel_order",
    "params": {"order_number": "ORD-4001", "reason": "changed mind"},
    "amount_at_risk": 3980,
    "facts": {"number": "ORD-4001", "payment": {"refundable": 0}},
    "checks": [{"name": "cancellable", "passed": True, "detail": "order is pending"}],
}


def customer_user(username: str = "cust") -> User:
    user = User.objects.create_user(username, password="x")
    CustomerFactory.create(user=user)
    return user


def caller(who: str) -> Client:
    if who == "anonymous":
        return Client()
    if who == "customer":
        return signed_in(customer_user())
    if who == "staff_without_role":
        return signed_in(User.objects.create_user("clerk", is_staff=True))
    return signed_in(staff_user(who, Role(who)))


def page_text(response: Any) -> str:
    return response.content.decode()


def decide(client: Client, escalation: Escalation, **form: Any) -> Any:
    return client.post(f"/console/escalations/{escalation.pk}/decide", form)


def with_deadline(escalation: Escalation, minutes: int) -> Escalation:
    escalation.deadline = timezone.now() + dt.timedelta(minutes=minutes)
    escalation.save(update_fields=["deadline"])
    return escalation


# --- Who may see what -----------------------------------------------------------------------

PAGES = [
    ("get", "/console/"),
    ("get", "/console/rows"),
    ("get", "/console/escalations/{id}/"),
    ("get", "/console/escalations/{id}/live"),
    ("post", "/console/escalations/{id}/claim"),
    ("post", "/console/escalations/{id}/release"),
    ("post", "/console/escalations/{id}/decide"),
    ("post", "/console/escalations/{id}/verdict"),
    ("post", "/console/preferences"),
]


@pytest.mark.parametrize(("method", "path"), PAGES)
@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("anonymous", 302),
        ("customer", 403),
        ("staff_without_role", 403),
        ("operator", 200),
        ("manager", 200),
    ],
)
def test_console_pages_admit_operators_and_managers_only(
    escalation: Escalation, method: str, path: str, who: str, status: int
) -> None:
    url = path.format(id=escalation.pk)
    response = getattr(caller(who), method)(url)

    if status == 302:
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")
    elif status == 403:
        assert response.status_code == 403
    else:
        assert response.status_code in (200, 302, 422)  # posts answer with a redirect or a form
    if status != 200:
        escalation.refresh_from_db()
        assert (escalation.claimed_by, escalation.status) == (None, EscalationStatus.OPEN)


@pytest.mark.parametrize(
    ("who", "target"),
    [("operator", "/console/"), ("manager", "/console/"), ("customer", "/help/")],
)
def test_a_login_lands_staff_in_the_console_and_customers_on_the_help_page(
    who: str, target: str
) -> None:
    response = caller(who).get("/console/start/")

    assert response.status_code == 302
    assert response["Location"] == target


def test_a_login_without_a_role_or_a_customer_lands_nowhere() -> None:
    assert caller("staff_without_role").get("/console/start/").status_code == 403


def test_logging_in_as_a_customer_goes_to_the_help_page() -> None:
    customer_user("c0001")

    response = Client().post(
        "/accounts/login/", {"username": "c0001", "password": "x"}, follow=True
    )

    assert response.redirect_chain == [("/console/start/", 302), ("/help/", 302)]


def test_the_login_page_is_styled_on_the_shared_layout() -> None:
    response = Client().get("/accounts/login/?next=/console/")

    assert response.status_code == 200
    text = page_text(response)
    assert 'id="login-form"' in text
    assert 'name="next" value="/console/"' in text
    assert "css/app.css" in text


# --- The queue ------------------------------------------------------------------------------


def test_the_queue_lists_each_open_escalation_with_what_matters(op1: User) -> None:
    escalation = escalation_for()
    escalation_claim(escalation_id=escalation.pk, user=op1)
    failure = escalation_for(kind="failure", reason="tool_failure")

    response = signed_in(op1).get("/console/")

    assert response.status_code == 200
    rows = response.context["rows"]
    assert [row.escalation.pk for row in rows] == [escalation.pk, failure.pk]
    text = page_text(response)
    row = _row_html(text, escalation)
    assert '<span class="badge kind kind-approval">approval needed</span>' in row
    assert '<strong class="headline">Refund ¥12,800 on ORD-4003</strong>' in row
    assert "approval required" not in row  # the kind says it; no column repeats it
    assert 'class="badge claim mine">op1<' in row
    failure_row = _row_html(text, failure)
    assert '<span class="badge kind kind-failure">failure</span>' in failure_row
    assert '<strong class="headline">Tool failure</strong>' in failure_row
    assert "unclaimed" in failure_row
    assert 'class="small claim-button"' in failure_row


def test_the_queue_warns_before_a_deadline_and_marks_overdue(op1: User) -> None:
    soon = with_deadline(escalation_for(), 20)
    late = with_deadline(escalation_for(), -5)
    later = with_deadline(escalation_for(), 240)

    text = page_text(signed_in(op1).get("/console/"))

    assert "due-soon" in _row_html(text, soon)
    assert re.search(r'class="badge warn">(19|20) min left<', _row_html(text, soon))
    assert '<span class="badge overdue">overdue</span>' in _row_html(text, late)
    assert "due-ok" in _row_html(text, later)
    assert "overdue" not in _row_html(text, later)


def test_the_queue_is_ordered_by_deadline(op1: User) -> None:
    last = with_deadline(escalation_for(), 90)
    first = with_deadline(escalation_for(), -10)
    middle = with_deadline(escalation_for(), 30)

    response = signed_in(op1).get("/console/")

    assert [r.escalation.pk for r in response.context["rows"]] == [first.pk, middle.pk, last.pk]


def test_the_queue_filters_by_kind_reason_overdue_and_claims(op1: User, op2: User) -> None:
    mine = escalation_for()
    escalation_claim(escalation_id=mine.pk, user=op1)
    theirs = escalation_for()
    escalation_claim(escalation_id=theirs.pk, user=op2)
    failure = escalation_for(kind="failure", reason="tool_failure")
    late = with_deadline(escalation_for(kind="follow_up", reason="missing_knowledge"), -1)
    client = signed_in(op1)

    def ids(query: str) -> set[Any]:
        return {row.escalation.pk for row in client.get(f"/console/?{query}").context["rows"]}

    assert ids("kind=failure") == {failure.pk}
    assert ids("reason=missing_knowledge") == {late.pk}
    assert ids("overdue=yes") == {late.pk}
    assert ids("overdue=no") == {mine.pk, theirs.pk, failure.pk}
    assert ids("mine=1") == {mine.pk}
    assert ids("unclaimed=1") == {failure.pk, late.pk}
    assert ids("kind=nonsense") == {mine.pk, theirs.pk, failure.pk, late.pk}


def test_the_queue_leaves_out_decided_escalations(op1: User) -> None:
    decided = escalation_for()
    escalation_decide(escalation_id=decided.pk, user=op1, decision="approve")
    open_one = escalation_for()

    response = signed_in(op1).get("/console/")

    assert [row.escalation.pk for row in response.context["rows"]] == [open_one.pk]


def test_the_queue_pages_with_the_selectors_cursor(op1: User) -> None:
    made = [with_deadline(escalation_for(), minutes) for minutes in range(60, 120)]
    client = signed_in(op1)

    first = client.get("/console/")
    cursor = first.context["next_cursor"]
    second = client.get("/console/", {"cursor": cursor})

    assert [r.escalation.pk for r in first.context["rows"]] == [e.pk for e in made[:50]]
    assert [r.escalation.pk for r in second.context["rows"]] == [e.pk for e in made[50:]]
    assert second.context["next_cursor"] is None
    assert 'id="next-page"' in page_text(first)
    assert 'id="first-page"' in page_text(second)


def test_a_cursor_the_queue_did_not_give_out_is_a_400(op1: User) -> None:
    response = signed_in(op1).get("/console/", {"cursor": "bm9wZQ"})

    assert response.status_code == 400
    assert "The cursor is not one this API gave out." in page_text(response)


def test_the_queue_page_runs_ten_queries_however_many_rows(
    op1: User, django_assert_num_queries: Any
) -> None:
    def make(count: int) -> None:
        for n in range(count):
            escalation = escalation_for(inquiry_for(text=f"問い合わせ {n}"))
            if n % 3 == 0:
                escalation_claim(escalation_id=escalation.pk, user=op1)

    client = signed_in(op1)
    make(1)
    client.get("/console/")  # the first visit records the queue's view in the session, once
    with CaptureQueriesContext(connection) as one_row:
        client.get("/console/")
    make(29)

    # the session, its user, the user's role groups, their display preferences, the last
    # event's sequence number (where the live feed resumes), the open count (the tab title),
    # the page of escalations, their inquiries with their customers, what the rows' headlines
    # are made of, and the user's notification switches (the preferences form)
    with django_assert_num_queries(10):
        response = client.get("/console/")
    with CaptureQueriesContext(connection) as thirty_rows:
        client.get("/console/")

    assert len(response.context["rows"]) == 30
    assert len(thirty_rows) == len(one_row)  # no query per row


def test_one_row_is_served_while_it_still_matches_the_filters(op1: User, op2: User) -> None:
    escalation = escalation_for()
    client = signed_in(op1)

    before = client.get("/console/rows", {"id": str(escalation.pk), "unclaimed": "1"})
    escalation_claim(escalation_id=escalation.pk, user=op2)
    after = client.get("/console/rows", {"id": str(escalation.pk), "unclaimed": "1"})
    unfiltered = client.get("/console/rows", {"id": str(escalation.pk)})

    assert f'data-escalation-id="{escalation.pk}"' in page_text(before)
    assert page_text(after) == ""
    assert '<span class="badge claim">op2</span>' in page_text(unfiltered)


def test_a_decided_or_unknown_row_comes_back_empty(op1: User) -> None:
    escalation = escalation_for()
    escalation_decide(escalation_id=escalation.pk, user=op1, decision="approve")
    client = signed_in(op1)

    assert page_text(client.get("/console/rows", {"id": str(escalation.pk)})) == ""
    assert page_text(client.get("/console/rows", {"id": "not-an-id"})) == ""


def test_the_rows_fragment_says_up_to_which_event_it_is_current(op1: User) -> None:
    escalation = escalation_for()

    response = signed_in(op1).get("/console/rows")

    assert f'id="row-{escalation.pk}"' in page_text(response)
    assert int(response["X-Console-Seq"]) >= 1
    assert "<html" not in page_text(response)


def test_the_queue_shows_customer_text_inert(op1: User) -> None:
    escalation_for(inquiry_for(text=HOSTILE))

    text = page_text(signed_in(op1).get("/console/"))

    assert HOSTILE_ESCAPED in text
    assert "<script>alert(1)" not in text
    assert "<img src=x" not in text


def test_the_queue_lists_its_keyboard_shortcuts_and_live_hooks(op1: User) -> None:
    text = page_text(signed_in(op1).get("/console/"))

    for hook in (
        'id="queue-body"',
        'id="reconnecting-banner"',
        'data-socket-path="/ws/console/"',
        'id="shortcuts"',
        "<kbd>j</kbd>",
        "<kbd>c</kbd>",
        "js/console/main.js",
    ):
        assert hook in text


def test_the_queue_carries_its_failure_notices_in_the_operators_language(op1: User) -> None:
    StaffPreference.objects.create(user=op1, language="ja", time_zone="Asia/Tokyo")

    text = page_text(signed_in(op1).get("/console/"))

    assert (
        '<div id="refresh-failed-banner" class="banner warn" role="status" hidden>'
        "更新できませんでした。再試行しています…</div>"
    ) in text
    assert 'data-send-failed="送信できませんでした。もう一度お試しください。"' in text
    assert '<script type="module" src="/static/js/console/main.js"></script>' in text


# --- One escalation -------------------------------------------------------------------------


def test_the_approve_button_says_exactly_what_happens(op1: User, escalation: Escalation) -> None:
    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    assert (
        '<button type="submit" id="approve-button" class="primary big" data-decision="approve">'
        "Approve refund of ¥12,800 to ORD-4003</button>"
    ) in text


def test_a_cancellation_is_approved_by_its_own_words(op1: User) -> None:
    inquiry = inquiry_for()
    escalation = escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:cancel",
        kind="approval",
        reason="approval_required",
        summary="cancel",
        package={},
        actions=[cast(PendingAction, CANCEL_ACTION)],
    )

    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    assert ">Approve cancellation of ORD-4001</button>" in text
    assert 'id="edit-amount"' not in text  # only the reason of a cancellation can change


def test_the_approve_button_speaks_japanese_to_a_japanese_operator(
    op1: User, escalation: Escalation
) -> None:
    StaffPreference.objects.create(user=op1, language="ja", time_zone="Asia/Tokyo")

    response = signed_in(op1).get(f"/console/escalations/{escalation.pk}/")

    text = page_text(response)
    assert ">ORD-4003 への ¥12,800 の返金を承認</button>" in text
    assert '<html lang="ja">' in text
    assert response["Content-Language"] == "ja"


def test_the_detail_page_lays_out_the_hand_off_package(op1: User) -> None:
    inquiry = inquiry_for(text="ORD-4003が壊れていました")
    package = {
        "inquiry": {"text": inquiry.text, "customer_id": inquiry.customer.code},
        "subtasks": [
            {"agent": "order", "status": "success", "message": "get_order_details: done"},
            {"agent": "payment", "status": "escalate", "error_code": "approval_required"},
        ],
        "errors": [{"agent": "shipping", "code": "carrier_timeout", "message": "no answer"}],
        "plan": [{"step": 1, "agent": "order", "intent": "get_order_details", "status": "done"}],
        "plan_history": [{"kind": "plan", "steps": []}, {"kind": "replan", "steps": []}],
        "history": [{"role": "human", "content": inquiry.text}],
        "draft_reply": "確認しております。",
    }
    action = {
        "action_id": "a1",
        "kind": "process_refund",
        "params": {"order_number": "ORD-4003", "amount": 12800, "reason": "damaged item"},
        "amount_at_risk": 12800,
        "checks": [
            {"name": "payment_captured", "passed": True, "detail": "payment is captured"},
            {"name": "within_refundable", "passed": False, "detail": "too much"},
        ],
        "facts": {
            "number": "ORD-4003",
            "status": "delivered",
            "total": 12800,
            "payment": {"captured": 12800, "refunded": 1000, "refundable": 11800},
            "shipment": {"status": "delivered", "carrier": "Yamato"},
            "refunds": [{"amount": 1000, "reason": "coupon"}],
        },
    }
    escalation = escalation_record_wait(
        inquiry=inquiry,
        wait_key="k",
        kind="approval",
        reason="approval_required",
        summary="s",
        package=package,
        actions=[cast(PendingAction, action)],
    )

    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    assert 'id="customer-message" class="customer-text">ORD-4003が壊れていました<' in text
    assert "<strong>Why:</strong> damaged item" in text
    assert '<li class="check pass" data-check="payment_captured">' in text
    assert '<li class="check fail" data-check="within_refundable">' in text
    assert '<dd id="fact-captured">¥12,800</dd>' in text
    assert "<dt>Already refunded</dt><dd>¥1,000</dd>" in text
    assert "<li>¥1,000 <span" in text  # the prior refund
    assert "Yamato" in text
    assert '<td>Orders</td><td><span class="badge ok">answered</span></td>' in text
    assert "approval required" in text  # the payment specialist's code, in words
    assert "get_order_details: done" not in text  # the run's note for engineers
    assert '<li data-code="carrier_timeout"><span>Shipping</span>' in text
    assert "2 revisions" in text
    assert 'id="draft-reply" class="customer-text reply">確認しております。<' in text
    assert 'id="timeline"' in text
    assert "Escalated to a person" in text


def test_the_customer_message_is_shown_inert_everywhere(op1: User) -> None:
    escalation = escalation_for(inquiry_for(text=HOSTILE))

    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    assert f'<blockquote id="customer-message" class="customer-text">{HOSTILE_ESCAPED}' in text
    assert "<script>alert(1)" not in text
    assert "<img src=x" not in text


def test_a_failure_offers_take_over_only(op1: User) -> None:
    escalation = escalation_for(kind="failure", reason="tool_failure")

    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    assert 'id="approve-button"' not in text
    assert 'id="reject-form"' not in text
    assert 'id="take-over-form"' in text
    assert '<details id="take-over-panel" open>' in text


def test_a_refused_decision_reopens_its_own_form(op1: User, escalation: Escalation) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    client = signed_in(op1)

    take_over = page_text(decide(client, escalation, decision="take_over", reply=" "))
    edit = page_text(decide(client, escalation, decision="edit", amount="0"))

    assert '<details id="take-over-panel" open>' in take_over
    assert '<details id="edit-panel">' in take_over
    assert '<details id="edit-panel" open>' in edit
    assert '<details id="take-over-panel">' in edit
    assert Escalation.objects.get(pk=escalation.pk).status == EscalationStatus.OPEN


def test_an_unknown_escalation_is_a_404(op1: User) -> None:
    client = signed_in(op1)
    nobody = "00000000-0000-0000-0000-000000000000"

    assert client.get(f"/console/escalations/{nobody}/").status_code == 404
    assert client.get("/console/escalations/not-a-uuid/").status_code == 404


def test_the_detail_page_shows_the_customers_earlier_inquiries_only(op1: User) -> None:
    customer = CustomerFactory.create()
    earlier = inquiry_for(customer, text="前回の注文について <b>質問</b>")
    Inquiry.objects.filter(pk=earlier.pk).update(status="resolved", reply="ご回答しました。")
    inquiry_for(text="someone else's question")  # another customer's
    escalation = escalation_for(inquiry_for(customer, text="返金してください"))

    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    shown = text.split('id="earlier-inquiries"')[1].split("</ol>")[0]
    assert "前回の注文について &lt;b&gt;質問&lt;/b&gt;" in shown  # inert, like every customer text
    assert "ご回答しました。" in shown
    assert "resolved" in shown
    assert "someone else" not in shown
    assert "返金してください" not in shown  # this inquiry is not an earlier one


def test_the_timeline_says_how_a_decided_escalation_ended(op1: User) -> None:
    failure = escalation_for(kind="failure", reason="tool_failure")
    client = signed_in(op1)
    decide(client, failure, decision="take_over", reply="I will call you today.")

    text = page_text(client.get(f"/console/escalations/{failure.pk}/"))

    newest = re.findall(r'<li class="event" data-seq="\d+">(.*?)</li>', text)[-1]
    assert "<strong>Resolved after the decision</strong>" in newest
    assert '<span class="muted">handled by a person</span>' in newest


def test_a_failed_refund_offers_one_click_retry_give_up_or_take_over(op1: User) -> None:
    failed = escalation_for(kind="failure", reason="action_failed")

    text = page_text(signed_in(op1).get(f"/console/escalations/{failed.pk}/"))

    assert ">Retry refund of ¥12,800 to ORD-4003</button>" in text
    assert 'id="retry-note"' in text
    assert 'id="reject-form"' in text
    assert 'id="take-over-form"' in text
    assert 'id="edit-form"' not in text


def test_the_detail_page_shows_each_hand_offs_verdict_the_unhealthy_first(
    op1: User, escalation: Escalation
) -> None:
    Inquiry.objects.filter(pk=escalation.inquiry_id).update(
        handoffs=[
            {"receiver": "order", "verdict": "HEALTHY"},
            {"receiver": "payment", "verdict": "WAITING_ON_APPROVAL"},
            {"receiver": "shipping", "verdict": "OPEN_TOOL_PROTOCOL"},
        ]
    )

    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    shown = re.findall(
        r'data-verdict="(\w+)"><span>(\w+)</span> <span class="badge verdict (\w+)">([\w ]+)<',
        text,
    )
    assert shown == [
        ("WAITING_ON_APPROVAL", "Payments", "warn", "waiting for approval"),
        ("OPEN_TOOL_PROTOCOL", "Shipping", "bad", "tool call left open"),
        ("HEALTHY", "Orders", "ok", "healthy"),
    ]


def test_the_detail_page_shows_a_claim_by_someone_else_and_locks_the_controls(
    op1: User, op2: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op2)

    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    assert "Claimed by op2: only they can decide or release it." in text
    assert '<fieldset id="decision-controls" disabled>' in text
    assert 'id="claim-button"' not in text


def test_the_live_panel_shows_the_decision_and_the_reply_sent(
    op1: User, escalation: Escalation
) -> None:
    escalation_decide(
        escalation_id=escalation.pk,
        user=op1,
        decision="reject",
        reason="no proof",
        confirm_language=True,
    )
    Inquiry.objects.filter(pk=escalation.inquiry_id).update(
        status=InquiryStatus.RESOLVED, reply="申し訳ございません。", resolved_at=timezone.now()
    )

    response = signed_in(op1).get(f"/console/escalations/{escalation.pk}/live")

    text = page_text(response)
    assert 'data-state="decided"' in text
    assert "Decided: rejected by op1 at" in text
    assert "<ins>no proof</ins>" in text
    assert 'data-status="resolved"' in text
    assert 'id="final-reply" class="customer-text reply">申し訳ございません。<' in text
    assert "<html" not in text


def test_times_are_shown_in_the_operators_time_zone(op1: User, escalation: Escalation) -> None:
    escalation.deadline = dt.datetime(2030, 1, 2, 3, 4, tzinfo=dt.UTC)
    escalation.save(update_fields=["deadline"])
    StaffPreference.objects.create(user=op1, language="en", time_zone="America/New_York")
    client = signed_in(op1)

    detail = page_text(client.get(f"/console/escalations/{escalation.pk}/"))
    StaffPreference.objects.filter(user=op1).update(time_zone="Asia/Tokyo")
    in_tokyo = page_text(client.get(f"/console/escalations/{escalation.pk}/"))

    assert ">2030-01-01 22:04</time>" in detail
    assert ">2030-01-02 12:04</time>" in in_tokyo


def test_the_preferences_are_saved_per_user(op1: User, op2: User) -> None:
    response = signed_in(op1).post(
        "/console/preferences",
        {"language": "ja", "time_zone": "Europe/Berlin", "next": "/console/?kind=failure"},
    )

    assert response.status_code == 302
    assert response["Location"] == "/console/?kind=failure"
    saved = StaffPreference.objects.get(user=op1)
    assert (saved.language, saved.time_zone) == ("ja", "Europe/Berlin")
    assert "エスカレーションキュー" in page_text(signed_in(op1).get("/console/"))
    assert "Escalation queue" in page_text(signed_in(op2).get("/console/"))


def test_an_unknown_time_zone_or_an_outside_next_is_refused(op1: User) -> None:
    response = signed_in(op1).post(
        "/console/preferences",
        {"language": "ja", "time_zone": "Mars/Olympus", "next": "https://evil.example/"},
    )

    assert response["Location"] == "/console/"
    assert not StaffPreference.objects.filter(user=op1).exists()


# --- Claims and decisions -------------------------------------------------------------------


def test_a_claim_is_recorded_and_a_second_operator_is_told_who_holds_it(
    op1: User, op2: User, escalation: Escalation
) -> None:
    first = signed_in(op1).post(f"/console/escalations/{escalation.pk}/claim")
    second = signed_in(op2).post(f"/console/escalations/{escalation.pk}/claim")

    assert first.status_code == 302
    assert first["Location"] == f"/console/escalations/{escalation.pk}/"
    assert second.status_code == 409
    assert "Claimed by op1: only they can decide or release it." in page_text(second)
    escalation.refresh_from_db()
    assert escalation.claimed_by == op1


def test_a_claim_from_the_queue_answers_in_json(
    op1: User, op2: User, escalation: Escalation
) -> None:
    url = f"/console/escalations/{escalation.pk}/claim"

    mine = signed_in(op1).post(url, HTTP_ACCEPT="application/json")
    theirs = signed_in(op2).post(url, HTTP_ACCEPT="application/json")

    assert (mine.status_code, mine.json()) == (200, {"ok": True, "message": "Claimed."})
    assert theirs.status_code == 409
    assert theirs.json() == {
        "ok": False,
        "message": "Claimed by op1: only they can decide or release it.",
    }


def test_a_release_puts_it_back_and_only_the_holder_may_release(
    op1: User, op2: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)

    refused = signed_in(op2).post(f"/console/escalations/{escalation.pk}/release")
    escalation.refresh_from_db()
    assert (refused.status_code, escalation.claimed_by) == (409, op1)

    released = signed_in(op1).post(f"/console/escalations/{escalation.pk}/release")
    escalation.refresh_from_db()
    assert (released.status_code, escalation.claimed_by) == (302, None)


def test_one_click_approves_and_the_run_resumes_after_commit(
    op1: User, escalation: Escalation, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as after_commit:
        response = decide(signed_in(op1), escalation, decision="approve")

    assert response.status_code == 302
    assert response["Location"] == "/console/"  # on to the next item: none is left
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.DECIDED
    assert escalation.decision == {
        "decision": "approve",
        "params": {},
        "reason": "",
        "reply": "",
        "operator": "op1",
    }
    assert escalation.decided_by == op1
    assert len(after_commit) == 2  # the decided event, and the resume


def test_a_second_operator_is_told_who_decided_and_nothing_runs_twice(
    op1: User, op2: User, escalation: Escalation, django_capture_on_commit_callbacks: Any
) -> None:
    decide(signed_in(op1), escalation, decision="approve")

    with django_capture_on_commit_callbacks() as after_commit:
        response = decide(signed_in(op2), escalation, decision="approve")

    assert response.status_code == 409
    escalation.refresh_from_db()
    when = timezone.localtime(escalation.decided_at).strftime("%Y-%m-%d %H:%M")
    assert f"Already approved by op1 at {when}." in page_text(response)
    assert after_commit == []
    assert escalation.decided_by == op1


def test_a_double_click_executes_once(
    op1: User, escalation: Escalation, django_capture_on_commit_callbacks: Any
) -> None:
    client = signed_in(op1)

    with django_capture_on_commit_callbacks() as after_commit:
        first = decide(client, escalation, decision="approve")
        second = decide(client, escalation, decision="approve")

    assert (first.status_code, second.status_code) == (302, 409)
    assert len(after_commit) == 2  # one decided event and one resume, from the first click


def test_a_rejection_without_a_reason_is_refused_and_changes_nothing(
    op1: User, escalation: Escalation, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as after_commit:
        response = decide(signed_in(op1), escalation, decision="reject", reason="  ")

    assert response.status_code == 422
    assert "A rejection needs a reason the customer can be told." in page_text(response)
    escalation.refresh_from_db()
    assert (escalation.status, escalation.decision) == (EscalationStatus.OPEN, None)
    assert after_commit == []


def test_a_rejection_with_a_reason_is_recorded(op1: User, escalation: Escalation) -> None:
    decide(
        signed_in(op1),
        escalation,
        decision="reject",
        reason="no photo of the damage",
        confirm_language="on",
    )

    escalation.refresh_from_db()
    assert escalation.decision == {
        "decision": "reject",
        "params": {},
        "reason": "no photo of the damage",
        "reply": "",
        "operator": "op1",
    }


def test_an_edit_is_validated_by_the_shops_rules(op1: User, escalation: Escalation) -> None:
    client = signed_in(op1)

    too_much = decide(client, escalation, decision="edit", amount="20000", reason="damaged")
    not_a_number = decide(client, escalation, decision="edit", amount="lots")
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.OPEN
    partial = decide(
        client,
        escalation,
        decision="edit",
        amount="5000",
        reason="partial",
        reply="Half back.",
        confirm_language="on",
    )

    assert too_much.status_code == 422
    assert "At most ¥12,800 can be refunded." in page_text(too_much)
    assert 'value="20000"' in page_text(too_much)  # what the operator typed stays
    assert not_a_number.status_code == 422
    assert partial.status_code == 302
    escalation.refresh_from_db()
    assert escalation.decision is not None
    assert escalation.decision["params"] == {"amount": 5000, "reason": "partial"}
    assert escalation.decision["reply"] == "Half back."


def test_taking_over_a_failure_hands_the_inquiry_to_the_operator(op1: User) -> None:
    escalation = escalation_for(kind="failure", reason="tool_failure")
    client = signed_in(op1)

    empty = decide(client, escalation, decision="take_over", reply="")
    done = decide(client, escalation, decision="take_over", reply="I will refund you today.")

    assert empty.status_code == 422
    assert "Taking over needs the reply to send." in page_text(empty)
    assert done.status_code == 302
    inquiry = Inquiry.objects.get(pk=escalation.inquiry_id)
    assert (inquiry.status, inquiry.reply) == (
        InquiryStatus.HANDLED_BY_HUMAN,
        "I will refund you today.",
    )


def test_a_failure_cannot_be_approved(op1: User) -> None:
    escalation = escalation_for(kind="failure", reason="tool_failure")

    response = decide(signed_in(op1), escalation, decision="approve")

    assert response.status_code == 422
    assert "That decision is not possible for this escalation." in page_text(response)
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.OPEN


def test_a_conflict_is_told_in_the_operators_language(
    op1: User, op2: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op2)
    StaffPreference.objects.create(user=op1, language="ja")

    response = decide(signed_in(op1), escalation, decision="approve")

    assert response.status_code == 409
    assert "op2 さんが担当中です。判断や担当解除ができるのはその方だけです。" in page_text(response)


def test_csrf_is_enforced_on_every_post(op1: User, escalation: Escalation) -> None:
    client = signed_in(op1, enforce_csrf=True)
    base = f"/console/escalations/{escalation.pk}"

    refused = [
        client.post(f"{base}/claim").status_code,
        client.post(f"{base}/release").status_code,
        client.post(f"{base}/decide", {"decision": "approve"}).status_code,
        client.post("/console/preferences", {"language": "ja", "time_zone": "UTC"}).status_code,
    ]

    assert refused == [403, 403, 403, 403]
    escalation.refresh_from_db()
    assert (escalation.status, escalation.claimed_by) == (EscalationStatus.OPEN, None)


def test_a_post_with_the_pages_csrf_token_is_accepted(op1: User, escalation: Escalation) -> None:
    client = signed_in(op1, enforce_csrf=True)
    page = page_text(client.get(f"/console/escalations/{escalation.pk}/"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None

    response = decide(client, escalation, decision="approve", csrfmiddlewaretoken=token[1])

    assert response.status_code == 302
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.DECIDED


def test_the_decision_controls_carry_the_ids_browser_tests_use(
    op1: User, escalation: Escalation
) -> None:
    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    for hook in (
        f'data-escalation-id="{escalation.pk}"',
        'id="approve-form"',
        'id="edit-form"',
        'id="edit-amount"',
        'id="reject-reason"',
        'id="reject-button"',
        'id="take-over-reply"',
        'id="claim-button"',
        'id="viewers"',
        'id="live-panel"',
        'id="status-card"',
        'id="reconnecting-banner"',
        f'data-socket-path="/ws/console/escalations/{escalation.pk}/"',
    ):
        assert hook in text


def _row_html(text: str, escalation: Escalation) -> str:
    match = re.search(rf'<tr id="row-{escalation.pk}".*?</tr>', text, re.S)
    assert match is not None, f"no row for {escalation.pk}"
    return match[0]


def test_a_refusal_is_told_in_the_operators_language_from_the_same_catalogue(
    op1: User, escalation: Escalation
) -> None:
    StaffPreference.objects.create(user=op1, language="ja", time_zone="Asia/Tokyo")
    client = signed_in(op1)

    too_much = decide(client, escalation, decision="edit", amount="20000", reason="damaged")
    api = client.post(
        f"/api/v1/escalations/{escalation.pk}/decide",
        '{"decision": "edit", "params": {"amount": 20000}}',
        content_type="application/json",
        headers={"Accept-Language": "ja"},
    )

    # The console tells the catalogue's message translated; the API keeps its English body.
    assert too_much.status_code == 422
    assert "返金できるのは最大 ¥12,800 です。" in page_text(too_much)
    assert (api.status_code, api.json()) == (
        422,
        {"code": "refund_exceeds_captured", "message": "At most ¥12,800 can be refunded."},
    )
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.OPEN


def test_the_preferences_form_saves_the_notification_switches(op1: User) -> None:
    client = signed_in(op1)

    client.post(
        "/console/preferences",
        {"language": "", "time_zone": "UTC", "notifications": "1", "browser_alerts": "on"},
    )

    saved = NotificationPreference.objects.get(user=op1)
    assert saved.browser_alerts is True
    assert (saved.email_large_approval, saved.email_deadline_soon, saved.email_overdue) == (
        False,
        False,
        False,
    )


def test_a_language_switch_alone_leaves_the_notification_switches(op1: User) -> None:
    client = signed_in(op1)

    client.post("/console/preferences", {"language": "ja", "time_zone": "UTC"})

    assert not NotificationPreference.objects.filter(user=op1).exists()


def test_the_queue_shows_the_open_count_in_its_title_and_its_rows_header(op1: User) -> None:
    escalation_for()
    escalation_for()
    client = signed_in(op1)

    page = client.get("/console/")
    rows = client.get("/console/rows")

    assert "<title>(2) Escalation queue · NetShop</title>" in page.content.decode()
    assert rows["X-Open-Count"] == "2"
