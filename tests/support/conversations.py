"""A customer's next turn in a conversation the graph is holding, as the product takes it."""

from __future__ import annotations

from agents.models import Inquiry
from agents.support.conversations.services import customer_message_post
from agents.team.runs.driver import inquiry_advance
from agents.team.runs.outcome import RunOutcome


def customer_answers(outcome: RunOutcome, text: str) -> Inquiry:
    """The customer replies in the conversation ``outcome`` left; the worker takes the next
    turn (in this process); the conversation as it stands after it."""
    customer = Inquiry.objects.select_related("customer").get(pk=outcome.inquiry_id).customer
    customer_message_post(customer=customer, inquiry_id=outcome.inquiry_id, text=text)
    inquiry_advance(inquiry_id=outcome.inquiry_id)
    return Inquiry.objects.get(pk=outcome.inquiry_id)
