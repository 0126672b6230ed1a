"""Runs that no worker advances are re-dispatched; finished runs' checkpoints are pruned."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from agents.models import Escalation, Inquiry
from agents.support import run_requests
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.services import escalation_decide
from agents.team.runs.outcome import RunOutcome
from agents.team.runs.recovery import checkpoints_prune, runs_recover
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, inquiry_for, staff_user
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]


def checkpoint_count(inquiry_id: str) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM checkpoints WHERE thread_id = %s", [inquiry_id])
        return cursor.fetchone()[0]


def test_finished_runs_older_than_the_cut_off_lose_their_checkpoints(
    shop: SupportShop, ask: Ask
) -> None:
    old = ask(f"{shop.hanako.in_transit.number}はどこですか？")
    recent = ask(f"Where is {shop.hanako.in_transit.number}?")
    Inquiry.objects.filter(pk=old.inquiry_id).update(
        resolved_at=timezone.now() - timedelta(days=40)
    )
    assert checkpoint_count(old.inquiry_id) > 0

    pruned = checkpoints_prune(older_than=timedelta(days=30))

    assert pruned == 1
    assert checkpoint_count(old.inquiry_id) == 0
    assert checkpoint_count(recent.inquiry_id) > 0


def test_the_prune_command_refuses_a_negative_age(shop: SupportShop) -> None:
    with pytest.raises(Exception, match="--days must be zero or more"):
        call_command("prune_checkpoints", "--days", "-1")


def test_stuck_runs_are_dispatched_again_and_live_ones_left_alone(
    shop: SupportShop, monkeypatch
) -> None:
    dispatched: list[str] = []
    monkeypatch.setattr(
        run_requests, "_submit", lambda task, inquiry_id: dispatched.append(inquiry_id)
    )
    customer = shop.hanako.customer
    stuck = inquiry_create(
        customer=customer, text=f"{shop.hanako.in_transit.number}はどこ？", start=False
    )
    fresh = inquiry_create(
        customer=customer, text=f"{shop.hanako.delivered.number}の内容は？", start=False
    )
    Inquiry.objects.filter(pk=stuck.pk).update(
        status="running", updated_at=timezone.now() - timedelta(minutes=10)
    )
    Inquiry.objects.filter(pk=fresh.pk).update(status="running")

    recovered = runs_recover(stale_after=timedelta(minutes=2))

    assert recovered == [str(stuck.pk)]
    assert dispatched == [str(stuck.pk)]


def test_a_run_is_resumed_when_its_newest_wait_is_decided_whatever_the_clocks_say(
    shop: SupportShop, monkeypatch
) -> None:
    """A decision taken while a redelivered task held the run (so the resume was turned away
    and the run's row saved after it) is still picked up; an older decision never is."""
    monkeypatch.setattr(run_requests, "_submit", lambda task, inquiry_id: None)
    operator = staff_user("op-recover", Role.OPERATOR)
    decided_last, retry_open = inquiry_for(), inquiry_for()
    for inquiry in (decided_last, retry_open):
        approval = escalation_for(inquiry)
        escalation_decide(escalation_id=approval.pk, user=operator, decision="approve")
    escalation_for(retry_open, kind="failure", reason="action_failed")  # the newer wait, open
    long_ago = timezone.now() - timedelta(minutes=10)
    Inquiry.objects.update(status="awaiting_approval", updated_at=long_ago)
    Escalation.objects.update(decided_at=long_ago - timedelta(minutes=5))  # the older clock

    recovered = runs_recover(stale_after=timedelta(minutes=2))

    assert recovered == [str(decided_last.pk)]
