"""Two runs side by side: scores, versions, categories and each case's verdict and reply in
both, the cases whose verdict changed first; only finished runs can be compared."""

from __future__ import annotations

import pytest
from django.test import Client

from agents.simulation.candidates import Candidate
from agents.simulation.services import run_create
from tests.operators.simulations.stored_runs import Outcome, finished_run, stored_suite

pytestmark = pytest.mark.django_db


def test_two_runs_show_each_case_in_both_with_changed_verdicts_first(manager: Client) -> None:
    suite = stored_suite("payments", "pay-en", "pay-ja")
    offline = finished_run(suite, {"pay-en": Outcome(True), "pay-ja": Outcome(True)})
    remote = finished_run(
        suite,
        {"pay-en": Outcome(True), "pay-ja": Outcome(False, reply="<b>No</b>", reasons=["x"])},
        candidate=Candidate(name="remote", provider="openai"),
        versions={"provider": "openai", "base_url": "http://127.0.0.1:9/v1"},
    )

    response = manager.get(f"/audit/simulations/compare/?before={offline.pk}&after={remote.pk}")

    rows = response.context["cases"]
    assert [(r["case_id"], r["changed"]) for r in rows] == [("pay-ja", True), ("pay-en", False)]
    assert [side.verdict for side in rows[0]["sides"]] == ["passed", "failed"]
    assert [c["score"] for c in response.context["columns"]] == ["100%", "50%"]
    differs = {r["label"] for r in response.context["versions"] if r["differs"]}
    assert {"Model provider", "Model server"} <= differs
    assert "&lt;b&gt;No&lt;/b&gt;" in response.content.decode()


def test_nothing_chosen_shows_the_form_alone(manager: Client) -> None:
    response = manager.get("/audit/simulations/compare/")

    assert response.status_code == 200
    assert "columns" not in response.context


@pytest.mark.parametrize("query", ["before=1", "before=x&after=y", "before={queued}&after={done}"])
def test_a_missing_unknown_or_unfinished_run_is_refused(manager: Client, query: str) -> None:
    suite = stored_suite()
    done = finished_run(suite, {"pay-en": Outcome(True)})
    queued = run_create(suite=suite)

    response = manager.get(
        "/audit/simulations/compare/?" + query.format(queued=queued.pk, done=done.pk)
    )

    assert response.status_code == 400
    assert "columns" not in response.context
