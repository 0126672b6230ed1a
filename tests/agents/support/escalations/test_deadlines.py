"""Deadlines that act: an approval past its deadline moves to the managers' queue, once.

Given approvals waiting for a person, when the sweep runs after their deadline (twice, or
twice at once), then each moves to the managers' queue once, whoever held it lets go, the
customer is told once in their language, and the move is audited and published once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from agents.models import Escalation, Message, MessageAuthor
from agents.support.escalations.claims import (
    conversation_assign,
    escalation_claim,
    escalation_release,
)
from agents.support.escalations.deadlines import overdue_approvals_move
from agents.support.escalations.selectors import escalation_list
from agents.team.runs.tasks import move_overdue_approvals
from netshop.audit.models import AuditEntry
from netshop.roles import Role
from tests.factories import CustomerFactory
from tests.operators.api_helpers import escalation_for, inquiry_for, staff_user
from tests.support.concurrency import released_together
from tests.support.events import escalation_event, last_seq, published_after

pytestmark = pytest.mark.django_db

JA_DELAY = (
    "お待たせしており申し訳ございません。担当者がまだ確認しており、予定より少しお時間を"
    "いただいております。確認が済み次第、こちらでご連絡いたします。"
)
EN_DELAY = (
    "Thank you for waiting. Your request needs a little longer than we expected: a member of "
    "our team is still checking it, and we will write to you here as soon as it is done."
)


def past_deadline(escalation: Escalation, minutes: int = 5) -> Escalation:
    Escalation.objects.filter(pk=escalation.pk).update(
        deadline=timezone.now() - timedelta(minutes=minutes)
    )
    escalation.refresh_from_db()
    return escalation


def delay_messages(escalation: Escalation) -> list[tuple[str, str, str]]:
    rows = Message.objects.filter(inquiry_id=escalation.inquiry_id, author_kind=MessageAuthor.AI)
    return [(m.author_kind, m.language, m.text) for m in rows]


def test_an_overdue_approval_moves_to_the_managers_queue_and_the_customer_is_told() -> None:
    op = staff_user("op1", Role.OPERATOR)
    escalation = escalation_for()
    escalation_claim(escalation_id=escalation.pk, user=op)
    past_deadline(escalation)
    seq = last_seq()

    moved = overdue_approvals_move()

    assert moved == [str(escalation.pk)]
    escalation.refresh_from_db()
    assert (escalation.owner, escalation.claimed_by) == ("queue:managers", None)
    assert escalation.overdue_at is not None
    assert delay_messages(escalation) == [("ai", "ja", JA_DELAY)]
    events = published_after(seq)
    assert events[0] == ("escalation.overdue", escalation_event(escalation, previous="op1"))
    assert [event for event, _ in events] == [
        "escalation.overdue",
        "conversation.message",
        "inquiry.updated",
    ]
    entry = AuditEntry.objects.get(action="escalation.overdue")
    assert (entry.actor, entry.data) == (
        "system",
        {
            "escalation_id": str(escalation.pk),
            "previous": "op1",
            "holder": None,
            "owner": "queue:managers",
        },
    )


def test_an_english_customer_is_told_in_english() -> None:
    customer = CustomerFactory.create(language="en")
    escalation = past_deadline(escalation_for(inquiry_for(customer, text="Please refund me")))

    overdue_approvals_move()

    assert delay_messages(escalation) == [("ai", "en", EN_DELAY)]


def test_the_sweep_run_again_or_as_its_beat_task_moves_nothing_twice() -> None:
    escalation = past_deadline(escalation_for())

    first = move_overdue_approvals()
    second = move_overdue_approvals()

    assert (first, second) == (1, 0)
    assert len(delay_messages(escalation)) == 1
    assert AuditEntry.objects.filter(action="escalation.overdue").count() == 1


def test_an_approval_within_its_deadline_and_other_kinds_stay_where_they_are() -> None:
    waiting = escalation_for()
    failure = past_deadline(escalation_for(kind="failure", reason="tool_failure"))

    assert overdue_approvals_move() == []
    for escalation in (waiting, failure):
        escalation.refresh_from_db()
        assert (escalation.owner, escalation.overdue_at) == ("queue:operators", None)


def test_a_released_overdue_approval_goes_back_to_the_managers_queue() -> None:
    boss = staff_user("boss", Role.MANAGER)
    escalation = past_deadline(escalation_for())
    overdue_approvals_move()

    escalation_claim(escalation_id=escalation.pk, user=boss)
    escalation_release(escalation_id=escalation.pk, user=boss)

    escalation.refresh_from_db()
    assert escalation.owner == "queue:managers"
    page = escalation_list(user=boss, managers=True)
    assert [e.pk for e in page.items] == [escalation.pk]


def test_the_managers_filter_shows_only_the_moved_approvals() -> None:
    boss = staff_user("boss", Role.MANAGER)
    moved = past_deadline(escalation_for())
    escalation_for()  # still within its deadline
    overdue_approvals_move()

    assert [e.pk for e in escalation_list(user=boss, managers=True).items] == [moved.pk]
    assert len(escalation_list(user=boss).items) == 2


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_move_each_approval_and_tell_each_customer_once() -> None:
    escalations = [past_deadline(escalation_for()) for _ in range(5)]
    results = released_together(lambda _: overdue_approvals_move(), range(2))

    assert sorted(results[0] + results[1]) == sorted(str(e.pk) for e in escalations)
    for escalation in escalations:
        assert len(delay_messages(escalation)) == 1
    assert AuditEntry.objects.filter(action="escalation.overdue").count() == 5


def test_the_beat_task_moves_overdue_approvals_every_minute() -> None:
    assert settings.CELERY_BEAT_SCHEDULE["move-overdue-approvals"] == {
        "task": "agents.team.runs.tasks.move_overdue_approvals",
        "schedule": 60.0,
    }
    assert move_overdue_approvals.name == "agents.team.runs.tasks.move_overdue_approvals"


def test_a_conversation_a_person_owns_moves_but_the_ai_tells_the_customer_nothing() -> None:
    op = staff_user("op1", Role.OPERATOR)
    escalation = past_deadline(escalation_for())
    conversation_assign(inquiry_id=escalation.inquiry_id, user=op, assignee="op1")

    assert overdue_approvals_move() == [str(escalation.pk)]

    escalation.refresh_from_db()
    assert escalation.owner == "queue:managers"
    assert delay_messages(escalation) == []
