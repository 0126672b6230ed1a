"""The customer's word on an AI answer (issue 25, part 3).

Given a conversation the AI answered, when its customer says whether the answer solved their
problem, then the answer is recorded once, audited without its words and announced; "not
solved" puts the conversation in the review queue with the answer and the comment quoted, and
the AI says nothing more until a person decides, or takes over and hands back. A reply saying
the answer missed the point counts the same. Nobody else can answer for the customer, and a
refused answer leaves nothing behind.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from agents.models import (
    AnswerFeedback,
    ConsoleEvent,
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from agents.support.conversations import services
from agents.support.conversations.messages import message_store
from agents.support.conversations.selectors import ai_may_answer
from agents.support.escalations.answer_reviews import Verdict, answer_review_record
from agents.support.escalations.customer_feedback import Feedback, answer_feedback_give
from agents.support.escalations.review_sample import ai_resolved as resolved_by_ai_alone
from agents.support.escalations.services import escalation_decide
from agents.support.vocabulary import NOT_SOLVED, OperatorDecision, Skill
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.models import Customer
from netshop.roles import Role
from tests.factories import CustomerFactory
from tests.operators.api_helpers import staff_user
from tests.support.reviews import AI_REPLY, ai_resolved

pytestmark = pytest.mark.django_db

COMMENT = "返品の送料を聞いたのに、支払い方法の説明でした"


@pytest.fixture
def runs_started(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The conversations whose AI run was handed to a worker (as the transaction would
    commit: a test runs inside one that never does)."""
    started: list[str] = []
    monkeypatch.setattr("agents.support.run_requests.after_commit", lambda send: send())
    monkeypatch.setattr(
        "agents.support.run_requests.task_submit",
        lambda task, inquiry_id, pool: started.append(inquiry_id),
    )
    return started


@pytest.fixture
def customer() -> Customer:
    return CustomerFactory.create(language="ja")


@pytest.fixture
def answered(customer: Customer) -> Inquiry:
    """A conversation the AI answered and resolved on its own."""
    return ai_resolved(Skill.SEARCH_FAQ, customer)


@pytest.fixture
def reviewer() -> User:
    return staff_user("rev", Role.OPERATOR)


def ai_answer(inquiry: Inquiry) -> Message:
    return inquiry.messages.get(author_kind=MessageAuthor.AI)


def give(customer: Customer, inquiry: Inquiry, message: Any, **feedback: Any) -> AnswerFeedback:
    row, _ = answer_feedback_give(
        customer=customer,
        inquiry_id=inquiry.pk,
        message_id=getattr(message, "pk", message),
        feedback=Feedback(**feedback),
    )
    return row


def not_solved_reviews(inquiry: Inquiry) -> list[Escalation]:
    return list(inquiry.escalations.filter(kind=EscalationKind.REVIEW, reason=NOT_SOLVED))


# --- Solved ---------------------------------------------------------------------------------


def test_solved_is_recorded_audited_without_words_and_announced(
    answered: Inquiry, customer: Customer
) -> None:
    answer = ai_answer(answered)

    row = give(customer, answered, answer, solved=True, rating=5, comment="よく分かりました")

    assert (row.message, row.inquiry, row.solved, row.rating, row.comment, row.intent) == (
        answer,
        answered,
        True,
        5,
        "よく分かりました",
        "search_faq",
    )
    entry = AuditEntry.objects.get(action="answer.feedback")
    assert entry.actor == "customer"
    assert entry.data["solved"] is True
    assert entry.data["rating"] == 5
    assert entry.data["comment_length"] == len("よく分かりました")
    assert "よく分かりました" not in str(entry.data)  # only its length and digest
    event = ConsoleEvent.objects.get(type="answer.feedback")
    assert (event.payload["message_id"], event.payload["solved"]) == (str(answer.pk), True)
    assert not not_solved_reviews(answered)  # solved: nobody is pulled in
    assert Inquiry.objects.get(pk=answered.pk).status == InquiryStatus.RESOLVED


# --- Not solved: the queue at once, the AI silent until a person acts ----------------------


def test_not_solved_opens_a_review_quoting_the_reply_and_the_comment(
    answered: Inquiry, customer: Customer
) -> None:
    answer = ai_answer(answered)

    give(customer, answered, answer, solved=False, rating=1, comment=COMMENT)

    [review] = not_solved_reviews(answered)
    assert review.status == EscalationStatus.OPEN
    assert review.package["review"] == {
        "not_solved": True,
        "intent": "search_faq",
        "message_id": str(answer.pk),
        "reply": AI_REPLY,
        "comment": COMMENT,
        "rating": 1,
        "source": "buttons",
    }
    assert ConsoleEvent.objects.filter(type="escalation.created").count() == 1
    inquiry = Inquiry.objects.get(pk=answered.pk)
    assert inquiry.status == InquiryStatus.ESCALATED  # the customer reads "passed to our staff"
    assert not ai_may_answer(inquiry)
    assert not resolved_by_ai_alone(inquiry)


def test_a_message_sent_while_not_solved_waits_is_stored_and_not_answered_by_the_ai(
    answered: Inquiry, customer: Customer, runs_started: list[str]
) -> None:
    give(customer, answered, ai_answer(answered), solved=False)

    message = services.customer_message_post(
        customer=customer, inquiry_id=answered.pk, text="まだですか？"
    )

    assert message.author_kind == MessageAuthor.CUSTOMER
    assert message.is_pending
    assert runs_started == []  # no AI turn
    assert Inquiry.objects.get(pk=answered.pk).status == InquiryStatus.ESCALATED


def test_a_verdict_with_a_correction_lets_the_conversation_go_on(
    answered: Inquiry,
    customer: Customer,
    reviewer: User,
    runs_started: list[str],
) -> None:
    give(customer, answered, ai_answer(answered), solved=False, comment=COMMENT)
    services.customer_message_post(customer=customer, inquiry_id=answered.pk, text="まだですか？")
    [review] = not_solved_reviews(answered)

    answer_review_record(
        escalation_id=review.pk,
        user=reviewer,
        verdict=Verdict("wrong", "did_not_answer"),
        correction="返品の送料は無料です。",
    )

    inquiry = Inquiry.objects.get(pk=answered.pk)
    assert inquiry.status == InquiryStatus.AWAITING_CUSTOMER
    assert ai_may_answer(inquiry)
    assert runs_started == [str(answered.pk)]  # a run looks: the person's reply answered it
    assert inquiry.messages.filter(author_kind=MessageAuthor.OPERATOR).count() == 1
    services.customer_message_post(customer=customer, inquiry_id=answered.pk, text="では返品します")
    assert runs_started == [str(answered.pk)] * 2  # the AI answers the next one


def test_take_over_then_hand_back_lets_the_ai_answer_with_the_review_still_queued(
    answered: Inquiry,
    customer: Customer,
    reviewer: User,
    runs_started: list[str],
) -> None:
    give(customer, answered, ai_answer(answered), solved=False)
    services.customer_message_post(customer=customer, inquiry_id=answered.pk, text="まだですか？")

    services.conversation_take_over(inquiry_id=answered.pk, user=reviewer)
    assert runs_started == []
    services.conversation_hand_back(inquiry_id=answered.pk, user=reviewer)

    inquiry = Inquiry.objects.get(pk=answered.pk)
    assert ai_may_answer(inquiry)
    assert runs_started == [str(answered.pk)]
    [review] = not_solved_reviews(answered)
    assert review.status == EscalationStatus.OPEN  # still waits for its verdict, to be measured


def test_taking_the_review_over_answers_the_customer_as_the_person(
    answered: Inquiry, customer: Customer, reviewer: User
) -> None:
    give(customer, answered, ai_answer(answered), solved=False)
    [review] = not_solved_reviews(answered)

    escalation_decide(
        escalation_id=review.pk,
        user=reviewer,
        decision=OperatorDecision.TAKE_OVER,
        reply="ご不便をおかけしました。返品の送料は無料です。",
    )

    inquiry = Inquiry.objects.get(pk=answered.pk)
    assert (inquiry.status, inquiry.human_owner) == (InquiryStatus.HANDLED_BY_HUMAN, reviewer)


# --- Once per answer ------------------------------------------------------------------------


def test_the_same_answer_again_is_the_one_recorded(answered: Inquiry, customer: Customer) -> None:
    answer = ai_answer(answered)
    first, created = answer_feedback_give(
        customer=customer,
        inquiry_id=answered.pk,
        message_id=answer.pk,
        feedback=Feedback(solved=False, comment=COMMENT),
    )
    again, created_again = answer_feedback_give(
        customer=customer,
        inquiry_id=answered.pk,
        message_id=answer.pk,
        feedback=Feedback(solved=False, comment=f"  {COMMENT} "),
    )

    assert (created, created_again, again.pk) == (True, False, first.pk)
    assert AnswerFeedback.objects.count() == 1
    assert len(not_solved_reviews(answered)) == 1
    assert AuditEntry.objects.filter(action="answer.feedback").count() == 1


def test_a_different_second_answer_is_refused_and_changes_nothing(
    answered: Inquiry, customer: Customer
) -> None:
    answer = ai_answer(answered)
    give(customer, answered, answer, solved=True)

    with pytest.raises(DomainError) as refused:
        give(customer, answered, answer, solved=False, comment=COMMENT)

    assert refused.value.code == "feedback_already_given"
    assert refused.value.status == 409
    assert list(AnswerFeedback.objects.values_list("solved", "comment")) == [(True, "")]
    assert not not_solved_reviews(answered)


# --- Only the conversation's customer, only on an AI answer, only valid input --------------


def assert_nothing_stored(inquiry: Inquiry) -> None:
    assert not AnswerFeedback.objects.exists()
    assert not AuditEntry.objects.filter(action="answer.feedback").exists()
    assert not not_solved_reviews(inquiry)
    assert Inquiry.objects.get(pk=inquiry.pk).status == InquiryStatus.RESOLVED


def test_another_customer_cannot_answer_for_the_customer(answered: Inquiry) -> None:
    intruder = CustomerFactory.create()
    with pytest.raises(DomainError) as refused:
        give(intruder, answered, ai_answer(answered), solved=False)

    assert (refused.value.code, refused.value.status) == ("inquiry_not_found", 404)
    assert_nothing_stored(answered)


def test_another_conversations_answer_is_not_found_in_this_one(
    answered: Inquiry, customer: Customer
) -> None:
    elsewhere = ai_answer(ai_resolved(Skill.SEARCH_FAQ, CustomerFactory.create()))
    with pytest.raises(DomainError) as refused:
        give(customer, answered, elsewhere, solved=False)

    assert (refused.value.code, refused.value.status) == ("message_not_found", 404)
    assert_nothing_stored(answered)


@pytest.mark.parametrize("message_id", ["00000000-0000-0000-0000-000000000000", "not-a-uuid"])
def test_an_unknown_message_is_not_found(
    answered: Inquiry, customer: Customer, message_id: str
) -> None:
    with pytest.raises(DomainError) as refused:
        give(customer, answered, message_id, solved=False)

    assert refused.value.code == "message_not_found"
    assert_nothing_stored(answered)


def test_a_note_is_not_found_and_a_customer_or_operator_message_is_no_ai_reply(
    answered: Inquiry, customer: Customer, reviewer: User
) -> None:
    note = message_store(
        inquiry=answered, author_kind=MessageAuthor.NOTE, author=reviewer, text="内部", channel="c"
    )
    own = answered.messages.get(author_kind=MessageAuthor.CUSTOMER)
    staff = message_store(
        inquiry=answered,
        author_kind=MessageAuthor.OPERATOR,
        author=reviewer,
        text="はい",
        channel="c",
    )

    codes = []
    for message in (note, own, staff):
        with pytest.raises(DomainError) as refused:
            give(customer, answered, message, solved=False)
        codes.append((refused.value.code, refused.value.status))

    assert codes == [("message_not_found", 404), ("not_an_ai_reply", 422), ("not_an_ai_reply", 422)]
    assert_nothing_stored(answered)


@pytest.mark.parametrize(
    ("feedback", "code"),
    [
        ({"rating": 0}, "invalid_rating"),
        ({"rating": 6}, "invalid_rating"),
        ({"rating": True}, "invalid_rating"),
        ({"comment": "あ" * 1001}, "comment_too_long"),
        ({"comment": "a\x00b"}, "invalid_request"),
    ],
)
def test_bad_input_is_refused_and_stores_nothing(
    answered: Inquiry, customer: Customer, feedback: dict[str, Any], code: str
) -> None:
    with pytest.raises(DomainError) as refused:
        give(customer, answered, ai_answer(answered), solved=False, **feedback)

    assert (refused.value.code, refused.value.status) == (code, 422)
    assert_nothing_stored(answered)


def test_a_comment_of_exactly_the_limit_is_kept(answered: Inquiry, customer: Customer) -> None:
    row = give(customer, answered, ai_answer(answered), solved=True, comment="あ" * 1000)

    assert len(row.comment) == 1000


# --- A reply saying the answer missed the point ---------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "そういうことではなく、返品の送料です",
        "That's not what I asked. How much is return shipping?",
    ],
)
def test_a_reply_saying_the_answer_missed_the_point_counts_as_not_solved(
    answered: Inquiry, customer: Customer, text: str, runs_started: list[str]
) -> None:
    message = services.customer_message_post(customer=customer, inquiry_id=answered.pk, text=text)

    row = AnswerFeedback.objects.get()
    assert (row.message, row.solved, row.source, row.comment) == (
        ai_answer(answered),
        False,
        "reply",
        text,
    )
    [review] = not_solved_reviews(answered)
    assert (review.package["review"]["reply"], review.package["review"]["comment"]) == (
        AI_REPLY,
        text,
    )
    assert message.is_pending  # stored, and waiting for a person
    assert runs_started == []


@pytest.mark.parametrize(
    "text",
    ["That's not what I ordered, the colour is wrong", "注文したものと違います", "ありがとう"],
)
def test_a_reply_about_something_else_goes_to_the_ai_as_usual(
    answered: Inquiry, customer: Customer, text: str, runs_started: list[str]
) -> None:
    services.customer_message_post(customer=customer, inquiry_id=answered.pk, text=text)

    assert not AnswerFeedback.objects.exists()
    assert not not_solved_reviews(answered)
    assert runs_started == [str(answered.pk)]


def test_missing_the_point_after_a_persons_reply_is_no_verdict_on_the_ai(
    answered: Inquiry, customer: Customer, reviewer: User, runs_started: list[str]
) -> None:
    message_store(
        inquiry=answered,
        author_kind=MessageAuthor.OPERATOR,
        author=reviewer,
        text="はい",
        channel="c",
    )

    services.customer_message_post(
        customer=customer, inquiry_id=answered.pk, text="質問の答えになっていません"
    )

    assert not AnswerFeedback.objects.exists()
    assert not not_solved_reviews(answered)


def test_missing_the_point_after_solved_was_given_still_reaches_the_queue_once(
    answered: Inquiry, customer: Customer
) -> None:
    give(customer, answered, ai_answer(answered), solved=True)

    for _ in range(2):
        services.customer_message_post(
            customer=customer, inquiry_id=answered.pk, text="you didn't answer my question"
        )

    assert list(AnswerFeedback.objects.values_list("solved", flat=True)) == [True]
    assert len(not_solved_reviews(answered)) == 1


def test_missing_the_point_again_after_a_person_decided_opens_a_new_review(
    answered: Inquiry, customer: Customer, reviewer: User, runs_started: list[str]
) -> None:
    """Decided once, the customer says it again: the queue hears of it anew, so the held
    conversation always has a wait for a person (never escalated with nothing open)."""
    give(customer, answered, ai_answer(answered), solved=False, comment=COMMENT)
    [first] = not_solved_reviews(answered)
    answer_review_record(escalation_id=first.pk, user=reviewer, verdict=Verdict("correct"))

    services.customer_message_post(
        customer=customer, inquiry_id=answered.pk, text="You didn't answer my question."
    )

    inquiry = Inquiry.objects.get(pk=answered.pk)
    reviews = not_solved_reviews(inquiry)
    assert len(reviews) == 2
    assert [r.status for r in reviews if r.pk != first.pk] == [EscalationStatus.OPEN]
    assert inquiry.status == InquiryStatus.ESCALATED
