"""Verdicts on AI answers (issue 25, part 4).

Given a review escalation holding an AI answer, when a reviewer marks it correct, or wrong with
a reason category and a note, then the verdict is recorded once, the escalation is decided and
leaves the queue, and the audit trail keeps the verdict and category (the note as a digest);
a second verdict, or two sent at once, record one; a correction reaches the customer once.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from agents.models import (
    AnswerReview,
    EscalationStatus,
    Message,
    MessageAuthor,
    StaffText,
    StaffTextKind,
)
from agents.support.escalations.answer_reviews import Verdict, answer_review_record
from agents.support.escalations.claims import escalation_claim
from agents.support.escalations.selectors import review_next
from agents.support.escalations.services import escalation_decide
from agents.support.vocabulary import OperatorDecision, Skill
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, staff_user
from tests.support.concurrency import released_together
from tests.support.reviews import ai_resolved, sampled_review

pytestmark = pytest.mark.django_db

NOTE = "送料の説明が古い"


@pytest.fixture
def reviewer() -> User:
    return staff_user("rev", Role.OPERATOR)


def test_a_wrong_verdict_is_recorded_and_decides_the_review(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))

    review = answer_review_record(
        escalation_id=escalation.pk,
        user=reviewer,
        verdict=Verdict("wrong", "wrong_facts", NOTE),
    )

    assert (review.verdict, review.reason, review.note, review.intent, review.turn) == (
        "wrong",
        "wrong_facts",
        NOTE,
        "search_faq",
        1,
    )
    assert (review.inquiry_id, review.reviewer) == (escalation.inquiry_id, reviewer)
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.DECIDED
    assert escalation.decided_by == reviewer
    assert escalation.decision is not None
    assert escalation.decision["decision"] == OperatorDecision.REVIEWED
    assert (escalation.decision["verdict"], escalation.decision["verdict_reason"]) == (
        "wrong",
        "wrong_facts",
    )
    assert review_next(user=reviewer) is None  # it left the queue


def test_the_audit_keeps_the_verdict_and_category_and_only_a_digest_of_the_note(
    reviewer: User,
) -> None:
    escalation = sampled_review(ai_resolved(Skill.TRACK_SHIPMENT))

    answer_review_record(
        escalation_id=escalation.pk, user=reviewer, verdict=Verdict("wrong", "tone", NOTE)
    )

    entry = AuditEntry.objects.get(action="answer.reviewed")
    assert (entry.actor, entry.verdict, entry.reason) == ("rev", "wrong", "tone")
    assert entry.inquiry_id == escalation.inquiry_id
    assert NOTE not in str(entry.data)
    kept = StaffText.objects.get(kind=StaffTextKind.REVIEW_NOTE)
    assert (kept.text, kept.digest, kept.escalation_id) == (
        NOTE,
        entry.data["reason_digest"],
        escalation.pk,
    )
    assert AuditEntry.objects.filter(action="decision.reviewed").count() == 1


def test_a_correct_verdict_needs_no_reason_and_no_note(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.TRACK_SHIPMENT))

    review = answer_review_record(
        escalation_id=escalation.pk, user=reviewer, verdict=Verdict("correct")
    )

    assert (review.verdict, review.reason, review.note) == ("correct", "", "")
    assert "reason_digest" not in AuditEntry.objects.get(action="answer.reviewed").data


@pytest.mark.parametrize(
    ("verdict", "code"),
    [
        (Verdict("wrong"), "wrong_reason_required"),
        (Verdict("wrong", "rude"), "wrong_reason_required"),
        (Verdict("correct", "tone"), "wrong_reason_required"),
        (Verdict("fine"), "invalid_verdict"),
    ],
)
def test_an_incomplete_verdict_is_refused(reviewer: User, verdict: Verdict, code: str) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))

    with pytest.raises(DomainError) as refused:
        answer_review_record(escalation_id=escalation.pk, user=reviewer, verdict=verdict)

    assert (refused.value.code, refused.value.status) == (code, 422)
    assert not AnswerReview.objects.exists()


def test_a_second_verdict_is_refused_naming_the_first(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    answer_review_record(escalation_id=escalation.pk, user=reviewer, verdict=Verdict("correct"))

    with pytest.raises(DomainError) as again:
        answer_review_record(
            escalation_id=escalation.pk,
            user=staff_user("other", Role.OPERATOR),
            verdict=Verdict("wrong", "tone"),
        )

    assert (again.value.code, again.value.status) == ("already_reviewed", 409)
    assert "already marked correct by rev" in again.value.message
    assert AnswerReview.objects.count() == 1


def test_only_a_review_escalation_takes_a_verdict(reviewer: User) -> None:
    with pytest.raises(DomainError) as refused:
        answer_review_record(
            escalation_id=escalation_for().pk, user=reviewer, verdict=Verdict("correct")
        )

    assert refused.value.code == "not_a_review"


def test_a_review_taken_over_takes_no_verdict_after(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    escalation_decide(
        escalation_id=escalation.pk, user=reviewer, decision="take_over", reply="お答えします"
    )

    with pytest.raises(DomainError) as refused:
        answer_review_record(escalation_id=escalation.pk, user=reviewer, verdict=Verdict("correct"))

    assert refused.value.code == "already_decided"


def test_a_review_held_by_someone_else_is_theirs_to_mark(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    escalation_claim(escalation_id=escalation.pk, user=staff_user("holder", Role.OPERATOR))

    with pytest.raises(DomainError) as refused:
        answer_review_record(escalation_id=escalation.pk, user=reviewer, verdict=Verdict("correct"))

    assert refused.value.code == "claimed_by_other"


def test_a_correction_reaches_the_customer_once_in_their_language(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    correction = "失礼しました。コンビニ払いの期限は 5 日間です。"

    answer_review_record(
        escalation_id=escalation.pk,
        user=reviewer,
        verdict=Verdict("wrong", "wrong_facts"),
        correction=correction,
    )

    sent = Message.objects.filter(inquiry=escalation.inquiry, author_kind=MessageAuthor.OPERATOR)
    assert [(m.text, m.author, m.idempotency_key) for m in sent] == [
        (correction, reviewer, f"correction:{escalation.pk}")
    ]
    assert AuditEntry.objects.filter(action="answer.corrected").count() == 1
    with pytest.raises(DomainError):
        answer_review_record(
            escalation_id=escalation.pk,
            user=reviewer,
            verdict=Verdict("wrong", "wrong_facts"),
            correction=correction,
        )
    assert sent.count() == 1


@pytest.mark.parametrize(
    ("verdict", "correction", "code"),
    [
        (
            Verdict("wrong", "wrong_facts"),
            "Sorry, the deadline is five days.",
            "reason_language_unconfirmed",
        ),
        (Verdict("correct"), "念のためご連絡します。", "correction_needs_wrong"),
    ],
)
def test_a_correction_is_refused_when_it_does_not_fit(
    reviewer: User, verdict: Verdict, correction: str, code: str
) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))

    with pytest.raises(DomainError) as refused:
        answer_review_record(
            escalation_id=escalation.pk, user=reviewer, verdict=verdict, correction=correction
        )

    assert refused.value.code == code
    assert not AnswerReview.objects.exists()


def test_save_and_next_goes_to_the_next_open_review(reviewer: User) -> None:
    first = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    second = sampled_review(ai_resolved(Skill.TRACK_SHIPMENT))
    held = sampled_review(ai_resolved(Skill.ISSUE_RECEIPT))
    escalation_claim(escalation_id=held.pk, user=staff_user("holder", Role.OPERATOR))
    escalation_for()  # an approval is not a review

    assert review_next(user=reviewer, after=first.pk) == second
    answer_review_record(escalation_id=second.pk, user=reviewer, verdict=Verdict("correct"))
    assert review_next(user=reviewer, after=first.pk) is None


def verdict_outcome(user: User, escalation_id: Any) -> str:
    try:
        answer_review_record(
            escalation_id=escalation_id, user=user, verdict=Verdict("wrong", "tone")
        )
    except DomainError as conflict:
        return conflict.code
    return "recorded"


@pytest.mark.django_db(transaction=True)
def test_two_verdicts_sent_at_once_record_one() -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    users = [staff_user("rev1", Role.OPERATOR), staff_user("rev2", Role.OPERATOR)]

    outcomes = released_together(lambda u: verdict_outcome(u, escalation.pk), users)

    assert sorted(outcomes) == ["already_reviewed", "recorded"]
    assert AnswerReview.objects.count() == 1
    assert AuditEntry.objects.filter(action="answer.reviewed").count() == 1
