"""What sending a draft leaves in place: a customer's "not solved" still waiting for a person
keeps the conversation escalated (the AI stays silent until someone judges it)."""

from __future__ import annotations

import pytest

from agents.models import EscalationKind, InquiryStatus, MessageAuthor
from agents.support.conversations.messages import message_store
from agents.support.escalations.customer_feedback import Feedback, answer_feedback_give
from agents.support.escalations.drafts import draft_send
from agents.support.vocabulary import NOT_SOLVED
from netshop.errors import DomainError
from netshop.roles import Role
from tests.operators.api_helpers import staff_user
from tests.support.drafts import drafted
from tests.support.reviews import answer_grounds

pytestmark = pytest.mark.django_db


def test_a_draft_sent_while_a_not_solved_waits_keeps_the_conversation_with_a_person() -> None:
    draft = drafted()
    inquiry = draft.inquiry
    earlier = message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text="Returns are free within 14 days.",
        channel="web",
        grounds=answer_grounds("search_faq", "en"),
    )
    answer_feedback_give(
        customer=inquiry.customer,
        inquiry_id=inquiry.pk,
        message_id=earlier.pk,
        feedback=Feedback(solved=False),
    )

    draft_send(escalation_id=draft.pk, user=staff_user("op", Role.OPERATOR))

    inquiry.refresh_from_db()
    assert inquiry.status == InquiryStatus.ESCALATED
    assert inquiry.escalations.filter(
        kind=EscalationKind.REVIEW, reason=NOT_SOLVED, status="open"
    ).exists()


def test_the_shops_own_notice_is_no_answer_to_rate() -> None:
    inquiry = drafted().inquiry
    notice = message_store(
        inquiry=inquiry, author_kind=MessageAuthor.AI, text="It takes longer.", channel="web"
    )
    with pytest.raises(DomainError) as refused:
        answer_feedback_give(
            customer=inquiry.customer,
            inquiry_id=inquiry.pk,
            message_id=notice.pk,
            feedback=Feedback(solved=False),
        )
    assert refused.value.code == "not_an_ai_reply"
