"""Runs that no worker advances are re-dispatched; finished runs' checkpoints are pruned."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from agents.models import Escalation, Inquiry
from agents.support import run_requests
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.services import escalation_decide
from agents.team.runs import lease, recovery
from agents.team.runs.lease import run_lease
from agents.team.runs.outcome import RunOutcome
from agents.team.runs.recovery import checkpoints_prune, runs_recover
from agents.team.runs.resends import run_taken
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


@pytest.fixture
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The runs handed to workers, in order (none reach a worker)."""
    sent: list[str] = []
    monkeypatch.setattr(run_requests, "_submit", lambda task, inquiry_id: sent.append(inquiry_id))
    return sent


def in_flight(*, unmoved_for: timedelta, status: str = "running") -> Inquiry:
    """A run the row says is in flight, last written ``unmoved_for`` ago."""
    inquiry = inquiry_for()
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=status, updated_at=timezone.now() - unmoved_for
    )
    return inquiry


def test_a_run_whose_lease_another_session_holds_is_never_recovered_however_old(
    transactional_db: None, dispatched: list[str]
) -> None:
    live = in_flight(unmoved_for=timedelta(hours=3))

    with run_lease(str(live.pk)) as held:  # on the lease connection, not the one recovery reads
        assert held
        recovered = runs_recover()

    assert recovered == []
    assert dispatched == []


def test_a_run_nobody_holds_is_recovered_after_the_grace_and_not_before(
    transactional_db: None, dispatched: list[str], settings: Any
) -> None:
    settings.NETSHOP_RUN_RECOVERY_GRACE_S = 10
    dead = in_flight(unmoved_for=timedelta(seconds=12))
    just_queued = in_flight(unmoved_for=timedelta(seconds=5), status="queued")

    recovered = runs_recover()

    assert recovered == [str(dead.pk)]
    assert dispatched == [str(dead.pk)]
    assert str(just_queued.pk) not in dispatched


def test_only_the_runs_nobody_holds_are_recovered_oldest_first(
    transactional_db: None, dispatched: list[str]
) -> None:
    older = in_flight(unmoved_for=timedelta(minutes=5))
    live = in_flight(unmoved_for=timedelta(minutes=4))
    newer = in_flight(unmoved_for=timedelta(minutes=1), status="queued")

    with run_lease(str(live.pk)):
        recovered = runs_recover()

    assert recovered == [str(older.pk), str(newer.pk)]


def test_a_run_sent_again_is_not_sent_again_while_no_worker_has_taken_it(
    transactional_db: None, dispatched: list[str]
) -> None:
    """A task waiting in a busy queue looks like a lost one: it gets one copy, not one per
    sweep."""
    waiting = in_flight(unmoved_for=timedelta(minutes=1), status="queued")

    first = runs_recover()
    second = runs_recover()

    assert (first, second) == ([str(waiting.pk)], [])
    assert dispatched == [str(waiting.pk)]


def test_a_run_whose_worker_died_after_taking_the_copy_is_sent_again_at_once(
    transactional_db: None, dispatched: list[str]
) -> None:
    dead_twice = in_flight(unmoved_for=timedelta(minutes=1))
    runs_recover()

    taken = run_taken(str(dead_twice.pk))
    taken.__enter__()  # the worker that took the copy dies inside: its exit never runs
    recovered = runs_recover()

    assert recovered == [str(dead_twice.pk)]
    assert dispatched == [str(dead_twice.pk)] * 2


def test_a_run_a_worker_took_and_let_go_of_is_not_sent_round_every_sweep(
    transactional_db: None, dispatched: list[str]
) -> None:
    """A run the row keeps showing in flight after a worker had it (nothing it could do) is
    sent again once per window, not once per sweep."""
    stuck = in_flight(unmoved_for=timedelta(minutes=1))
    runs_recover()

    with run_taken(str(stuck.pk)):
        pass
    recovered = runs_recover()

    assert recovered == []
    assert dispatched == [str(stuck.pk)]


def test_a_run_whose_copy_the_broker_refused_is_sent_at_the_next_sweep(
    transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts: list[str] = []

    def refuse_the_first(task: str, inquiry_id: str) -> None:
        attempts.append(inquiry_id)
        if len(attempts) == 1:
            raise ConnectionError("the broker is away")

    monkeypatch.setattr(run_requests, "_submit", refuse_the_first)
    lost = in_flight(unmoved_for=timedelta(minutes=1))

    runs_recover()
    runs_recover()

    assert attempts == [str(lost.pk)] * 2


def test_without_the_marks_recovery_still_sends_and_workers_still_run(
    transactional_db: None, dispatched: list[str], settings: Any
) -> None:
    """The marks only spare duplicates: an unreachable cache costs a copy, never a run."""
    settings.CACHES = {
        **settings.CACHES,
        "runs": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        },
    }
    dead = in_flight(unmoved_for=timedelta(minutes=1))

    recovered = runs_recover()
    with run_taken(str(dead.pk)):
        taken = True

    assert (recovered, dispatched, taken) == ([str(dead.pk)], [str(dead.pk)], True)


def test_where_leases_cannot_be_seen_age_alone_judges_over_the_stale_window(
    transactional_db: None, dispatched: list[str], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite (the embedded shape): a lease is a lock inside the server process, which
    ``manage.py recover_runs`` cannot see."""
    monkeypatch.setattr(recovery, "leases_visible", lambda: False)
    settings.NETSHOP_RUN_STALE_S = 120
    old = in_flight(unmoved_for=timedelta(minutes=3))
    recent = in_flight(unmoved_for=timedelta(minutes=1))

    recovered = runs_recover()

    assert recovered == [str(old.pk)]
    assert str(recent.pk) not in dispatched


def test_beat_looks_for_runs_to_recover_every_ten_seconds(settings: Any) -> None:
    assert settings.CELERY_BEAT_SCHEDULE["recover-runs"] == {
        "task": "agents.team.runs.tasks.recover_runs",
        "schedule": 10.0,
        "options": {"expires": 10.0},
    }


def test_the_server_probes_a_lease_connection_so_a_vanished_hosts_leases_go_in_seconds(
    transactional_db: None,
) -> None:
    with run_lease("probe") as held:
        assert held
        conn = lease._lease_connection().conn  # the session holding the lease; no other sees
        assert conn is not None  # its settings
        probes = [
            conn.execute(f"SHOW {name}").fetchone()
            for name in ("tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count")
        ]

    assert probes == [("10",), ("5",), ("3",)]
