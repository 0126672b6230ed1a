"""A manager uploads a suite, starts a run and watches it finish without reloading the page.

Given the demo's manager login, when they upload a suite file in Chromium, start a run of it
and a worker then finishes the run, then the run's page (which polls the run's status) shows
the results by itself: the score, and the failing case first with its reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from agents.simulation.models import SimulationRun
from agents.simulation.services import result_store, run_finish
from tests.browser.conftest import OpenSession
from tests.operators.simulations.stored_runs import Outcome, case_event, suite_text

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("shop")
def test_a_manager_starts_a_run_and_its_page_shows_the_results_when_it_finishes(
    open_session: OpenSession, shots: Path, tmp_path: Path
) -> None:
    suite_file = tmp_path / "payments.jsonl"
    suite_file.write_text(suite_text("pay-en", "pay-ja"), encoding="utf-8")
    page = open_session("manager").page

    page.goto("/audit/simulations/")
    page.locator("#id_file").set_input_files(str(suite_file))
    page.get_by_role("button", name="Upload").click()
    expect(page.locator("#cases tbody tr")).to_have_count(2)
    page.get_by_role("button", name="Start the run").click()
    expect(page.locator("#run-status")).to_have_text("queued")

    # No worker reads the broker in this test: it finishes the run as the worker would (the
    # task, if a worker ever takes it, finds the run no longer queued and leaves it).
    run = SimulationRun.objects.get()
    finished: dict[str, Any] = {
        "pay-en": Outcome(True),
        "pay-ja": Outcome(False, reasons=["empty reply"]),
    }
    for case_id, outcome in finished.items():
        result_store(run, case_event(case_id, outcome), category="faq", language="en")
    run_finish(run)

    expect(page.locator("#run-status")).to_have_text("failed", timeout=10_000)
    expect(page.locator("#score")).to_have_text("50%")
    expect(page.locator("#case-results tbody tr").first).to_have_attribute("data-case", "pay-ja")
    expect(page.locator("#case-results .reasons").first).to_have_text("empty reply")
    page.screenshot(path=shots / "simulation-run.png", full_page=True)
