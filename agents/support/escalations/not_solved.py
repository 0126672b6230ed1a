"""While a customer's "not solved" waits, the AI holds; once a person decides, it goes on.

The hold is the conversation's status (``escalated``: no AI turn starts, the customer's page
says a person has it), not the review escalation itself: the review stays in the queue for its
verdict (every "not solved" is measured) while a person who took the conversation over and
handed it back has already let the AI go on. A verdict, or the plain "reviewed" decision,
ends the hold here when nothing else holds the conversation.
"""

from __future__ import annotations

from agents.models import EscalationStatus, Inquiry, InquiryStatus
from agents.support.events.bus import publish
from agents.support.events.payloads import inquiry_payload
from agents.support.run_requests import enqueue_run
from agents.support.vocabulary import LOOK_BACK_REVIEWS


def not_solved_released(inquiry: Inquiry) -> None:
    """A person decided a "not solved" review of ``inquiry``: unless a person owns it or
    another wait holds it, it waits for the customer again, and a message they sent
    meanwhile is answered now (the run checks that the AI may answer)."""
    # Read again under the row's lock: a "not solved" given meanwhile commits first, or waits.
    inquiry = Inquiry.objects.select_for_update(of=("self",)).get(pk=inquiry.pk)
    if inquiry.status != InquiryStatus.ESCALATED or inquiry.human_owner_id is not None:
        return
    holding = inquiry.escalations.filter(status=EscalationStatus.OPEN)
    if holding.exclude(reason__in=LOOK_BACK_REVIEWS).exists():
        return
    inquiry.status = InquiryStatus.AWAITING_CUSTOMER
    inquiry.save(update_fields=["status", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry), subject=inquiry)
    enqueue_run(inquiry.pk)
