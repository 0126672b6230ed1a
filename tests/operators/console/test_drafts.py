"""The draft's page (issue 25, part 2): the reply the AI drafted, editable, and "Send reply";
one click sends it, an edit sends the operator's words, a second click is told who sent it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import EscalationStatus, MessageAuthor
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, signed_in, staff_user
from tests.support.drafts import DRAFTED, drafted

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice() -> User:
    return staff_user("alice", Role.OPERATOR)


def test_the_draft_page_shows_the_reply_ready_to_send(alice: User) -> None:
    draft = drafted()

    html = signed_in(alice).get(f"/console/escalations/{draft.pk}/").content.decode()

    assert 'id="send-reply-form"' in html
    assert f'action="/console/escalations/{draft.pk}/send-reply"' in html
    assert f">{DRAFTED}</textarea>" in html
    assert 'id="take-over-form"' in html
    assert 'id="approve-form"' not in html


def test_an_approval_page_has_no_send_reply_form(alice: User) -> None:
    html = signed_in(alice).get(f"/console/escalations/{escalation_for().pk}/").content
    assert b'id="send-reply-form"' not in html


def test_one_click_sends_the_draft_and_a_second_is_told_who_sent_it(alice: User) -> None:
    draft = drafted()
    form = {"text": DRAFTED + "\r\n"}  # as a browser posts the untouched textarea

    sent = signed_in(alice).post(f"/console/escalations/{draft.pk}/send-reply", form)
    again = signed_in(staff_user("bob", Role.OPERATOR)).post(
        f"/console/escalations/{draft.pk}/send-reply", form
    )

    assert sent.status_code == 302
    draft.refresh_from_db()
    assert draft.status == EscalationStatus.DECIDED
    message = draft.inquiry.messages.get(author_kind=MessageAuthor.AI)
    assert message.text == DRAFTED
    assert again.status_code == 409
    assert "alice" in again.content.decode()
    assert draft.inquiry.messages.exclude(author_kind=MessageAuthor.CUSTOMER).count() == 1


def test_an_edited_draft_is_sent_in_the_operators_words(alice: User) -> None:
    draft = drafted()

    signed_in(alice).post(
        f"/console/escalations/{draft.pk}/send-reply", {"text": "Happy to help with an order!"}
    )

    message = draft.inquiry.messages.get(author_kind=MessageAuthor.OPERATOR)
    assert (message.text, message.author) == ("Happy to help with an order!", alice)


def test_an_empty_or_oversized_reply_is_refused_and_nothing_is_sent(alice: User) -> None:
    draft = drafted()
    client = signed_in(alice)

    empty = client.post(f"/console/escalations/{draft.pk}/send-reply", {"text": ""})
    huge = client.post(f"/console/escalations/{draft.pk}/send-reply", {"text": "x" * 4001})

    assert (empty.status_code, huge.status_code) == (422, 422)
    draft.refresh_from_db()
    assert draft.status == EscalationStatus.OPEN
    assert not draft.inquiry.messages.exclude(author_kind=MessageAuthor.CUSTOMER).exists()
