"""A conversation the AI resolved is drawn into the review sample as its run is recorded, and
the AI goes on answering the customer while the review waits (issue 25)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.models import EscalationKind, EscalationStatus, Inquiry
from agents.support.conversations.services import customer_message_post
from agents.support.vocabulary import SAMPLED_FOR_REVIEW
from agents.team.runs.driver import inquiry_advance
from agents.team.runs.outcome import RunOutcome
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]


def test_the_first_ai_answer_of_an_intent_is_sampled_and_the_ai_answers_on(
    shop: SupportShop, ask: Ask, settings: Any
) -> None:
    settings.NETSHOP_REVIEW_SAMPLE = 0.10
    emily = shop.emily

    first = ask("What payment methods do you accept?", customer=emily.customer)

    inquiry = Inquiry.objects.get(pk=first.inquiry_id)
    [review] = inquiry.escalations.filter(kind=EscalationKind.REVIEW)
    assert (first.status, review.reason, review.status) == (
        "resolved",
        SAMPLED_FOR_REVIEW,
        EscalationStatus.OPEN,
    )
    assert review.package["review"]["reply"] == first.state["reply"]

    customer_message_post(
        customer=emily.customer, inquiry_id=inquiry.pk, text="Which payment methods can I use?"
    )
    inquiry_advance(inquiry_id=str(inquiry.pk))
    answered_again = Inquiry.objects.get(pk=inquiry.pk)
    assert (answered_again.status, answered_again.turns) == ("resolved", 2)
    assert answered_again.messages.filter(author_kind="ai", turn=2).exists()


def test_nothing_is_sampled_when_the_share_is_zero(
    shop: SupportShop, ask: Ask, settings: Any
) -> None:
    settings.NETSHOP_REVIEW_SAMPLE = 0

    outcome = ask("What payment methods do you accept?", customer=shop.emily.customer)

    assert not Inquiry.objects.get(pk=outcome.inquiry_id).escalations.exists()
