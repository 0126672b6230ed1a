"""The console's services: store a suite, start a run in a worker, list and read runs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.simulation import services
from agents.simulation.models import RunStatus, SimulationRun
from agents.simulation.results import runs_list
from agents.simulation.services import run_start, suite_store
from agents.simulation.suites import SuiteError
from agents.simulation.tasks import simulation_run

CASE = {
    "id": "en-hello",
    "category": "faq",
    "customer": "C0002",
    "lang": "en",
    "turns": [{"text": "What payment methods do you accept?", "expected_status": ["resolved"]}],
}


@pytest.mark.django_db
def test_a_suite_is_stored_once_per_name_and_a_new_text_is_a_new_version() -> None:
    first = suite_store(name="mine", content=json.dumps(CASE), source="upload")
    changed = {**CASE, "category": "payment"}

    again = suite_store(name="mine", content=json.dumps(changed))

    assert again.pk == first.pk
    assert again.digest != first.digest
    assert json.loads(again.content)["category"] == "payment"


@pytest.mark.django_db
def test_a_suite_that_does_not_parse_is_not_stored() -> None:
    with pytest.raises(SuiteError, match="case en-hello: lang must be one of"):
        suite_store(name="bad", content=json.dumps({**CASE, "lang": "de"}))


@pytest.mark.django_db
def test_a_started_run_is_handed_to_a_worker_after_commit_and_the_task_runs_it(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[tuple[str, tuple[Any, ...], str]] = []
    monkeypatch.setattr(
        services, "task_submit", lambda name, *args, pool: sent.append((name, args, pool))
    )
    suite = suite_store(name="console", content=json.dumps(CASE))

    with django_capture_on_commit_callbacks(execute=True):
        run = run_start(suite=suite, threshold=0.5)
        assert sent == []  # not before the commit

    assert sent == [("agents.simulation.tasks.simulation_run", (run.pk,), "simulations")]
    assert run.status == RunStatus.QUEUED
    simulation_run(run.pk)
    simulation_run(run.pk)  # a second delivery finds it done and does nothing

    run.refresh_from_db()
    assert (run.status, run.cases_total) == (RunStatus.PASSED, 1)
    assert list(runs_list(suite_id=suite.pk)) == [run]
    assert SimulationRun.objects.count() == 1
