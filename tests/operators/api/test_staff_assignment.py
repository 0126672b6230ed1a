"""The staff API's assignment: give an escalation or a conversation to a colleague.

Given operators, a manager and escalations recorded as runs record them, when they assign,
take over and work on claims over HTTP, then the holder changes as the rules say, refusals
name who holds it and change nothing, and a holder's previews and decisions keep a claim.
"""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import timezone

from agents.models import Escalation, InquiryStatus
from agents.support.escalations.claims import escalation_claim
from agents.support.escalations.deadlines import overdue_approvals_move
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, inquiry_for, signed_in, staff_user
from tests.support.events import escalation_event, last_seq, published_after

pytestmark = pytest.mark.django_db

BASE = "/api/v1/escalations"


def post(client: Client, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


@pytest.fixture
def boss() -> User:
    return staff_user("boss", Role.MANAGER)


@pytest.mark.parametrize(
    ("caller", "status"), [("anonymous", 401), ("customer", 403), ("operator", 200)]
)
def test_assigning_needs_the_operator_role(
    caller: str, status: int, op2: User, escalation: Escalation
) -> None:
    client = Client()
    if caller != "anonymous":
        client.force_login(staff_user(caller, Role.OPERATOR if caller == "operator" else None))
    inquiry = inquiry_for()

    assigned = post(client, f"{BASE}/{escalation.pk}/assign", {"assignee": "op2"})
    conversation = post(client, f"/api/v1/conversations/{inquiry.pk}/assign", {"assignee": "op2"})

    assert (assigned.status_code, conversation.status_code) == (status, status)
    escalation.refresh_from_db()
    inquiry.refresh_from_db()
    expected = op2 if status == 200 else None
    assert (escalation.claimed_by, inquiry.human_owner) == (expected, expected)


def test_an_escalation_assigned_over_the_api_is_the_colleagues(
    op1: User, op2: User, escalation: Escalation
) -> None:
    seq = last_seq()

    response = post(signed_in(op1), f"{BASE}/{escalation.pk}/assign", {"assignee": "op2"})

    assert response.status_code == 200
    assert response.json()["claimed_by"] == "op2"
    detail = signed_in(op2).get(f"{BASE}/{escalation.pk}").json()
    assert detail["owner"] == "op2"
    assert published_after(seq) == [
        ("escalation.assigned", escalation_event(escalation, claimed_by="op2", assigned_by="op1"))
    ]


def test_assigning_someone_elses_claim_is_refused_naming_the_holder(
    op1: User, op2: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    seq = last_seq()

    refused = post(signed_in(op2), f"{BASE}/{escalation.pk}/assign", {"assignee": "op2"})

    assert refused.status_code == 409
    assert refused.json() == {"code": "claimed_by_other", "message": "Claimed by op1."}
    assert published_after(seq) == []


def test_assigning_to_someone_who_is_not_a_colleague_is_refused(
    op1: User, escalation: Escalation
) -> None:
    staff_user("shopper", None)

    refused = post(signed_in(op1), f"{BASE}/{escalation.pk}/assign", {"assignee": "shopper"})

    assert refused.status_code == 422
    assert refused.json() == {
        "code": "assignee_not_colleague",
        "message": "shopper is not an active operator or manager: choose a colleague.",
    }
    escalation.refresh_from_db()
    assert escalation.claimed_by is None


def test_a_manager_takes_over_and_releases_an_operators_claim_over_the_api(
    op1: User, boss: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)

    taken = post(signed_in(boss), f"{BASE}/{escalation.pk}/claim")
    escalation_claim(escalation_id=escalation.pk, user=boss)
    released = post(signed_in(boss), f"{BASE}/{escalation.pk}/release")

    assert (taken.status_code, taken.json()["claimed_by"]) == (200, "boss")
    assert (released.status_code, released.json()["claimed_by"]) == (200, None)


def test_a_conversation_assigned_over_the_api_is_handled_by_the_colleague(
    op1: User, op2: User
) -> None:
    inquiry = inquiry_for()

    response = post(
        signed_in(op1), f"/api/v1/conversations/{inquiry.pk}/assign", {"assignee": "op2"}
    )
    refused = post(
        signed_in(op1), f"/api/v1/conversations/{inquiry.pk}/assign", {"assignee": "op1"}
    )

    assert response.json() == {
        "id": str(inquiry.pk),
        "status": InquiryStatus.HANDLED_BY_HUMAN,
        "human_owner": "op2",
    }
    assert refused.status_code == 409
    assert refused.json()["code"] == "owned_by_other"


@pytest.mark.django_db(transaction=True)
def test_a_double_click_on_assign_assigns_once(
    op1: User, op2: User, escalation: Escalation
) -> None:
    # Two requests at once, as a double click sends them: one change, one event.
    seq = last_seq()
    responses: list[int] = []
    barrier = threading.Barrier(2)

    def click() -> None:
        barrier.wait()
        try:
            url = f"{BASE}/{escalation.pk}/assign"
            responses.append(post(signed_in(op1), url, {"assignee": "op2"}).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert responses == [200, 200]
    assert [event for event, _ in published_after(seq)] == ["escalation.assigned"]


def test_a_holders_preview_and_decision_attempt_keep_the_claim_active(
    op1: User, op2: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    long_ago = timezone.now() - timedelta(hours=1)
    Escalation.objects.filter(pk=escalation.pk).update(claim_active_at=long_ago)

    post(signed_in(op2), f"{BASE}/{escalation.pk}/preview", {"decision": "approve"})
    escalation.refresh_from_db()
    after_other = escalation.claim_active_at
    post(signed_in(op1), f"{BASE}/{escalation.pk}/preview", {"decision": "approve"})
    escalation.refresh_from_db()
    after_preview = escalation.claim_active_at
    Escalation.objects.filter(pk=escalation.pk).update(claim_active_at=long_ago)
    refused = post(signed_in(op1), f"{BASE}/{escalation.pk}/decide", {"decision": "reject"})
    escalation.refresh_from_db()

    assert after_other == long_ago  # someone else's preview is not the holder's activity
    assert after_preview is not None
    assert after_preview > long_ago
    assert refused.status_code == 422  # a rejection needs a reason: refused, but activity
    assert escalation.claim_active_at is not None
    assert escalation.claim_active_at > long_ago


def test_the_managers_filter_lists_the_overdue_approvals(boss: User) -> None:
    late = escalation_for()
    Escalation.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    escalation_for()
    overdue_approvals_move()

    response = signed_in(boss).get(BASE, {"managers": "true"})

    assert [item["id"] for item in response.json()["items"]] == [str(late.pk)]
    assert signed_in(boss).get(f"{BASE}/{late.pk}").json()["owner"] == "queue:managers"
