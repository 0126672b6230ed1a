"""A sample of the AI's resolved conversations goes to a person (issue 25, the review queue).

Given conversations the AI resolved, with intents as unevenly spread as a shop's are, when
each is recorded, then about ``NETSHOP_REVIEW_SAMPLE`` of them join the queue as reviews:
between rate x N and rate x N + k for k intents, every intent present; a conversation a person
took part in is never sampled; a turn recorded twice is sampled once; two workers deciding at
once for one intent do not both take its last place.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.db import close_old_connections, transaction

from agents.models import Escalation, EscalationKind, Inquiry, InquiryStatus, MessageAuthor
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.messages import message_store
from agents.support.escalations.review_sample import REVIEW_DAYS, drawn, review_sample_consider
from agents.support.vocabulary import SAMPLED_FOR_REVIEW, Skill
from tests.factories import CustomerFactory
from tests.operators.api_helpers import escalation_for

RATE = 0.10


@pytest.fixture(autouse=True)
def _rate(settings: Any) -> None:
    settings.NETSHOP_REVIEW_SAMPLE = RATE


def answered_by_the_ai(intent: str, customer: Any = None) -> Inquiry:
    """A conversation whose run is about to be recorded: the AI answered ``intent``."""
    inquiry = inquiry_create(
        customer=customer or CustomerFactory.create(), text="質問です", start=False
    )
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=InquiryStatus.RUNNING, intent=intent, reply="回答です", turns=1
    )
    return inquiry


def record(inquiry: Inquiry) -> Escalation | None:
    """As recording a run does: the inquiry's row locked and resolved, then the draw."""
    with transaction.atomic():
        locked = Inquiry.objects.select_for_update().get(pk=inquiry.pk)
        locked.status = InquiryStatus.RESOLVED
        locked.save(update_fields=["status"])
        return review_sample_consider(inquiry=locked)


def sampled_intents() -> Counter[str]:
    reviews = Escalation.objects.filter(kind=EscalationKind.REVIEW, reason=SAMPLED_FOR_REVIEW)
    return Counter(review.package["review"]["intent"] for review in reviews)


# A shop's week: tracking questions crowd everything else.
SPREAD = {
    Skill.TRACK_SHIPMENT: 130,
    Skill.SEARCH_FAQ: 45,
    Skill.GET_ORDER_DETAILS: 17,
    Skill.ISSUE_RECEIPT: 6,
    Skill.REFUND_STATUS: 2,
}


@pytest.mark.django_db
def test_the_sample_keeps_the_rate_and_every_intent_is_in_it() -> None:
    customer = CustomerFactory.create()
    order = [intent for intent, n in SPREAD.items() for _ in range(n)]
    # Interleaved as they would arrive, the busy intent first of each round.
    arrivals = sorted(order, key=lambda i: (order[: order.index(i)].count(i), i))
    for intent in arrivals:
        record(answered_by_the_ai(intent, customer))

    sampled = sampled_intents()
    total = sum(SPREAD.values())
    assert total == 200
    assert RATE * total <= sum(sampled.values()) <= RATE * total + len(SPREAD)
    assert set(sampled) == set(SPREAD)
    assert sampled == {intent: math.ceil(n * RATE) for intent, n in SPREAD.items()}


@pytest.mark.django_db
def test_a_review_waits_in_the_queue_with_the_answer_to_check() -> None:
    inquiry = answered_by_the_ai(Skill.SEARCH_FAQ)

    review = record(inquiry)

    assert review is not None
    assert (review.kind, review.reason, review.status) == ("review", SAMPLED_FOR_REVIEW, "open")
    assert review.package["review"] == {
        "sampled": True,
        "intent": "search_faq",
        "reply": "回答です",
    }
    assert Inquiry.objects.get(pk=inquiry.pk).status == InquiryStatus.RESOLVED  # still answered
    # Not urgent: due in a week, not at the approvals' deadline.
    assert review.deadline - review.created_at >= timedelta(days=REVIEW_DAYS) - timedelta(minutes=1)


@pytest.mark.django_db
def test_a_conversation_a_person_decided_in_is_not_the_ais_alone() -> None:
    inquiry = answered_by_the_ai(Skill.PROCESS_REFUND)
    escalation_for(inquiry)  # an approval a person decided on the way

    assert record(inquiry) is None


@pytest.mark.django_db
def test_an_answer_already_under_review_leaves_its_draw_to_the_next() -> None:
    customer = CustomerFactory.create()
    first = answered_by_the_ai(Skill.SEARCH_FAQ, customer)
    assert record(first) is not None  # the first of its intent
    Inquiry.objects.filter(pk=first.pk).update(status=InquiryStatus.RUNNING, turns=2)
    for _ in range(9):
        record(answered_by_the_ai(Skill.SEARCH_FAQ, customer))

    assert record(first) is None  # its next turn: a review is open on it already
    assert record(answered_by_the_ai(Skill.SEARCH_FAQ, customer)) is not None


@pytest.mark.django_db
def test_a_conversation_a_person_wrote_in_is_not_the_ais_to_review() -> None:
    inquiry = answered_by_the_ai(Skill.SEARCH_FAQ)
    message_store(
        inquiry=inquiry, author_kind=MessageAuthor.OPERATOR, text="お答えします", channel="web"
    )

    assert record(inquiry) is None


@pytest.mark.django_db
def test_a_turn_recorded_twice_is_sampled_once() -> None:
    inquiry = answered_by_the_ai(Skill.SEARCH_FAQ)

    record(inquiry)
    record(inquiry)

    assert sum(sampled_intents().values()) == 1


def test_the_nth_is_drawn_when_the_share_goes_up_exactly() -> None:
    drawn_at = [n for n in range(1, 61) if drawn(n, Fraction("0.1"))]

    assert drawn_at == [1, 11, 21, 31, 41, 51]  # 0.1 x 30 is 3, not 3.0000000000000004
    assert [n for n in range(1, 7) if drawn(n, Fraction("0.5"))] == [1, 3, 5]
    assert not drawn(0, Fraction("0.1"))


@pytest.mark.django_db
def test_no_sample_when_the_rate_is_zero(settings: Any) -> None:
    settings.NETSHOP_REVIEW_SAMPLE = 0

    assert record(answered_by_the_ai(Skill.SEARCH_FAQ)) is None


@pytest.mark.django_db(transaction=True)
def test_workers_deciding_at_once_for_one_intent_take_only_its_share() -> None:
    customer = CustomerFactory.create()
    inquiries = [answered_by_the_ai(Skill.TRACK_SHIPMENT, customer) for _ in range(20)]
    start = threading.Barrier(len(inquiries))

    def decide(inquiry: Inquiry) -> None:
        try:
            start.wait()
            record(inquiry)
        finally:
            close_old_connections()

    # Each resolves its conversation and draws at once, as two busy workers would.
    threads = [threading.Thread(target=decide, args=(inquiry,)) for inquiry in inquiries]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sampled_intents() == {Skill.TRACK_SHIPMENT: math.ceil(20 * RATE)}
