"""The review page's verdict form (issue 25, part 4): correct, or wrong with what was wrong and
a note; "save and next" opens the next answer to review; a second verdict names the first;
the labels in the reviewer's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agents.models import AnswerReview, Escalation, EscalationStatus
from agents.support.escalations.claims import escalation_claim
from agents.support.vocabulary import Skill
from netshop.roles import Role
from operators.models import StaffPreference
from tests.operators.api_helpers import escalation_for, signed_in, staff_user
from tests.support.reviews import ai_resolved, sampled_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviewer() -> User:
    return staff_user("rev", Role.OPERATOR)


def post_verdict(client: Client, escalation: Escalation, **form: Any) -> Any:
    return client.post(f"/console/escalations/{escalation.pk}/verdict", form)


def test_the_review_page_offers_the_verdict_form(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))

    html = signed_in(reviewer).get(f"/console/escalations/{escalation.pk}/").content.decode()

    assert 'id="verdict-form"' in html
    assert f'action="/console/escalations/{escalation.pk}/verdict"' in html
    for value in ("wrong_facts", "wrong_action", "did_not_answer", "wrong_order", "tone"):
        assert f'value="{value}"' in html
    assert 'id="verdict-next-button"' in html
    assert 'id="reviewed-button"' not in html  # the verdict replaces "nothing to change"


def test_an_approval_page_has_no_verdict_form(reviewer: User) -> None:
    html = signed_in(reviewer).get(f"/console/escalations/{escalation_for().pk}/").content
    assert b'id="verdict-form"' not in html


def test_save_and_next_records_the_verdict_and_opens_the_next_review(reviewer: User) -> None:
    first = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    second = sampled_review(ai_resolved(Skill.TRACK_SHIPMENT))
    client = signed_in(reviewer)

    response = post_verdict(
        client,
        first,
        verdict="wrong",
        reason="did_not_answer",
        note="質問に答えていない",
        then="next",
    )

    assert response.status_code == 302
    assert response["Location"] == f"/console/escalations/{second.pk}/"
    review = AnswerReview.objects.get()
    assert (review.escalation_id, review.verdict, review.reason, review.note) == (
        first.pk,
        "wrong",
        "did_not_answer",
        "質問に答えていない",
    )
    first.refresh_from_db()
    assert first.status == EscalationStatus.DECIDED
    page = client.get(f"/console/escalations/{first.pk}/").content.decode()
    assert 'id="verdict-banner"' in page
    assert "did not answer the question" in page


def test_save_and_next_with_nothing_left_goes_to_the_review_queue(reviewer: User) -> None:
    only = sampled_review(ai_resolved(Skill.SEARCH_FAQ))

    response = post_verdict(signed_in(reviewer), only, verdict="correct", then="next")

    assert response["Location"] == "/console/?kind=review"


def test_save_stays_on_the_page(reviewer: User) -> None:
    only = sampled_review(ai_resolved(Skill.SEARCH_FAQ))

    response = post_verdict(signed_in(reviewer), only, verdict="correct")

    assert response["Location"] == f"/console/escalations/{only.pk}/"


@pytest.mark.parametrize(
    ("form", "status"),
    [
        ({"verdict": "wrong"}, 422),  # what was wrong?
        ({"verdict": "maybe"}, 422),
        ({}, 422),
        ({"verdict": "wrong", "reason": "rude"}, 422),
    ],
)
def test_an_incomplete_verdict_is_refused_and_nothing_recorded(
    reviewer: User, form: dict[str, str], status: int
) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))

    response = post_verdict(signed_in(reviewer), escalation, **form)

    assert response.status_code == status
    assert not AnswerReview.objects.exists()
    escalation.refresh_from_db()
    assert escalation.status == EscalationStatus.OPEN


def test_a_second_verdict_names_who_gave_the_first(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    post_verdict(signed_in(reviewer), escalation, verdict="correct")

    late = post_verdict(
        signed_in(staff_user("late", Role.OPERATOR)), escalation, verdict="wrong", reason="tone"
    )

    assert late.status_code == 409
    assert "Already reviewed by rev" in late.content.decode()
    assert AnswerReview.objects.get().verdict == "correct"


def test_a_review_held_by_someone_else_is_refused(reviewer: User) -> None:
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))
    escalation_claim(escalation_id=escalation.pk, user=staff_user("holder", Role.OPERATOR))

    response = post_verdict(signed_in(reviewer), escalation, verdict="correct")

    assert response.status_code == 409
    assert not AnswerReview.objects.exists()


def test_a_japanese_reviewer_reads_the_verdict_form_in_japanese(reviewer: User) -> None:
    StaffPreference.objects.create(user=reviewer, language="ja", time_zone="Asia/Tokyo")
    escalation = sampled_review(ai_resolved(Skill.SEARCH_FAQ))

    html = signed_in(reviewer).get(f"/console/escalations/{escalation.pk}/").content.decode()

    assert "保存して次へ" in html
    assert "事実の誤り" in html
