"""Drafted AI replies, built through the recording service, for the console, API and figures
tests that need one without running the graph."""

from __future__ import annotations

from agents.models import AutonomyLevel, Escalation, Inquiry, InquiryStatus
from agents.support.autonomy.disposition import Disposition
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.thread import TurnReply
from agents.support.escalations.drafts import draft_record
from agents.support.vocabulary import DraftReason, Skill
from netshop.models import Customer
from tests.factories import CustomerFactory
from tests.support.reviews import answer_grounds

DRAFTED = "Thank you for writing. We can help with orders, deliveries and payments."


def drafted(
    intent: str = Skill.ANSWER_GENERAL_QUESTION,
    *,
    customer: Customer | None = None,
    text: str = DRAFTED,
    reason: DraftReason = DraftReason.AUTONOMY,
) -> Escalation:
    """A conversation whose first turn's reply waits as a draft, as a run records it."""
    customer = customer or CustomerFactory.create(language="en")
    inquiry = inquiry_create(customer=customer, text="What's the weather like?", start=False)
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=InquiryStatus.ESCALATED, intent=intent, language="en", turns=1
    )
    inquiry.refresh_from_db()
    grounds = answer_grounds(intent, "en")
    return draft_record(
        inquiry=inquiry,
        state={"classification": {"intent": intent}, "language": "en", "text": inquiry.text},
        replies=[TurnReply(text, f"{inquiry.pk}:1:reply", grounds)],
        disposition=Disposition(AutonomyLevel.DRAFT, reason),
        status=InquiryStatus.RESOLVED,
        wait_key=f"{inquiry.pk}:draft",
    )
