"""The verdict endpoint (issue 25, part 4): the same service and refusals as the console."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from agents.models import AnswerReview, Escalation
from agents.support.vocabulary import Skill
from netshop.roles import Role
from tests.operators.api_helpers import bearer, escalation_for, staff_key, staff_user
from tests.support.reviews import ai_resolved, sampled_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> Client:
    return Client(headers=bearer(staff_key(staff_user("rev", Role.OPERATOR))))


def verdict(client: Client, escalation: Escalation | str, **body: Any) -> Any:
    pk = escalation.pk if isinstance(escalation, Escalation) else escalation
    return client.post(
        f"/api/v1/escalations/{pk}/verdict", json.dumps(body), content_type="application/json"
    )


def test_a_verdict_is_recorded_and_the_review_decided(api: Client) -> None:
    escalation = sampled_review(ai_resolved(Skill.TRACK_SHIPMENT))

    response = verdict(api, escalation, verdict="wrong", reason="wrong_order", note="別の注文")

    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in ("verdict", "reason", "intent", "turn", "reviewer")} == {
        "verdict": "wrong",
        "reason": "wrong_order",
        "intent": "track_shipment",
        "turn": 1,
        "reviewer": "rev",
    }
    assert (body["escalation"]["status"], body["escalation"]["decision"]) == (
        "decided",
        "reviewed",
    )
    assert AnswerReview.objects.get().note == "別の注文"


def test_a_second_verdict_is_a_conflict(api: Client) -> None:
    escalation = sampled_review(ai_resolved(Skill.TRACK_SHIPMENT))
    verdict(api, escalation, verdict="correct")

    again = verdict(api, escalation, verdict="correct")

    assert (again.status_code, again.json()["code"]) == (409, "already_reviewed")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"verdict": "wrong"}, "wrong_reason_required"),
        ({"verdict": "correct", "reason": "tone"}, "wrong_reason_required"),
        ({"verdict": "maybe"}, "invalid_request"),
        ({"verdict": "wrong", "reason": "rude"}, "invalid_request"),
        ({"verdict": "correct", "note": "\x00"}, "invalid_request"),
    ],
)
def test_a_bad_verdict_is_a_422(api: Client, body: dict[str, str], code: str) -> None:
    escalation = sampled_review(ai_resolved(Skill.TRACK_SHIPMENT))

    response = verdict(api, escalation, **body)

    assert (response.status_code, response.json()["code"]) == (422, code)
    assert not AnswerReview.objects.exists()


def test_only_a_review_takes_a_verdict(api: Client) -> None:
    response = verdict(api, escalation_for(), verdict="correct")
    missing = verdict(api, "00000000-0000-0000-0000-000000000000", verdict="correct")

    assert (response.status_code, response.json()["code"]) == (422, "not_a_review")
    assert missing.status_code == 404
