"""A customer's "not solved" in the console (issue 25, part 3): it is in the review queue, and
its page quotes the answer the customer rejected and their comment (inert), beside the verdict
form, in the operator's language."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import Escalation, MessageAuthor
from agents.support.escalations.customer_feedback import Feedback, answer_feedback_give
from agents.support.vocabulary import NOT_SOLVED, Skill
from netshop.roles import Role
from operators.models import StaffPreference
from tests.operators.api_helpers import signed_in, staff_user
from tests.support.reviews import AI_REPLY, ai_resolved

pytestmark = pytest.mark.django_db

COMMENT = "<img src=x onerror=alert(1)> 送料を聞きました"


@pytest.fixture
def reviewer() -> User:
    return staff_user("rev", Role.OPERATOR)


@pytest.fixture
def not_solved() -> Escalation:
    inquiry = ai_resolved(Skill.SEARCH_FAQ)
    answer_feedback_give(
        customer=inquiry.customer,
        inquiry_id=inquiry.pk,
        message_id=inquiry.messages.get(author_kind=MessageAuthor.AI).pk,
        feedback=Feedback(solved=False, rating=1, comment=COMMENT),
    )
    return Escalation.objects.get(reason=NOT_SOLVED)


def test_the_queue_lists_it_and_its_page_quotes_the_reply_and_the_comment(
    reviewer: User, not_solved: Escalation
) -> None:
    client = signed_in(reviewer)

    queue = client.get("/console/").content.decode()
    html = client.get(f"/console/escalations/{not_solved.pk}/").content.decode()

    assert f'data-escalation-id="{not_solved.pk}"' in queue
    assert "The customer said the AI&#x27;s answer did not solve it" in queue
    assert 'id="verdict-form"' in html
    assert 'id="not-solved-card"' in html
    assert AI_REPLY in html
    assert "&lt;img src=x onerror=alert(1)&gt; 送料を聞きました" in html
    assert COMMENT not in html  # inert
    assert "Their rating: 1 of 5" in html


def test_a_japanese_operator_reads_it_in_japanese(reviewer: User, not_solved: Escalation) -> None:
    StaffPreference.objects.create(user=reviewer, language="ja")

    html = signed_in(reviewer).get(f"/console/escalations/{not_solved.pk}/").content.decode()

    assert "お客様はこの回答では解決しなかったと回答しています" in html
    assert "お客様のコメント" in html
