"""Claims and assignment: who holds an escalation or a conversation, and for how long.

Given escalations recorded as runs record them and operators and managers, when they claim,
release, assign, or leave a claim idle past the timeout, then the holder changes exactly as
the rules say, every change is audited and published once, and a refusal changes nothing.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import override_settings
from django.utils import timezone

from agents.models import Escalation, InquiryStatus
from agents.support.escalations.claims import (
    claim_touch,
    claims_expire,
    colleagues_assignable,
    conversation_assign,
    escalation_assign,
    escalation_claim,
    escalation_release,
)
from agents.team.runs.tasks import expire_claims
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, inquiry_for, staff_user
from tests.support.concurrency import released_together
from tests.support.events import escalation_event, last_seq, published_after

pytestmark = pytest.mark.django_db


@pytest.fixture
def op1() -> User:
    return staff_user("op1", Role.OPERATOR)


@pytest.fixture
def op2() -> User:
    return staff_user("op2", Role.OPERATOR)


@pytest.fixture
def boss() -> User:
    return staff_user("boss", Role.MANAGER)


@pytest.fixture
def escalation() -> Escalation:
    return escalation_for()


def audited(escalation: Escalation, action: str) -> list[dict[str, object]]:
    entries = AuditEntry.objects.filter(inquiry_id=escalation.inquiry_id, action=action)
    return [{"actor": e.actor, **e.data} for e in entries.order_by("seq")]


def idle_for(escalation: Escalation, minutes: int) -> None:
    then = timezone.now() - timedelta(minutes=minutes)
    Escalation.objects.filter(pk=escalation.pk).update(claimed_at=then, claim_active_at=then)


# --- Managers and claims ------------------------------------------------------------------


def test_a_manager_takes_over_an_operators_claim(
    op1: User, boss: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    seq = last_seq()

    escalation_claim(escalation_id=escalation.pk, user=boss)

    escalation.refresh_from_db()
    assert (escalation.claimed_by, escalation.owner) == (boss, "boss")
    assert published_after(seq) == [
        ("escalation.claimed", escalation_event(escalation, claimed_by="boss", previous="op1"))
    ]
    assert audited(escalation, "escalation.claimed")[-1] == {
        "actor": "boss",
        "escalation_id": str(escalation.pk),
        "previous": "op1",
        "holder": "boss",
        "owner": "boss",
    }


def test_a_manager_releases_an_operators_claim_but_an_operator_may_not(
    op1: User, op2: User, boss: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)

    with pytest.raises(DomainError) as refused:
        escalation_release(escalation_id=escalation.pk, user=op2)
    seq = last_seq()
    escalation_release(escalation_id=escalation.pk, user=boss)

    assert refused.value.message == "Claimed by op1."
    escalation.refresh_from_db()
    assert (escalation.claimed_by, escalation.owner) == (None, "queue:operators")
    assert published_after(seq) == [
        ("escalation.released", escalation_event(escalation, previous="op1"))
    ]


def test_an_operator_still_may_not_take_another_operators_claim(
    op1: User, op2: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    seq = last_seq()

    with pytest.raises(DomainError) as refused:
        escalation_claim(escalation_id=escalation.pk, user=op2)

    assert (refused.value.code, refused.value.status) == ("claimed_by_other", 409)
    escalation.refresh_from_db()
    assert escalation.claimed_by == op1
    assert published_after(seq) == []


# --- Assignment -----------------------------------------------------------------------------


def test_an_operator_assigns_an_unclaimed_escalation_to_a_colleague(
    op1: User, op2: User, escalation: Escalation
) -> None:
    seq = last_seq()

    escalation_assign(escalation_id=escalation.pk, user=op1, assignee="op2")

    escalation.refresh_from_db()
    assert (escalation.claimed_by, escalation.owner) == (op2, "op2")
    assert escalation.claim_active_at is not None
    assert published_after(seq) == [
        ("escalation.assigned", escalation_event(escalation, claimed_by="op2", assigned_by="op1"))
    ]
    assert audited(escalation, "escalation.assigned") == [
        {
            "actor": "op1",
            "escalation_id": str(escalation.pk),
            "previous": None,
            "holder": "op2",
            "owner": "op2",
        }
    ]


def test_assigning_twice_to_the_same_colleague_changes_it_once(
    op1: User, op2: User, escalation: Escalation
) -> None:
    seq = last_seq()

    escalation_assign(escalation_id=escalation.pk, user=op1, assignee="op2")
    escalation_assign(escalation_id=escalation.pk, user=op1, assignee="op2")

    assert [event for event, _ in published_after(seq)] == ["escalation.assigned"]
    assert len(audited(escalation, "escalation.assigned")) == 1


@pytest.mark.parametrize("who", ["customer", "inactive", "nobody"])
def test_an_escalation_is_assigned_only_to_an_active_colleague(
    who: str, op1: User, escalation: Escalation
) -> None:
    staff_user("customer", None)
    User.objects.filter(pk=staff_user("inactive", Role.OPERATOR).pk).update(is_active=False)
    seq = last_seq()

    with pytest.raises(DomainError) as refused:
        escalation_assign(escalation_id=escalation.pk, user=op1, assignee=who)

    assert (refused.value.code, refused.value.status) == ("assignee_not_colleague", 422)
    escalation.refresh_from_db()
    assert escalation.claimed_by is None
    assert published_after(seq) == []


def test_an_operator_may_not_reassign_another_operators_claim_but_a_manager_may(
    op1: User, op2: User, boss: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)

    with pytest.raises(DomainError) as refused:
        escalation_assign(escalation_id=escalation.pk, user=op2, assignee="op2")
    escalation_assign(escalation_id=escalation.pk, user=boss, assignee="op2")

    assert refused.value.code == "claimed_by_other"
    escalation.refresh_from_db()
    assert escalation.claimed_by == op2
    assert audited(escalation, "escalation.assigned")[-1]["previous"] == "op1"


def test_the_colleagues_offered_are_the_active_operators_and_managers(
    op1: User, op2: User, boss: User
) -> None:
    staff_user("customer", None)
    gone = staff_user("gone", Role.OPERATOR)
    gone.is_active = False
    gone.save()

    assert [u.username for u in colleagues_assignable()] == ["boss", "op1", "op2"]


def test_a_conversation_is_assigned_to_a_colleague_and_the_ai_stays_silent(
    op1: User, op2: User, boss: User
) -> None:
    inquiry = inquiry_for()

    conversation_assign(inquiry_id=inquiry.pk, user=op1, assignee="op2")
    with pytest.raises(DomainError) as refused:
        conversation_assign(inquiry_id=inquiry.pk, user=op1, assignee="op1")
    conversation_assign(inquiry_id=inquiry.pk, user=boss, assignee="op1")

    assert refused.value.message == "The conversation is taken over by op2."
    inquiry.refresh_from_db()
    assert (inquiry.human_owner, inquiry.status) == (op1, InquiryStatus.HANDLED_BY_HUMAN)
    entries = AuditEntry.objects.filter(inquiry_id=inquiry.pk, action="conversation.assigned")
    assert [(e.actor, e.data) for e in entries.order_by("seq")] == [
        ("op1", {"assignee": "op2", "previous": None}),
        ("boss", {"assignee": "op1", "previous": "op2"}),
    ]


# --- Idle claims ----------------------------------------------------------------------------


@override_settings(NETSHOP_CLAIM_TIMEOUT_MINUTES=30)
def test_an_idle_claim_is_released_and_announced_once(op1: User, escalation: Escalation) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    idle_for(escalation, 31)
    seq = last_seq()

    first, second = claims_expire(), claims_expire()

    assert (first, second) == ([str(escalation.pk)], [])
    escalation.refresh_from_db()
    assert (escalation.claimed_by, escalation.owner) == (None, "queue:operators")
    assert published_after(seq) == [
        ("escalation.claim_timed_out", escalation_event(escalation, previous="op1"))
    ]
    assert audited(escalation, "escalation.claim_timed_out") == [
        {
            "actor": "system",
            "escalation_id": str(escalation.pk),
            "previous": "op1",
            "holder": None,
            "owner": "queue:operators",
        }
    ]


@override_settings(NETSHOP_CLAIM_TIMEOUT_MINUTES=30)
def test_activity_keeps_a_claim(op1: User, op2: User, escalation: Escalation) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    idle_for(escalation, 31)

    others = claim_touch(escalation_id=escalation.pk, user=op2)  # not theirs: no activity
    holders = claim_touch(escalation_id=escalation.pk, user=op1)

    assert (others, holders) == (False, True)
    assert claims_expire() == []
    escalation.refresh_from_db()
    assert escalation.claimed_by == op1


@override_settings(NETSHOP_CLAIM_TIMEOUT_MINUTES=30)
def test_a_claim_within_the_timeout_is_kept(op1: User, escalation: Escalation) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    idle_for(escalation, 29)

    assert claims_expire() == []


@pytest.mark.django_db(transaction=True)
@override_settings(NETSHOP_CLAIM_TIMEOUT_MINUTES=30)
def test_two_sweeps_at_once_release_each_idle_claim_once() -> None:
    op = staff_user("op1", Role.OPERATOR)
    escalations = [escalation_for() for _ in range(6)]
    for escalation in escalations:
        escalation_claim(escalation_id=escalation.pk, user=op)
        idle_for(escalation, 45)
    results = released_together(lambda _: claims_expire(), range(2))

    released = sorted(results[0] + results[1])
    assert released == sorted(str(e.pk) for e in escalations)
    assert AuditEntry.objects.filter(action="escalation.claim_timed_out").count() == 6
    assert not Escalation.objects.filter(claimed_by__isnull=False).exists()


@override_settings(NETSHOP_CLAIM_TIMEOUT_MINUTES=30)
def test_the_beat_task_releases_idle_claims_every_minute(op1: User, escalation: Escalation) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    idle_for(escalation, 31)

    assert expire_claims() == 1
    assert settings.CELERY_BEAT_SCHEDULE["expire-claims"] == {
        "task": "agents.team.runs.tasks.expire_claims",
        "schedule": 60.0,
    }
    assert expire_claims.name == "agents.team.runs.tasks.expire_claims"
