"""Runs that no worker advances are re-dispatched; finished runs' checkpoints are pruned."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from agents import dispatch
from agents.maintenance import checkpoints_prune, runs_recover
from agents.models import Inquiry
from agents.runs import RunOutcome, inquiry_create
from netshop.models import Customer

Ask = Callable[..., RunOutcome]


def checkpoint_count(inquiry_id: str) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM checkpoints WHERE thread_id = %s", [inquiry_id])
        return cursor.fetchone()[0]


def test_finished_runs_older_than_the_cut_off_lose_their_checkpoints(ask: Ask) -> None:
    old = ask("ORD-1002はどこですか？")
    recent = ask("Where is ORD-1002?")
    Inquiry.objects.filter(pk=old.inquiry_id).update(
        resolved_at=timezone.now() - timedelta(days=40)
    )
    assert checkpoint_count(old.inquiry_id) > 0

    pruned = checkpoints_prune(older_than=timedelta(days=30))

    assert pruned == 1
    assert checkpoint_count(old.inquiry_id) == 0
    assert checkpoint_count(recent.inquiry_id) > 0


def test_the_prune_command_refuses_a_negative_age(demo_shop: None) -> None:
    with pytest.raises(Exception, match="--days must be zero or more"):
        call_command("prune_checkpoints", "--days", "-1")


def test_stuck_runs_are_dispatched_again_and_live_ones_left_alone(
    demo_shop: None, monkeypatch
) -> None:
    dispatched: list[str] = []
    monkeypatch.setattr(dispatch, "_submit", lambda task, inquiry_id: dispatched.append(inquiry_id))
    customer = Customer.objects.get(code="C0001")
    stuck = inquiry_create(customer=customer, text="ORD-1002はどこ？", start=False)
    fresh = inquiry_create(customer=customer, text="ORD-1003の内容は？", start=False)
    Inquiry.objects.filter(pk=stuck.pk).update(
        status="running", updated_at=timezone.now() - timedelta(minutes=10)
    )
    Inquiry.objects.filter(pk=fresh.pk).update(status="running")

    recovered = runs_recover(stale_after=timedelta(minutes=2))

    assert recovered == [str(stuck.pk)]
    assert dispatched == [str(stuck.pk)]
