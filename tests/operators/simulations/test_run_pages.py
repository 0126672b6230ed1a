"""Starting a run from a suite's page (the worker takes it after commit, the page polls its
status) and reading a finished run: figures, versions, categories, cases with regressions first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from agents.simulation import services
from agents.simulation.candidates import Candidate
from agents.simulation.models import RunStatus, SimulationRun
from netshop.roles import Role
from operators.preferences import staff_preference_set
from tests.operators.api_helpers import signed_in, staff_user
from tests.operators.simulations.stored_runs import Outcome, finished_run, stored_suite

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept_folder(tmp_path: Path, settings: Any) -> Path:
    settings.NETSHOP_SIMULATION_CANDIDATES = tmp_path
    settings.OPENAI_BASE_URL = ""
    return tmp_path


def start(client: Client, suite_id: int, **data: Any) -> Any:
    form = {"configuration": "", "k": "1", "threshold": "0.9", **data}
    return client.post(f"/audit/simulations/suites/{suite_id}/run", form)


# --- Starting a run ----------------------------------------------------------------------------


def test_a_run_is_queued_handed_to_a_worker_after_commit_and_its_page_polls(
    manager: Client, submitted: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    suite = stored_suite()

    with django_capture_on_commit_callbacks(execute=True):
        response = start(manager, suite.pk, k="3", threshold="0.75")

    run = SimulationRun.objects.get()
    assert response["Location"] == f"/audit/simulations/runs/{run.pk}/"
    assert (run.status, run.k, run.threshold, run.candidate_name) == ("queued", 3, 0.75, "")
    assert submitted == [((services.SIMULATION_TASK, run.pk), {"pool": "simulations"})]
    page = manager.get(response["Location"]).content.decode()
    assert f'data-status-url="/audit/simulations/runs/{run.pk}/status"' in page
    assert 'data-status="queued"' in page
    assert "js/simulations.js" in page


def test_the_status_says_where_the_run_stands(manager: Client) -> None:
    suite = stored_suite()
    done = finished_run(suite, {"pay-en": Outcome(True), "pay-ja": Outcome(False)})

    status = manager.get(f"/audit/simulations/runs/{done.pk}/status").json()

    assert status == {
        "status": "failed",
        "status_text": "failed",
        "finished": True,
        "cases_done": 2,
    }


@pytest.mark.parametrize(
    ("data", "field"),
    [({"k": "0"}, "k"), ({"k": "6"}, "k"), ({"threshold": "1.5"}, "threshold")],
)
def test_a_run_out_of_bounds_is_refused_and_nothing_queued(
    manager: Client, submitted: list[tuple[Any, ...]], data: dict[str, str], field: str
) -> None:
    suite = stored_suite()

    response = start(manager, suite.pk, **data)

    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert SimulationRun.objects.count() == 0
    assert submitted == []


def test_a_kept_candidate_is_offered_and_runs_as_its_file_says(
    manager: Client, submitted: list[tuple[Any, ...]], kept_folder: Path
) -> None:
    (kept_folder / "cheap.toml").write_text(
        'name = "cheaper model"\nprovider = "openai"\nmodel = "small-1"\n'
        'base_url = "http://127.0.0.1:9/v1"\n',
        encoding="utf-8",
    )
    (kept_folder / "broken.json").write_text("{", encoding="utf-8")
    suite = stored_suite()

    choices = dict(
        manager.get(f"/audit/simulations/suites/{suite.pk}/")
        .context["form"]
        .fields["configuration"]
        .choices
    )
    start(manager, suite.pk, configuration="kept:cheap.toml")

    assert choices["kept:cheap.toml"] == "cheaper model (cheap.toml)"
    assert "kept:broken.json" not in choices  # a file that cannot be used is not offered
    run = SimulationRun.objects.get()
    assert run.candidate_name == "cheaper model"
    assert run.candidate["base_url"] == "http://127.0.0.1:9/v1"


def test_a_file_name_outside_the_folder_is_no_candidate(
    manager: Client, submitted: list[tuple[Any, ...]], kept_folder: Path
) -> None:
    suite = stored_suite()

    response = start(manager, suite.pk, configuration="kept:../settings.toml")

    assert response.status_code == 400
    assert SimulationRun.objects.count() == 0


def uploaded(text: str, name: str = "candidate.toml") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"))


def test_an_uploaded_candidate_chooses_models_and_policy(
    manager: Client, submitted: list[tuple[Any, ...]], kept_folder: Path
) -> None:
    suite = stored_suite()
    text = 'name = "lower cap"\nprovider = "offline"\n[policy]\nNETSHOP_COUPON_CAP_YEN = 500\n'

    start(manager, suite.pk, configuration="upload", candidate_file=uploaded(text))

    run = SimulationRun.objects.get()
    assert run.candidate == {
        "name": "lower cap",
        "provider": "offline",
        "policy": {"NETSHOP_COUPON_CAP_YEN": "500"},
    }


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('base_url = "http://10.0.0.5:8080/v1"\n', "a model server the shop already uses"),
        ('api_key_env = "SECRET_KEY"\n', "may not set api_key_env"),
        ('router_model = "/etc/passwd"\n', "may not set router_model"),
        ('articles = "../../var/secret_key"\n', "may not set articles"),
        ("provider = [\n", "not valid JSON or TOML"),
        ('provider = "anthropic"\n', "provider must be one of"),
    ],
    ids=["other-host", "key-variable", "router-file", "articles-file", "not-toml", "provider"],
)
def test_an_uploaded_candidate_cannot_point_the_sandbox_anywhere(
    manager: Client, submitted: list[tuple[Any, ...]], kept_folder: Path, text: str, says: str
) -> None:
    suite = stored_suite()

    response = start(manager, suite.pk, configuration="upload", candidate_file=uploaded(text))

    assert response.status_code == 400
    assert says in str(response.context["form"].errors["candidate_file"])
    assert SimulationRun.objects.count() == 0
    assert submitted == []


def test_an_uploaded_candidate_may_use_a_model_server_of_a_kept_one(
    manager: Client, submitted: list[tuple[Any, ...]], kept_folder: Path
) -> None:
    (kept_folder / "local.json").write_text(
        '{"provider": "openai", "base_url": "http://127.0.0.1:9/v1"}', encoding="utf-8"
    )
    suite = stored_suite()
    text = '{"provider": "openai", "model": "other-2", "base_url": "http://127.0.0.1:9/v1"}'

    start(manager, suite.pk, configuration="upload", candidate_file=uploaded(text, "c.json"))

    assert SimulationRun.objects.get().candidate["models"]["writer"] == "other-2"


# --- Reading a run -----------------------------------------------------------------------------


def test_a_run_shows_its_figures_versions_categories_and_regressions_first(
    manager: Client,
) -> None:
    suite = stored_suite("payments", "pay-en", "pay-ja", "pay-other")
    finished_run(suite, {i: Outcome(True) for i in ("pay-en", "pay-ja", "pay-other")})
    now = finished_run(
        suite,
        {
            "pay-en": Outcome(True),
            "pay-ja": Outcome(False, reasons=["reply misses one of ['カード']"], category="ja"),
            "pay-other": Outcome(True),
        },
        candidate=Candidate(name="gpt candidate", provider="openai"),
        versions={"provider": "openai", "models": {"writer": "gpt-x"}, "prompt_digest": "c" * 64},
    )

    response = manager.get(f"/audit/simulations/runs/{now.pk}/")

    page = response.content.decode()
    assert response.context["title"] == f"Run {now.pk}: payments against gpt candidate"
    assert response.context["score"] == "67%"
    assert [v.result.case_id for v in response.context["cases"]] == [
        "pay-ja",
        "pay-en",
        "pay-other",
    ]
    assert [v.regressed for v in response.context["cases"]] == [True, False, False]
    assert 'id="regressions">1<' in page
    earlier = response.context["earlier"]
    assert f"/audit/simulations/compare/?before={earlier.pk}&amp;after={now.pk}" in page
    assert "reply misses one of [&#x27;カード&#x27;]" in page
    versions = {r["label"]: r["cells"][0]["value"] for r in response.context["versions"]}
    assert versions["Model provider"] == "openai"
    assert versions["Models"] == "writer: gpt-x"
    assert versions["Prompt digest"] == "cccccccccccc"
    assert versions["Policy version"] == "not recorded"
    assert [(c["name"], c["cases"], c["passed"]) for c in response.context["categories"]] == [
        ("faq", 2, 2),
        ("ja", 1, 0),
    ]


def test_pass_at_k_is_shown_for_each_k(manager: Client) -> None:
    suite = stored_suite()
    run = finished_run(suite, {"pay-en": Outcome(True), "pay-ja": Outcome(False)}, k=3)

    response = manager.get(f"/audit/simulations/runs/{run.pk}/")

    assert response.context["pass_at"] == [("1", "50%"), ("2", "50%"), ("3", "50%")]
    assert "pass^3" in response.content.decode()


def test_a_reply_with_markup_is_shown_as_text(manager: Client) -> None:
    suite = stored_suite()
    reply = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    run = finished_run(suite, {"pay-en": Outcome(True, reply=reply)})

    page = manager.get(f"/audit/simulations/runs/{run.pk}/").content.decode()

    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_a_run_that_could_not_run_says_why(manager: Client) -> None:
    run = finished_run(stored_suite(), {})
    SimulationRun.objects.filter(pk=run.pk).update(
        status=RunStatus.ERROR, error="the sandbox exited with 1:\nboom"
    )

    page = manager.get(f"/audit/simulations/runs/{run.pk}/").content.decode()

    assert "could not run" in page
    assert "boom" in page


def test_the_run_page_reads_in_japanese() -> None:
    kanrisha = staff_user("kanrisha", Role.MANAGER)
    staff_preference_set(user=kanrisha, language="ja", time_zone="Asia/Tokyo")
    run = finished_run(stored_suite(), {"pay-en": Outcome(True), "pay-ja": Outcome(False)})

    page = signed_in(kanrisha).get(f"/audit/simulations/runs/{run.pk}/").content.decode()

    assert "カテゴリ別" in page
    assert "前回の実行からの回帰" in page
    assert '<span class="badge verdict-fail">不合格</span>' in page


def test_an_uploaded_candidate_may_use_the_model_server_in_force(
    manager: Client, submitted: list[tuple[Any, ...]], kept_folder: Path, settings: Any
) -> None:
    settings.OPENAI_BASE_URL = "http://models.internal:8000/v1"
    suite = stored_suite()
    text = '{"provider": "openai", "base_url": "http://models.internal:8000/v1"}'

    start(manager, suite.pk, configuration="upload", candidate_file=uploaded(text, "c.json"))

    assert SimulationRun.objects.get().candidate["base_url"] == "http://models.internal:8000/v1"
