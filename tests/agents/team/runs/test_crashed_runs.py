"""A run that crashes before it answers (issue 26, section 2).

Given a conversation whose run raises, when the crash is recorded, then the person who picks
it up reads the error, the customer is told once, in their language, that a person will
answer, and the person may run the turn again: the conversation is queued, the turn runs
from its last checkpoint and answers; a turn that crashes again is a new wait, not a hidden
one, and the customer is not told twice.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.models import Escalation, EscalationStatus, Inquiry, InquiryStatus, MessageAuthor
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.services import decisions_allowed, escalation_decide
from agents.team.runs import driver
from netshop.models import Language
from netshop.roles import Role
from tests.factories import CustomerFactory, delivered_order
from tests.operators.api_helpers import staff_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def crashing(monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], None]:
    """``crashing(True)`` makes every run raise; ``crashing(False)`` mends it."""
    real = driver._advance

    def crash(inquiry: Inquiry) -> object:
        raise RuntimeError("the model provider returned nonsense")

    def switch(on: bool) -> None:
        monkeypatch.setattr(driver, "_advance", crash if on else real)

    return switch


def asked(language: Language) -> Inquiry:
    customer = CustomerFactory.create(language=language)
    order = delivered_order(customer=customer)
    text = (
        f"{order.number}の荷物は今どこにありますか？"
        if language == Language.JAPANESE
        else f"Where is my parcel for {order.number}?"
    )
    return inquiry_create(customer=customer, text=text, start=False)


def ai_messages(inquiry: Inquiry) -> list[str]:
    return list(
        inquiry.messages.filter(author_kind=MessageAuthor.AI).values_list("text", flat=True)
    )


@pytest.mark.parametrize(
    ("language", "notice"),
    [
        (Language.JAPANESE, "当社システムの不具合により"),
        (Language.ENGLISH, "something went wrong on our side"),
    ],
)
def test_a_crash_shows_its_error_and_tells_the_customer_once(
    sent: list[str], crashing: Callable[[bool], None], language: Language, notice: str
) -> None:
    inquiry = asked(language)
    crashing(True)

    driver.inquiry_advance(inquiry_id=str(inquiry.pk))

    inquiry.refresh_from_db()
    [wait] = Escalation.objects.filter(inquiry=inquiry)
    assert inquiry.status == InquiryStatus.FAILED
    assert wait.package["errors"] == [
        {
            "agent": "supervisor",
            "code": "supervisor_failure",
            "message": "RuntimeError: the model provider returned nonsense",
        }
    ]
    assert decisions_allowed(wait) == {"approve", "take_over"}
    [told] = ai_messages(inquiry)
    assert notice in told
    assert inquiry.reply == told


def test_running_it_again_answers_the_customer(
    sent: list[str], crashing: Callable[[bool], None]
) -> None:
    inquiry = asked(Language.ENGLISH)
    crashing(True)
    driver.inquiry_advance(inquiry_id=str(inquiry.pk))
    wait = Escalation.objects.get(inquiry=inquiry)
    crashing(False)

    escalation_decide(
        escalation_id=wait.pk, user=staff_user("op1", Role.OPERATOR), decision="approve"
    )

    assert Inquiry.objects.get(pk=inquiry.pk).status == InquiryStatus.QUEUED
    assert sent == [str(inquiry.pk)]
    driver.inquiry_advance(inquiry_id=sent[0])
    inquiry.refresh_from_db()
    assert inquiry.status == InquiryStatus.RESOLVED
    assert len(ai_messages(inquiry)) == 2  # the notice, then the answer
    assert Escalation.objects.get(pk=wait.pk).status == EscalationStatus.DECIDED


def test_a_turn_that_crashes_again_is_a_new_wait_and_the_customer_is_not_told_twice(
    sent: list[str], crashing: Callable[[bool], None]
) -> None:
    inquiry = asked(Language.JAPANESE)
    crashing(True)
    driver.inquiry_advance(inquiry_id=str(inquiry.pk))
    first = Escalation.objects.get(inquiry=inquiry)

    escalation_decide(
        escalation_id=first.pk, user=staff_user("op1", Role.OPERATOR), decision="approve"
    )
    driver.inquiry_advance(inquiry_id=str(inquiry.pk))

    waits = Escalation.objects.filter(inquiry=inquiry).order_by("created_at")
    assert [(w.status, w.reason) for w in waits] == [
        (EscalationStatus.DECIDED, "supervisor_failure"),
        (EscalationStatus.OPEN, "supervisor_failure"),
    ]
    assert len(ai_messages(inquiry)) == 1
    assert Inquiry.objects.get(pk=inquiry.pk).status == InquiryStatus.FAILED
