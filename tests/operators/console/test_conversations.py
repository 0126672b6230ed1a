"""The console's conversations: the inbox, one thread, and the composer operators converse with.

Given conversations as customers, the AI and operators leave them, when staff open the inbox
and a conversation and post take-overs, messages, notes, hand-backs, closes and flags, then
every page checks the role, each post goes through the conversation services (which refuse
what is not the poster's to do, and nothing changes then), notes never reach the customer,
canned replies come in the customer's language, and customer text stays inert.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from agents.models import (
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from agents.support.catalogue import say
from agents.support.conversations.messages import message_store
from agents.support.conversations.selectors import thread_messages
from agents.support.conversations.services import (
    conversation_take_over,
    note_add,
    operator_message_send,
)
from agents.support.escalations.review_flags import conversation_flag
from netshop.models import Language
from netshop.roles import Role
from operators.models import CannedReply
from tests.factories import CustomerFactory, OrderFactory
from tests.operators.api_helpers import escalation_for, inquiry_for, signed_in, staff_user
from tests.operators.console.test_views import HOSTILE, HOSTILE_ESCAPED, caller, page_text

pytestmark = pytest.mark.django_db


def base(inquiry: Inquiry) -> str:
    return f"/console/conversations/{inquiry.pk}"


def ai_resolved(inquiry: Inquiry, reply: str = "ORD-4002は配送中です。") -> Inquiry:
    """``inquiry`` as a run leaves it when the AI answered and nobody else wrote."""
    message_store(inquiry=inquiry, author_kind=MessageAuthor.AI, text=reply, channel="web")
    inquiry.status, inquiry.reply = InquiryStatus.RESOLVED, reply
    inquiry.save(update_fields=["status", "reply", "updated_at"])
    return inquiry


def kinds(inquiry: Inquiry) -> list[tuple[str, str]]:
    return [(m.author_kind, m.text) for m in inquiry.messages.order_by("created_at", "id")]


def owner_of(inquiry: Inquiry) -> str | None:
    inquiry.refresh_from_db()
    return inquiry.human_owner.username if inquiry.human_owner else None


@pytest.fixture
def inquiry() -> Inquiry:
    return inquiry_for(text="荷物がまだ届きません")


@pytest.fixture
def lead() -> User:
    return staff_user("lead", Role.MANAGER)


# --- Who may see what -----------------------------------------------------------------------

PAGES = [
    ("get", "/console/conversations/"),
    ("get", "{base}/"),
    ("get", "{base}/thread"),
    ("get", "{base}/composer"),
    ("post", "{base}/take-over"),
    ("post", "{base}/send"),
    ("post", "{base}/note"),
    ("post", "{base}/hand-back"),
    ("post", "{base}/close"),
]


@pytest.mark.parametrize(("method", "path"), PAGES)
@pytest.mark.parametrize(
    ("who", "admitted"),
    [
        ("anonymous", False),
        ("customer", False),
        ("staff_without_role", False),
        ("operator", True),
        ("manager", True),
    ],
)
def test_conversation_pages_admit_operators_and_managers_only(
    inquiry: Inquiry, method: str, path: str, who: str, admitted: bool
) -> None:
    response = getattr(caller(who), method)(path.format(base=base(inquiry)), {"text": "hello"})

    if who == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")
    elif not admitted:
        assert response.status_code == 403
    else:  # pages 200, accepted posts redirect, posts the service refuses 409
        assert response.status_code in (200, 302, 409)
    if not admitted:
        assert owner_of(inquiry) is None
        assert kinds(inquiry) == [("customer", "荷物がまだ届きません")]


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("customer", 403), ("staff_without_role", 403), ("operator", 403)],
)
def test_only_a_lead_may_flag_a_conversation(inquiry: Inquiry, who: str, status: int) -> None:
    ai_resolved(inquiry)

    response = caller(who).post(f"{base(inquiry)}/flag", {"reason": "wrong order"})

    assert response.status_code == status
    assert not Escalation.objects.filter(inquiry=inquiry).exists()


@pytest.mark.parametrize(
    "path", ["/", "/thread", "/composer", "/take-over", "/send", "/note", "/hand-back", "/close"]
)
def test_an_unknown_conversation_is_a_404(op1: User, path: str) -> None:
    url = f"/console/conversations/00000000-0000-0000-0000-000000000000{path}"
    client = signed_in(op1)

    response = client.get(url) if path in ("/", "/thread", "/composer") else client.post(url)

    assert response.status_code == 404
    assert Message.objects.count() == 0


def test_every_post_needs_the_pages_csrf_token(op1: User, inquiry: Inquiry) -> None:
    client = signed_in(op1, enforce_csrf=True)

    refused = [
        client.post(f"{base(inquiry)}/{action}", {"text": "hi"}).status_code
        for action in ("take-over", "send", "note", "hand-back", "close")
    ]

    assert refused == [403] * 5
    assert owner_of(inquiry) is None
    assert kinds(inquiry) == [("customer", "荷物がまだ届きません")]


# --- The thread -------------------------------------------------------------------------------


def test_the_thread_shows_every_author_with_time_channel_and_language(
    op1: User, inquiry: Inquiry
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)
    operator_message_send(inquiry_id=inquiry.pk, user=op1, text="Checking with the carrier.")
    note_add(inquiry_id=inquiry.pk, user=op1, text="Carrier says depot.")
    message_store(inquiry=inquiry, author_kind=MessageAuthor.AI, text="配送中です。", channel="web")

    text = page_text(signed_in(op1).get(f"{base(inquiry)}/"))

    items = re.findall(r'<li class="msg author-(\w+)" data-message-id="[^"]+"', text)
    assert items == ["customer", "operator", "note", "ai"]
    assert '<span class="msg-kind">internal note</span> <span class="msg-author">op1</span>' in text
    assert '<span class="msg-meta muted">console · English</span>' in text
    assert '<span class="msg-meta muted">web form · Japanese</span>' in text
    assert 'data-label-note="internal note"' in text


def test_customer_text_is_inert_in_the_thread_the_fragment_and_the_inbox(op1: User) -> None:
    inquiry = inquiry_for(text=HOSTILE)
    client = signed_in(op1)

    for url in (f"{base(inquiry)}/", f"{base(inquiry)}/thread", "/console/conversations/"):
        text = page_text(client.get(url))
        assert HOSTILE_ESCAPED in text, url
        assert "<script>alert(1)" not in text
        assert "<img src=x" not in text


def test_only_customer_messages_nobody_answered_are_marked_unanswered(
    op1: User, inquiry: Inquiry
) -> None:
    client = signed_in(op1)
    before = page_text(client.get(f"{base(inquiry)}/thread"))
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)
    operator_message_send(inquiry_id=inquiry.pk, user=op1, text="Checking.")
    message_store(inquiry=inquiry, author_kind=MessageAuthor.CUSTOMER, text="まだ?", channel="web")

    after = page_text(client.get(f"{base(inquiry)}/thread"))

    assert before.count("not answered yet") == 1
    assert after.count("not answered yet") == 1
    assert after.index("not answered yet") > after.index("Checking.")


def test_the_thread_fragment_is_the_list_alone(op1: User, inquiry: Inquiry) -> None:
    response = signed_in(op1).get(f"{base(inquiry)}/thread")

    assert response.status_code == 200
    assert "<html" not in page_text(response)
    assert page_text(response).count('class="msg author-customer"') == 1


def test_the_escalation_page_shows_the_live_thread_with_notes(op1: User) -> None:
    from tests.operators.api_helpers import escalation_for

    escalation = escalation_for()
    note_add(inquiry_id=escalation.inquiry_id, user=op1, text="Called the customer.")

    text = page_text(signed_in(op1).get(f"/console/escalations/{escalation.pk}/"))

    assert f'data-thread-url="/console/conversations/{escalation.inquiry_id}/thread"' in text
    assert re.findall(r'<li class="msg author-(\w+)"', text) == ["customer", "note"]
    assert "Called the customer." in text
    assert f'href="/console/conversations/{escalation.inquiry_id}/"' in text


# --- The composer -----------------------------------------------------------------------------


def test_an_operator_takes_over_writes_twice_notes_and_hands_back(
    op1: User, inquiry: Inquiry
) -> None:
    client = signed_in(op1)

    taken = client.post(f"{base(inquiry)}/take-over")
    first = client.post(f"{base(inquiry)}/send", {"text": "Checking now."})
    second = client.post(f"{base(inquiry)}/send", {"text": "It is at the depot."})
    noted = client.post(f"{base(inquiry)}/note", {"text": "Depot confirmed by phone."})
    page = page_text(client.get(f"{base(inquiry)}/"))
    handed = client.post(f"{base(inquiry)}/hand-back")

    assert [r.status_code for r in (taken, first, second, noted, handed)] == [302] * 5
    assert handed["Location"] == f"{base(inquiry)}/"
    assert kinds(inquiry) == [
        ("customer", "荷物がまだ届きません"),
        ("operator", "Checking now."),
        ("operator", "It is at the depot."),
        ("note", "Depot confirmed by phone."),
    ]
    assert 'id="send-button"' in page
    assert 'id="hand-back-button"' in page
    assert "Note added: only staff see it." in page
    assert owner_of(inquiry) is None
    assert inquiry.status == InquiryStatus.AWAITING_CUSTOMER


def test_the_owner_closes_the_conversation(op1: User, inquiry: Inquiry) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    response = signed_in(op1).post(f"{base(inquiry)}/close")

    assert response.status_code == 302
    assert owner_of(inquiry) is None
    assert inquiry.status == InquiryStatus.RESOLVED


def test_before_a_take_over_only_taking_over_and_notes_show(op1: User, inquiry: Inquiry) -> None:
    text = page_text(signed_in(op1).get(f"{base(inquiry)}/"))

    assert 'id="take-over-conversation"' in text
    assert 'id="note-button"' in text
    for hidden in ('id="send-button"', 'id="hand-back-button"', 'id="close-button"'):
        assert hidden not in text
    assert "The AI answers this conversation." in text


def test_another_operator_sees_who_owns_it_and_no_owner_buttons(
    op1: User, op2: User, inquiry: Inquiry
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    text = page_text(signed_in(op2).get(f"{base(inquiry)}/"))

    assert "Taken over by op1: only they can write to the customer." in text
    for hidden in (
        'id="take-over-conversation"',
        'id="send-button"',
        'id="hand-back-button"',
        'id="close-button"',
    ):
        assert hidden not in text
    assert 'id="note-button"' in text  # anyone on staff may leave a note


@pytest.mark.parametrize("action", ["send", "hand-back", "close"])
def test_the_server_refuses_another_operators_owner_actions(
    op1: User, op2: User, inquiry: Inquiry, action: str
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    response = signed_in(op2).post(f"{base(inquiry)}/{action}", {"text": "I'll answer too"})

    assert response.status_code == 409
    assert "The conversation is taken over by op1." in page_text(response)
    assert 'id="composer-error"' in page_text(response)
    assert owner_of(inquiry) == "op1"
    assert inquiry.status == InquiryStatus.HANDLED_BY_HUMAN
    assert kinds(inquiry) == [("customer", "荷物がまだ届きません")]


def test_taking_over_a_taken_conversation_names_the_owner(
    op1: User, op2: User, inquiry: Inquiry
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    response = signed_in(op2).post(f"{base(inquiry)}/take-over")

    assert response.status_code == 409
    assert "Already taken over by op1." in page_text(response)
    assert owner_of(inquiry) == "op1"


def test_writing_before_taking_over_is_refused(op1: User, inquiry: Inquiry) -> None:
    response = signed_in(op1).post(f"{base(inquiry)}/send", {"text": "hello"})

    assert response.status_code == 409
    assert "Take the conversation over before writing to the customer." in page_text(response)
    assert kinds(inquiry) == [("customer", "荷物がまだ届きません")]


def test_a_blank_message_or_note_is_refused_and_nothing_is_stored(
    op1: User, inquiry: Inquiry
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)
    client = signed_in(op1)

    blank = client.post(f"{base(inquiry)}/send", {"text": "   "})
    note = client.post(f"{base(inquiry)}/note", {"text": "\u3000"})

    assert (blank.status_code, note.status_code) == (422, 422)
    assert "The message shows nothing: please write it in words." in page_text(blank)
    assert kinds(inquiry) == [("customer", "荷物がまだ届きません")]


def test_a_refusal_is_told_in_the_operators_language(
    op1: User, op2: User, inquiry: Inquiry
) -> None:
    from operators.models import StaffPreference

    StaffPreference.objects.create(user=op2, language="ja")
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    response = signed_in(op2).post(f"{base(inquiry)}/send", {"text": "hello"})

    assert response.status_code == 409
    assert "この会話は op1 が引き継いでいます。" in page_text(response)


def test_notes_never_reach_the_customers_view(op1: User) -> None:
    customer_login = User.objects.create_user("buyer", password="x")
    customer = CustomerFactory.create(user=customer_login)
    inquiry = inquiry_for(customer, text="届きません")
    client = signed_in(op1)
    client.post(f"{base(inquiry)}/take-over")
    client.post(f"{base(inquiry)}/send", {"text": "Looking into it."})
    client.post(f"{base(inquiry)}/note", {"text": "SECRET-NOTE-7731"})

    shown = [m.text for m in thread_messages(inquiry=inquiry, for_staff=False)]
    help_page = page_text(signed_in(customer_login).get("/help/"))

    assert shown == ["届きません", "Looking into it."]
    assert "SECRET-NOTE-7731" not in help_page
    assert "SECRET-NOTE-7731" in page_text(client.get(f"{base(inquiry)}/"))


# --- Canned replies ---------------------------------------------------------------------------


def canned(title: str, language: str, *, active: bool = True) -> CannedReply:
    return CannedReply.objects.create(
        title=title, language=language, body=f"{title} body <b>bold</b>", active=active
    )


@pytest.mark.parametrize(
    ("language", "offered"),
    [(Language.JAPANESE, ["お詫び", "配送状況"]), (Language.ENGLISH, ["Apology"])],
)
def test_the_composer_offers_active_canned_replies_in_the_customers_language(
    op1: User, language: str, offered: list[str]
) -> None:
    for title, lang in (("配送状況", "ja"), ("お詫び", "ja"), ("Apology", "en")):
        canned(title, lang)
    canned("古い返信", "ja", active=False)
    canned("Old reply", "en", active=False)
    inquiry = inquiry_for(CustomerFactory.create(language=language), text="Where is it?")
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    text = page_text(signed_in(op1).get(f"{base(inquiry)}/"))

    titles = re.findall(r'<option value="\d+" data-body="[^"]*">([^<]+)</option>', text)
    assert titles == offered
    assert f'data-body="{offered[0]} body &lt;b&gt;bold&lt;/b&gt;"' in text


def test_canned_replies_show_only_to_the_owner(op1: User, op2: User, inquiry: Inquiry) -> None:
    canned("配送状況", "ja")
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    assert 'id="canned-select"' in page_text(signed_in(op1).get(f"{base(inquiry)}/"))
    assert 'id="canned-select"' not in page_text(signed_in(op2).get(f"{base(inquiry)}/"))


def test_leads_keep_the_canned_replies_in_the_admin(lead: User) -> None:
    client = signed_in(lead)

    added = client.post(
        "/admin/operators/cannedreply/add/",
        {"title": "Thanks", "language": "en", "body": "Thank you.", "active": "on"},
    )

    assert added.status_code == 302
    assert list(CannedReply.objects.values_list("title", "language", "active")) == [
        ("Thanks", "en", True)
    ]
    assert client.get("/admin/operators/cannedreply/").status_code == 200


def test_operators_read_the_canned_replies_but_do_not_change_them(op1: User) -> None:
    reply = canned("配送状況", "ja")
    client = signed_in(op1)

    listed = client.get("/admin/operators/cannedreply/")
    added = client.post(
        "/admin/operators/cannedreply/add/",
        {"title": "Mine", "language": "en", "body": "Mine.", "active": "on"},
    )
    changed = client.post(
        f"/admin/operators/cannedreply/{reply.pk}/change/",
        {"title": "Changed", "language": "ja", "body": "x", "active": "on"},
    )

    assert listed.status_code == 200
    assert "配送状況" in page_text(listed)
    assert (added.status_code, changed.status_code) == (403, 403)
    assert list(CannedReply.objects.values_list("title", flat=True)) == ["配送状況"]


# --- Flagging for review ----------------------------------------------------------------------


def test_a_lead_flags_an_ai_resolved_conversation_and_it_joins_the_queue(
    lead: User, op1: User, inquiry: Inquiry
) -> None:
    ai_resolved(inquiry)
    client = signed_in(lead)
    assert 'id="flag-button"' in page_text(client.get(f"{base(inquiry)}/"))

    response = client.post(f"{base(inquiry)}/flag", {"reason": "answered the wrong order"})
    queue = page_text(signed_in(op1).get("/console/"))

    assert response.status_code == 302
    review = Escalation.objects.get(inquiry=inquiry)
    assert (review.kind, review.status, review.reason) == (
        EscalationKind.REVIEW,
        EscalationStatus.OPEN,
        "flagged_for_review",
    )
    assert f'id="row-{review.pk}"' in queue
    assert '<span class="badge kind kind-review">review of an AI answer</span>' in queue
    assert (
        '<strong class="headline">Flagged for review by lead: answered the wrong order</strong>'
        in queue
    )
    after = page_text(client.get(f"{base(inquiry)}/"))
    assert 'id="flag-button"' not in after
    assert f'href="/console/escalations/{review.pk}/"' in after


def test_an_operator_sees_no_flag_button(op1: User, inquiry: Inquiry) -> None:
    ai_resolved(inquiry)

    assert 'id="flag-button"' not in page_text(signed_in(op1).get(f"{base(inquiry)}/"))


def test_a_conversation_an_operator_answered_cannot_be_flagged(
    lead: User, op1: User, inquiry: Inquiry
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)
    operator_message_send(inquiry_id=inquiry.pk, user=op1, text="Done.")
    inquiry.status = InquiryStatus.RESOLVED
    inquiry.save(update_fields=["status"])
    client = signed_in(lead)

    assert 'id="flag-button"' not in page_text(client.get(f"{base(inquiry)}/"))
    response = client.post(f"{base(inquiry)}/flag", {"reason": "check"})

    assert response.status_code == 422
    assert "Only a conversation the AI resolved can be flagged." in page_text(response)
    assert not Escalation.objects.filter(inquiry=inquiry).exists()


def test_a_review_is_decided_reviewed_from_the_queue(lead: User, op1: User) -> None:
    inquiry = ai_resolved(inquiry_for(text="クーポンが使えません"))
    review = conversation_flag(inquiry_id=inquiry.pk, user=lead, reason="coupon ignored")
    client = signed_in(op1)
    escalation = Escalation.objects.get(inquiry=review)

    page = page_text(client.get(f"/console/escalations/{escalation.pk}/"))
    decided = client.post(f"/console/escalations/{escalation.pk}/decide", {"decision": "reviewed"})

    assert 'id="verdict-form"' in page  # the verdict; "reviewed" alone stays a decision
    assert 'id="take-over-reply"' in page
    assert 'id="approve-button"' not in page
    assert 'id="reject-button"' not in page
    assert "Flagged for review by lead: coupon ignored" in page
    assert decided.status_code == 302
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.DECIDED
    assert (escalation.decision or {})["decision"] == "reviewed"
    followed = page_text(client.get(decided["Location"]))
    assert "Decision recorded: reviewed." in followed


def test_taking_over_a_review_hands_the_conversation_to_the_operator(lead: User, op1: User) -> None:
    inquiry = ai_resolved(inquiry_for(text="クーポンが使えません"))
    conversation_flag(inquiry_id=inquiry.pk, user=lead, reason="coupon ignored")
    escalation = Escalation.objects.get(inquiry=inquiry)

    signed_in(op1).post(
        f"/console/escalations/{escalation.pk}/decide",
        {"decision": "take_over", "reply": "クーポンを確認いたします。"},
    )

    assert owner_of(inquiry) == "op1"
    assert kinds(inquiry)[-1] == ("operator", "クーポンを確認いたします。")


# --- The inbox --------------------------------------------------------------------------------


def inbox(client: Client, **query: Any) -> list[str]:
    """The inquiry ids the inbox lists, in order."""
    text = page_text(client.get("/console/conversations/", query))
    row = r'<tr class="inbox-row[^"]*" id="conversation-[^"]+" data-inquiry-id="([^"]+)"'
    return re.findall(row, text)


def test_the_inbox_lists_every_conversation_the_latest_activity_first(op1: User) -> None:
    older = inquiry_for(text="一つ目")
    newer = inquiry_for(text="二つ目")
    ai_resolved(older, reply="ご連絡ありがとうございます。")

    text = page_text(signed_in(op1).get("/console/conversations/"))

    assert inbox(signed_in(op1)) == [str(older.pk), str(newer.pk)]
    snippet = '<span class="customer-text snippet">ご連絡ありがとうございます。</span>'
    assert f'<span class="muted small">AI</span> {snippet}' in text
    assert f'href="/console/conversations/{newer.pk}/"' in text


def test_the_inbox_searches_customer_order_number_and_text(op1: User) -> None:
    hanako = CustomerFactory.create(code="C7001", name="山田 花子")
    order_holder = CustomerFactory.create(code="C7002", name="Jane Roe")
    OrderFactory.create(number="ORD-7777", customer=order_holder)
    by_code = inquiry_for(hanako, text="返品したい")
    by_order = inquiry_for(order_holder, text="Where is my parcel?")
    by_text = inquiry_for(text="ORD-8888 のクーポンが使えません")
    message_store(
        inquiry=by_text, author_kind=MessageAuthor.CUSTOMER, text="もう一度", channel="web"
    )
    client = signed_in(op1)

    assert inbox(client, q="c7001") == [str(by_code.pk)]
    assert inbox(client, q="花子") == [str(by_code.pk)]
    assert inbox(client, q="ORD-7777") == [str(by_order.pk)]
    assert inbox(client, q="ord-8888") == [str(by_text.pk)]
    assert inbox(client, q="もう一度") == [str(by_text.pk)]
    assert inbox(client, q="nothing like this") == []


def test_the_inbox_filters_by_where_the_conversation_stands(op1: User, lead: User) -> None:
    resolved = ai_resolved(inquiry_for(text="一"))
    flagged = ai_resolved(inquiry_for(text="二"))
    conversation_flag(inquiry_id=flagged.pk, user=lead, reason="check")
    waiting = inquiry_for(text="三")
    waiting.status = InquiryStatus.AWAITING_CUSTOMER
    waiting.save(update_fields=["status"])
    owned = inquiry_for(text="四")
    conversation_take_over(inquiry_id=owned.pk, user=op1)
    answered = inquiry_for(text="五")
    conversation_take_over(inquiry_id=answered.pk, user=op1)
    operator_message_send(inquiry_id=answered.pk, user=op1, text="済みです")
    answered.refresh_from_db()
    answered.status, answered.human_owner = InquiryStatus.RESOLVED, None
    answered.save(update_fields=["status", "human_owner"])
    client = signed_in(op1)

    assert set(inbox(client, show="ai_resolved")) == {str(resolved.pk), str(flagged.pk)}
    assert inbox(client, show="flagged") == [str(flagged.pk)]
    assert inbox(client, show="awaiting_customer") == [str(waiting.pk)]
    assert inbox(client, show="human_owned") == [str(owned.pk)]
    assert inbox(client, show="no-such-filter") == inbox(client)  # invalid counts as unset
    assert inbox(client, q="四", show="ai_resolved") == []


def test_the_inbox_finds_what_waits_on_a_person_of_the_team(op1: User) -> None:
    escalated = inquiry_for(text="人と話したいです")
    failed = inquiry_for(text="返事がありません")
    for conversation, status in ((escalated, "escalated"), (failed, "failed")):
        conversation.status = status
        conversation.save(update_fields=["status"])
    unanswered = inquiry_for(text="まだですか")
    conversation_take_over(inquiry_id=unanswered.pk, user=op1)
    answered = inquiry_for(text="了解です")
    conversation_take_over(inquiry_id=answered.pk, user=op1)
    operator_message_send(inquiry_id=answered.pk, user=op1, text="承知しました")
    inquiry_for(text="配送はいつですか")  # the AI answers it: nobody of the team is waited on
    client = signed_in(op1)

    assert inbox(client, show="escalated") == [str(escalated.pk)]
    assert inbox(client, show="failed") == [str(failed.pk)]
    assert set(inbox(client, show="waiting_on_us")) == {
        str(escalated.pk),
        str(failed.pk),
        str(unanswered.pk),
    }


def test_the_inbox_preview_is_the_replys_gist_not_its_greeting(op1: User) -> None:
    gist = "ORD-7301は配送中です。"
    framed = "\n\n".join([say("ja", "reply.greeting"), gist, say("ja", "reply.closing")])
    ai_resolved(inquiry_for(text="荷物は？"), reply=framed)

    text = page_text(signed_in(op1).get("/console/conversations/"))

    assert f'<span class="customer-text snippet">{gist}</span>' in text


def unread(client: Client) -> list[str]:
    """The inquiry ids the inbox marks unread for the client's user."""
    text = page_text(client.get("/console/conversations/"))
    return re.findall(r'data-inquiry-id="([^"]+)" data-status="[^"]+" data-unread="1"', text)


def test_the_inbox_marks_what_each_person_has_not_read_since_it_changed(
    op1: User, op2: User
) -> None:
    quiet = inquiry_for(text="ありがとう")
    busy = inquiry_for(text="まだ届きません")
    mine, theirs = signed_in(op1), signed_in(op2)
    assert set(unread(mine)) == {str(quiet.pk), str(busy.pk)}

    mine.get(f"{base(busy)}/")
    assert unread(mine) == [str(quiet.pk)]
    assert set(unread(theirs)) == {str(quiet.pk), str(busy.pk)}  # each person on their own

    message_store(
        inquiry=busy, author_kind=MessageAuthor.CUSTOMER, text="どうなりましたか", channel="web"
    )
    assert set(unread(mine)) == {str(quiet.pk), str(busy.pk)}


def test_the_inbox_pages(op1: User, settings: Any) -> None:
    made = [inquiry_for(text=f"問い合わせ {n}") for n in range(27)]
    client = signed_in(op1)

    first = page_text(client.get("/console/conversations/", {"q": "問い合わせ"}))
    second = inbox(client, q="問い合わせ", page="2")

    assert len(inbox(client, q="問い合わせ")) == 25
    assert second == [str(m.pk) for m in made[:2]][::-1]
    assert "Page 1 of 2" in first
    query = "q=%E5%95%8F%E3%81%84%E5%90%88%E3%82%8F%E3%81%9B"
    assert f'id="next-page" href="?{query}&amp;page=2"' in first


def test_the_inbox_runs_seven_queries_however_many_rows(
    op1: User, django_assert_num_queries: Any
) -> None:
    def make(count: int) -> None:
        for n in range(count):
            inquiry = inquiry_for(text=f"問い合わせ {n}")
            if n % 2 == 0:
                conversation_take_over(inquiry_id=inquiry.pk, user=op1)

    client = signed_in(op1)
    make(1)
    with CaptureQueriesContext(connection) as one_row:
        client.get("/console/conversations/", {"q": "問い合わせ"})
    make(24)

    # the session, its user, the user's role groups, their display and notification
    # preferences, the count of matching conversations, and the page of them with customers,
    # owners and latest messages
    with django_assert_num_queries(7):
        response = client.get("/console/conversations/", {"q": "問い合わせ"})
    with CaptureQueriesContext(connection) as many_rows:
        client.get("/console/conversations/", {"q": "問い合わせ", "show": "human_owned"})

    assert len(response.context["rows"]) == 25
    assert len(many_rows) == len(one_row)


def test_the_conversation_page_runs_sixteen_queries_however_long_the_thread(
    op1: User, inquiry: Inquiry, django_assert_num_queries: Any
) -> None:
    conversation_take_over(inquiry_id=inquiry.pk, user=op1)
    canned("配送状況", "ja")
    client = signed_in(op1)
    with CaptureQueriesContext(connection) as short:
        client.get(f"{base(inquiry)}/")
    for n in range(20):
        operator_message_send(inquiry_id=inquiry.pk, user=op1, text=f"返信 {n}")
        note_add(inquiry_id=inquiry.pk, user=op1, text=f"メモ {n}")

    # the session, its user, the user's role groups, their display and notification
    # preferences, the conversation with its customer, its owner, the thread with its authors,
    # an open review, the canned replies, the colleagues "Assign to…" offers, the customer
    # panel (orders, open waits, earlier conversations; this customer has no order, so no
    # query for their lines), the last event's sequence number, and the reader's read mark
    with django_assert_num_queries(16):
        response = client.get(f"{base(inquiry)}/")
    with CaptureQueriesContext(connection) as long:
        client.get(f"{base(inquiry)}/")

    assert len(response.context["view"].messages) == 41
    assert len(long) == len(short)


def test_the_customer_panel_shows_their_orders_open_waits_and_earlier_conversations(
    op1: User,
) -> None:
    customer = CustomerFactory.create()
    order = OrderFactory.create(customer=customer, number="ORD-7401", total=4300)
    earlier = inquiry_for(customer, text="前回の質問です")
    current = inquiry_for(customer, text="<b>今回</b>の質問")
    wait = escalation_for(earlier)
    inquiry_for(text="ほかのお客様")  # another customer's: not in this panel

    text = page_text(signed_in(op1).get(f"{base(current)}/"))

    panel = text[text.index('id="customer-panel"') :]
    assert f'data-order="{order.number}"' in panel
    assert f'data-escalation-id="{wait.pk}"' in panel
    assert f'href="/console/conversations/{earlier.pk}/"' in panel
    assert "ほかのお客様" not in panel


# --- The escalation page's facts after a decision -------------------------------------------


def test_the_main_column_shows_the_facts_as_they_now_stand(op1: User) -> None:
    from netshop.models import Order
    from netshop.services.refunds import refund_create
    from tests.operators.api_helpers import escalation_for

    escalation = escalation_for()
    client = signed_in(op1)
    before = page_text(client.get(f"/console/escalations/{escalation.pk}/main"))
    refund_create(
        order=Order.objects.get(number="ORD-4003"),
        amount=12800,
        reason="damaged",
        operation_id="op-main-1",
        actor="op1",
    )

    after = page_text(client.get(f"/console/escalations/{escalation.pk}/main"))

    assert "<dt>Already refunded</dt><dd>¥0</dd>" in before
    assert "<dt>Already refunded</dt><dd>¥12,800</dd>" in after
    assert "<dt>Refundable</dt><dd>¥0</dd>" in after
    assert 'data-facts-now="1"' in after
    assert 'id="decision-panel"' not in after  # the forms stay as the operator left them
    assert 'id="main-top"' in after
    assert 'id="main-facts"' in after


def test_after_a_take_over_the_main_column_shows_the_status_and_the_reply(op1: User) -> None:
    from tests.operators.api_helpers import escalation_for

    escalation = escalation_for(kind="failure", reason="tool_failure")
    client = signed_in(op1)
    client.post(
        f"/console/escalations/{escalation.pk}/decide",
        {"decision": "take_over", "reply": "I will call you today."},
    )

    main = page_text(client.get(f"/console/escalations/{escalation.pk}/main"))

    assert 'data-status="handled_by_human">handled by a person</span>' in main
    assert "taken over by op1" in main
    assert '<div id="latest-reply" class="customer-text reply">I will call you today.</div>' in main


def test_the_main_fragment_is_for_staff_only(escalation: Escalation) -> None:
    assert caller("customer").get(f"/console/escalations/{escalation.pk}/main").status_code == 403
    assert (
        signed_in(staff_user("op9", Role.OPERATOR))
        .get("/console/escalations/00000000-0000-0000-0000-000000000000/main")
        .status_code
        == 404
    )
