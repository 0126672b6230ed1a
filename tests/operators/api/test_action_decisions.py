"""The staff API: decisions per action, four eyes and limits by role (issue 15, 1 and 2).

Given escalations holding a refund and a cancellation, or one large refund, when operators
and managers decide them over HTTP, then each action keeps its own decision, refusals say
who may approve, and two managers approving at once give exactly one second approval.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from agents.models import Escalation
from agents.support.escalations import services
from netshop.roles import Role
from tests.operators.api_helpers import refund_escalation, signed_in, staff_user

pytestmark = pytest.mark.django_db

BASE = "/api/v1/escalations"


def decide(client: Client, escalation: Escalation, **body: Any) -> Any:
    return client.post(
        f"{BASE}/{escalation.pk}/decide", json.dumps(body), content_type="application/json"
    )


def shown(response: Any) -> dict[str, tuple[str, str | None, list[str]]]:
    """Each action's (state, decision, approvals) as the API answers them."""
    return {
        a["action_id"]: (a["state"], a["decision"], a["approvals"])
        for a in response.json()["action_decisions"]
    }


@pytest.fixture
def resumed(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []
    monkeypatch.setattr(services, "enqueue_run", calls.append)
    return calls


@pytest.fixture
def mgr1() -> User:
    return staff_user("mgr1", Role.MANAGER)


@pytest.fixture
def mgr2() -> User:
    return staff_user("mgr2", Role.MANAGER)


def test_a_refund_and_a_cancellation_are_decided_one_by_one(
    op1: User, op2: User, resumed: list[object]
) -> None:
    both = refund_escalation(12800, with_cancellation=True)

    first = decide(signed_in(op1), both, decision="approve", action_id="a1")
    second = decide(
        signed_in(op2), both, decision="reject", reason="発送済みのため", action_id="a2"
    )

    assert first.status_code == 200
    assert first.json()["status"] == "open"
    assert shown(first) == {
        "a1": ("decided", "approve", ["op1"]),
        "a2": ("pending", None, []),
    }
    assert second.status_code == 200
    assert (second.json()["status"], second.json()["decided_by"]) == ("decided", "op2")
    assert shown(second) == {
        "a1": ("decided", "approve", ["op1"]),
        "a2": ("decided", "reject", []),
    }
    assert resumed == [both.inquiry_id]


def test_the_detail_shows_each_actions_decision(op1: User) -> None:
    both = refund_escalation(12800, with_cancellation=True)
    decide(signed_in(op1), both, decision="edit", params={"amount": 6400}, action_id="a1")

    detail = signed_in(op1).get(f"{BASE}/{both.pk}").json()

    [refund, cancel] = detail["action_decisions"]
    assert (refund["state"], refund["decision"], refund["amount"], refund["decided_by"]) == (
        "decided",
        "edit",
        6400,
        "op1",
    )
    assert (cancel["state"], cancel["amount"], cancel["decided_at"]) == ("pending", 3980, None)


def test_re_deciding_an_action_is_409_naming_who_decided(op1: User, op2: User) -> None:
    both = refund_escalation(12800, with_cancellation=True)
    decide(signed_in(op1), both, decision="approve", action_id="a1")

    again = decide(signed_in(op2), both, decision="reject", reason="いいえ", action_id="a1")

    both.refresh_from_db()
    at = both.action_decisions["a1"]["at"]
    assert again.status_code == 409
    assert again.json() == {
        "code": "already_decided",
        "message": f"Already approved by op1 at {at}.",
    }


def test_an_unknown_action_is_422(op1: User) -> None:
    refund = refund_escalation(12800)

    response = decide(signed_in(op1), refund, decision="approve", action_id="nope")

    assert response.status_code == 422
    assert response.json()["code"] == "action_not_found"


def test_a_four_eyes_refund_needs_another_managers_second_approval(
    op1: User, op2: User, mgr1: User, resumed: list[object]
) -> None:
    large = refund_escalation(30000)

    first = decide(signed_in(op1), large, decision="approve")
    by_operator = decide(signed_in(op2), large, decision="approve")
    twice = decide(signed_in(op1), large, decision="approve")

    assert first.status_code == 200
    assert first.json()["status"] == "open"
    assert shown(first) == {"a1": ("awaiting_second_approval", "approve", ["op1"])}
    assert (by_operator.status_code, by_operator.json()) == (
        403,
        {
            "code": "second_approval_needs_manager",
            "message": "This needs a second approval by a manager.",
        },
    )
    assert (twice.status_code, twice.json()) == (
        409,
        {
            "code": "second_approval_by_other",
            "message": "A second approval must come from another manager than op1.",
        },
    )
    assert resumed == []

    second = decide(signed_in(mgr1), large, decision="approve")

    assert second.status_code == 200
    assert (second.json()["status"], second.json()["decided_by"]) == ("decided", "mgr1")
    assert shown(second) == {"a1": ("decided", "approve", ["op1", "mgr1"])}
    assert resumed == [large.inquiry_id]


def test_an_operator_may_not_approve_above_their_limit(
    op1: User, mgr1: User, mgr2: User, resumed: list[object]
) -> None:
    huge = refund_escalation(150000)

    refused = decide(signed_in(op1), huge, decision="approve")
    first = decide(signed_in(mgr1), huge, decision="approve")
    second = decide(signed_in(mgr2), huge, decision="approve")

    assert (refused.status_code, refused.json()["code"]) == (403, "over_operator_limit")
    assert shown(first) == {"a1": ("awaiting_second_approval", "approve", ["mgr1"])}
    assert shown(second) == {"a1": ("decided", "approve", ["mgr1", "mgr2"])}
    assert resumed == [huge.inquiry_id]


@pytest.mark.django_db(transaction=True)
def test_two_managers_approving_at_once_give_exactly_one_second_approval(
    op1: User, mgr1: User, mgr2: User, resumed: list[object]
) -> None:
    large = refund_escalation(50000)
    decide(signed_in(op1), large, decision="approve")
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def approve(manager: User) -> None:
        client = signed_in(manager)
        barrier.wait()
        try:
            answers.append(decide(client, large, decision="approve").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(m,)) for m in (mgr1, mgr2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [200, 409]
    large.refresh_from_db()
    assert len(large.action_decisions["a1"]["record"]["approvals"]) == 2
    assert resumed == [large.inquiry_id]
