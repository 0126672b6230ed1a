"""AI answers and their reviews, built through the services, for the verdict and quality tests."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User

from agents.models import (
    AnswerReview,
    Escalation,
    EscalationKind,
    Inquiry,
    InquiryStatus,
    MessageAuthor,
)
from agents.support import audit_trail
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.messages import message_store
from agents.support.escalations.answer_reviews import Verdict, answer_review_record
from agents.support.escalations.services import escalation_record_wait
from agents.support.grounds import GroundsDict
from agents.support.vocabulary import SAMPLED_FOR_REVIEW
from netshop.models import Customer
from tests.factories import CustomerFactory

AI_REPLY = "コンビニ払いは注文後 3 日以内にお支払いください。"


def ai_resolved(intent: str, customer: Customer | None = None) -> Inquiry:
    """A conversation the AI answered and resolved on its own, as a run records it."""
    inquiry = inquiry_create(
        customer=customer or CustomerFactory.create(), text="質問です", start=False
    )
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text=AI_REPLY,
        channel="web",
        grounds=answer_grounds(intent),
    )
    audit_trail.reply_sent(
        inquiry_id=str(inquiry.pk),
        status=InquiryStatus.RESOLVED,
        language="ja",
        length=len(AI_REPLY),
        actor=audit_trail.SUPERVISOR,
    )
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=InquiryStatus.RESOLVED, intent=intent, reply=AI_REPLY, turns=1
    )
    inquiry.refresh_from_db()
    return inquiry


def answer_grounds(intent: str, language: str = "ja") -> GroundsDict:
    """The grounds a turn records with its answer: what makes an AI message an answer."""
    return {
        "reading": {
            "intents": [intent],
            "confidence": 0.9,
            "language": language,
            "injection_suspected": False,
            "complaint": False,
        },
        "records": {"orders": [], "tracking": [], "faq": []},
        "check": {"passed": True, "problems": []},
    }


def sampled_review(inquiry: Inquiry) -> Escalation:
    """The review escalation the sample opens for ``inquiry`` (as ``review_sample`` does)."""
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:{secrets.token_hex(4)}:review-sample",
        kind=EscalationKind.REVIEW,
        reason=SAMPLED_FOR_REVIEW,
        summary="sampled for review",
        package={
            "inquiry": {"text": inquiry.text, "customer_id": inquiry.customer.code},
            "review": {"sampled": True, "intent": inquiry.intent, "reply": inquiry.reply},
        },
    )


def reviewed(
    intent: str, verdict: str, reviewer: User, reason: str = "", customer: Customer | None = None
) -> AnswerReview:
    """An AI-resolved conversation of ``intent``, sampled and given ``verdict``."""
    review = sampled_review(ai_resolved(intent, customer))
    return answer_review_record(
        escalation_id=review.pk, user=reviewer, verdict=Verdict(verdict, reason)
    )
