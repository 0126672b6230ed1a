"""Done when (issue 28): a run against the OpenAI-compatible path and one against the offline
model, of the same suite, show side by side in the console.

Both runs are real: each starts the sandbox child, which seeds its own shop and answers the
suite's cases. The OpenAI run's candidate is kept in the deployment's candidates folder and
points the real ``ChatOpenAI`` at the local fake server (answering as the offline model would,
``offline_answer``), so the comparison shows the OpenAI path's wire taken end to end.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from agents.simulation.candidates import IN_FORCE
from agents.simulation.models import SimulationRun, SimulationSuite
from agents.simulation.services import run_create, run_execute, suite_store
from netshop.roles import Role
from operators.simulations.candidates import kept_candidate
from tests.operators.api_helpers import signed_in, staff_user
from tests.operators.simulations.stored_runs import case_line
from tests.support.fake_openai import FakeOpenAI
from tests.support.offline_proxy import offline_answer

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(300)]

CASE_IDS = ("en-payment", "ja-payment", "en-person")


@pytest.fixture
def suite() -> SimulationSuite:
    lines = [
        case_line("en-payment", text="Which payment methods do you accept?"),
        case_line("ja-payment", lang="ja", text="支払い方法は何が使えますか？"),
        # A person asked for: escalated, so the expectation of a resolution fails on both.
        case_line("en-person", category="handoff", text="I want to talk to a person please."),
    ]
    return suite_store(name="payments", content="\n".join(lines))


@pytest.fixture
def openai_candidate(
    tmp_path: Path, settings: Any, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> str:
    """A candidate file the deployment keeps: the OpenAI path at the fake server."""
    monkeypatch.setenv("SIMULATION_TEST_OPENAI_KEY", "test-key")
    settings.NETSHOP_SIMULATION_CANDIDATES = tmp_path
    fake_openai.responder = offline_answer
    (tmp_path / "openai.toml").write_text(
        f'name = "OpenAI-compatible"\nprovider = "openai"\nmodel = "gpt-test"\n'
        f'base_url = "{fake_openai.base_url}"\napi_key_env = "SIMULATION_TEST_OPENAI_KEY"\n',
        encoding="utf-8",
    )
    return "openai.toml"


def test_an_openai_run_and_an_offline_run_of_one_suite_show_side_by_side(
    suite: SimulationSuite, openai_candidate: str, fake_openai: FakeOpenAI
) -> None:
    offline = run_execute(run=run_create(suite=suite, candidate=IN_FORCE))
    remote = run_execute(run=run_create(suite=suite, candidate=kept_candidate(openai_candidate)))
    manager = signed_in(staff_user("kanrisha", Role.MANAGER))

    response = manager.get(f"/audit/simulations/compare/?before={offline.pk}&after={remote.pk}")

    assert (offline.error, remote.error) == ("", "")
    assert fake_openai.chat_requests, "the OpenAI run went through the fake server"
    assert {r["model"] for r in fake_openai.chat_requests} == {"gpt-test"}
    assert fake_openai.rejected == []
    assert response.status_code == 200
    context = response.context
    assert [c["title"] for c in context["columns"]] == [
        f"Run {offline.pk}: payments against configuration in force",
        f"Run {remote.pk}: payments against OpenAI-compatible",
    ]
    versions = {row["label"]: [c["value"] for c in row["cells"]] for row in context["versions"]}
    assert versions["Model provider"] == ["offline", "openai"]
    assert versions["Model server"] == ["–", fake_openai.base_url]
    assert versions["Models"][1] == "specialist: gpt-test, supervisor: gpt-test, writer: gpt-test"
    # Every case in both columns, with both verdicts and both replies.
    rows = {row["case_id"]: row for row in context["cases"]}
    assert sorted(rows) == sorted(CASE_IDS)
    for case_id in CASE_IDS:
        left, right = rows[case_id]["sides"]
        assert left.result.run_id == offline.pk
        assert right.result.run_id == remote.pk
        assert left.result.reply
        assert right.result.reply
    verdicts = {i: [s.result.passed for s in rows[i]["sides"]] for i in CASE_IDS}
    assert verdicts == {
        "en-payment": [True, True],
        "ja-payment": [True, True],
        "en-person": [False, False],
    }
    page = response.content.decode()
    assert len(re.findall(r'<tr data-case="en-payment"', page)) == 1
    assert page.count('class="badge verdict-pass"') == 4
    assert page.count('class="badge verdict-fail"') == 2
    assert SimulationRun.objects.filter(status__in=("passed", "failed")).count() == 2
