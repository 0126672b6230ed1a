"""The queue's filters, defined once: a live row belongs exactly where the list shows it.

Given escalations of every kind and claim, some late, one decided, when each filter
combination is asked of ``escalation_in_queue`` one escalation at a time, then it admits
exactly the escalations ``escalation_list`` returns for the same filters.
"""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agents.models import Escalation
from agents.support.escalations.claims import escalation_claim
from agents.support.escalations.selectors import escalation_in_queue, escalation_list
from agents.support.escalations.services import escalation_decide
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, staff_user

pytestmark = pytest.mark.django_db

KINDS = (None, "approval", "failure")
REASONS = (None, "approval_required", "tool_failure")
OVERDUE = (None, True, False)


@pytest.fixture
def queue() -> tuple[User, list[Escalation]]:
    me, other = staff_user("me", Role.OPERATOR), staff_user("other", Role.OPERATOR)
    mine = escalation_for()
    theirs = escalation_for(kind="failure", reason="tool_failure")
    late = escalation_for(kind="failure", reason="tool_failure")
    decided = escalation_for()
    unclaimed = escalation_for()
    escalation_claim(escalation_id=mine.pk, user=me)
    escalation_claim(escalation_id=theirs.pk, user=other)
    escalation_decide(escalation_id=decided.pk, user=me, decision="reject", reason="対象外です")
    past = timezone.now() - timedelta(minutes=5)
    Escalation.objects.filter(pk__in=[late.pk, decided.pk]).update(deadline=past)
    return me, [mine, theirs, late, decided, unclaimed]


def test_one_row_belongs_exactly_where_the_list_shows_it(
    queue: tuple[User, list[Escalation]],
) -> None:
    me, escalations = queue
    combinations = itertools.product(KINDS, REASONS, OVERDUE, (False, True), (False, True))
    for kind, reason, overdue, mine, unclaimed in combinations:
        filters: dict[str, Any] = {
            "kind": kind,
            "reason": reason,
            "overdue": overdue,
            "mine": mine,
            "unclaimed": unclaimed,
        }
        listed = {e.pk for e in escalation_list(user=me, **filters).items}

        admitted = {
            e.pk
            for e in escalations
            if escalation_in_queue(escalation_id=e.pk, user=me, **filters) is not None
        }

        assert admitted == listed, filters


def test_a_decided_escalation_is_in_no_queue(queue: tuple[User, list[Escalation]]) -> None:
    me, escalations = queue
    decided = escalations[3]

    assert escalation_in_queue(escalation_id=decided.pk, user=me) is None
    assert escalation_in_queue(escalation_id=decided.pk, user=me, overdue=True) is None


def test_an_unknown_or_malformed_id_is_in_no_queue(queue: tuple[User, list[Escalation]]) -> None:
    me, _ = queue
    nobody = "00000000-0000-0000-0000-000000000000"

    assert escalation_in_queue(escalation_id=nobody, user=me) is None
    assert escalation_in_queue(escalation_id="not-a-uuid", user=me) is None


def test_the_filters_of_a_live_row_are_the_lists_own(
    queue: tuple[User, list[Escalation]],
) -> None:
    me, escalations = queue
    mine, theirs, late, _, unclaimed = escalations

    found = escalation_in_queue(escalation_id=late.pk, user=me, kind="failure", overdue=True)

    assert found is not None
    assert found.pk == late.pk
    assert escalation_in_queue(escalation_id=theirs.pk, user=me, mine=True) is None
    assert escalation_in_queue(escalation_id=mine.pk, user=me, unclaimed=True) is None
    assert escalation_in_queue(escalation_id=unclaimed.pk, user=me, kind="failure") is None
