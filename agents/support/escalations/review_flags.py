"""A lead flags an AI-resolved conversation for a second look: it joins the escalation queue."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction

from agents.models import EscalationKind, EscalationStatus, Inquiry, InquiryStatus, MessageAuthor
from agents.support import audit_trail
from agents.support.conversations.services import conversation_locked, refuse_blank
from agents.support.escalations.package import inquiry_package
from agents.support.escalations.services import escalation_record_wait
from agents.support.vocabulary import FLAGGED_FOR_REVIEW
from netshop.errors import DomainError
from netshop.transactions import retry_conflicts


@retry_conflicts
@transaction.atomic
def conversation_flag(*, inquiry_id: UUID | str, user: User, reason: str) -> Inquiry:
    """A lead asks for a second look at an AI-resolved conversation: it joins the queue."""
    refuse_blank(reason)
    inquiry = conversation_locked(inquiry_id)
    if (
        inquiry.status != InquiryStatus.RESOLVED
        or inquiry.messages.filter(author_kind=MessageAuthor.OPERATOR).exists()
    ):
        raise DomainError("not_ai_resolved")
    open_flags = inquiry.escalations.filter(
        kind=EscalationKind.REVIEW, reason=FLAGGED_FOR_REVIEW, status=EscalationStatus.OPEN
    )
    if open_flags.exists():  # a sampled review does not stop a lead's flag and its reason
        raise DomainError("already_flagged")
    flags = inquiry.escalations.filter(kind=EscalationKind.REVIEW).count()
    escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:review:{flags + 1}",
        kind=EscalationKind.REVIEW,
        reason=FLAGGED_FOR_REVIEW,
        summary=f"flagged for review by {user.username}: {reason}",
        package=inquiry_package(inquiry)
        | {"review": {"flagged_by": user.username, "reason": reason}},  # the console's headline
    )
    audit_trail.conversation_flagged(inquiry_id=inquiry.pk, actor=user.username, reason=reason)
    return inquiry
