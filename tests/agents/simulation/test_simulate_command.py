"""``manage.py simulate`` end to end: a small suite run in the sandbox (its own database, a
child process), stored with its versions, gated by its threshold, regressions first.

The sandbox seeds the demo scenario in its own database; these tests name no order of it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from agents.simulation.models import RunStatus, SimulationRun
from agents.simulation.results import run_cases, run_summary, runs_compare
from agents.simulation.versions import articles_version
from netshop.knowledge.models import ArticleCategory
from tests.factories import help_article
from tests.support.workers import worker_env

ROOT = Path(__file__).resolve().parents[3]


def case(
    case_id: str, category: str, customer: str, lang: str, text: str, **expect: Any
) -> dict[str, Any]:
    """A one-turn case in the suite's own form."""
    turn = {"text": text, **expect}
    return {
        "id": case_id,
        "category": category,
        "customer": customer,
        "lang": lang,
        "turns": [turn],
    }


POLICY_TEXT = "How long do I have to return something I don't want?"
POLICY_QUESTION = case(
    "en-policy",
    "faq",
    "C0002",
    "en",
    POLICY_TEXT,
    expected_status=["resolved"],
    expected_agents=["faq"],
    expected_action=None,
    forbidden=["action:any", "effect:any"],
)
VAGUE_TEXT = "ちょっと相談したいことがあります"
VAGUE = case(
    "ja-vague",
    "unclear",
    "C0001",
    "ja",
    VAGUE_TEXT,
    expected_status=["awaiting_customer", "escalated"],
    forbidden=["action:any"],
)
# Right question, wrong expectation: a policy question never waits for an approval.
WRONG = case(
    "en-policy-wrong", "faq", "C0002", "en", POLICY_TEXT, expected_status=["awaiting_approval"]
)


def suite(tmp_path: Path, *cases: dict[str, Any]) -> Path:
    path = tmp_path / "suite.jsonl"
    path.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in cases), "utf-8")
    return path


@pytest.mark.django_db
def test_a_suite_runs_in_the_sandbox_and_is_stored_with_its_versions(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    printed = StringIO()

    call_command(
        "simulate",
        str(suite(tmp_path, POLICY_QUESTION, VAGUE, WRONG)),
        "--name",
        "small",
        "--threshold",
        "0.6",
        "--out",
        str(out),
        stdout=printed,
    )

    run = SimulationRun.objects.get()
    assert (run.status, run.cases_total, run.cases_passed, run.score) == (
        RunStatus.PASSED,
        3,
        2,
        0.6667,
    )
    assert run.pass_at == {"1": 0.6667}
    assert run.versions["provider"] == "offline"
    assert len(run.versions["prompt_digest"]) == len(run.versions["router_digest"]) == 64
    assert run.versions["policy_version"] == "0"  # no version saved: the environment's
    assert run.versions["articles_version"].endswith(" texts, ", 0, -12)  # the scenario's
    assert [(row.category, row.cases, row.passed) for row in run_summary(run)] == [
        ("faq", 2, 1),
        ("unclear", 1, 1),
    ]
    wrong = run.results.get(case_id="en-policy-wrong")
    assert wrong.reasons == ["status resolved not in ['awaiting_approval']"]
    assert wrong.reason_codes == [
        {"code": "status", "params": {"status": "resolved", "expected": ["awaiting_approval"]}}
    ]
    assert wrong.reply  # the reply is kept to read
    assert [r["id"] for r in json.loads(out.read_text("utf-8")) if not r["pass"]] == [
        "en-policy-wrong"
    ]
    lines = printed.getvalue().splitlines()
    assert lines[0].startswith("PASS en-policy faq status=resolved actions=- 1/1")
    assert "FAIL en-policy-wrong" in printed.getvalue()


@pytest.mark.django_db
def test_below_the_threshold_the_command_fails_and_the_regression_comes_first(
    tmp_path: Path,
) -> None:
    call_command(
        "simulate",
        str(suite(tmp_path, POLICY_QUESTION, VAGUE)),
        "--name",
        "gate",
        stdout=StringIO(),
    )
    broken = case("ja-vague", "unclear", "C0001", "ja", VAGUE_TEXT, expected_status=["resolved"])

    with pytest.raises(CommandError, match=r"below the threshold 0\.9"):
        call_command(
            "simulate",
            str(suite(tmp_path, POLICY_QUESTION, broken)),
            "--name",
            "gate",
            stdout=StringIO(),
        )

    first, second = SimulationRun.objects.order_by("id")
    assert (first.status, second.status, second.regressions) == (
        RunStatus.PASSED,
        RunStatus.FAILED,
        1,
    )
    assert [(r.case_id, r.regressed) for r in run_cases(second)] == [
        ("ja-vague", True),
        ("en-policy", False),
    ]
    compared = runs_compare(first, second)
    assert compared["score"] == (1.0, 0.5)
    assert [(c.case_id, c.before, c.after) for c in compared["cases"]] == [
        ("ja-vague", True, False),
        ("en-policy", True, True),
    ]
    assert compared["versions"] == {}


@pytest.mark.django_db
def test_the_sandbox_answers_from_the_shops_published_articles(tmp_path: Path) -> None:
    """The configuration in force includes the shop's articles: a fact only the shop's
    article states reaches the sandbox's reply, and the run records those articles."""
    help_article(
        key="store-pickup",
        language="en",
        category=ArticleCategory.DELIVERY,
        title="Can I collect my order at a store?",
        body="Orders can be collected at our Sapporo showroom from the day after shipping.",
    )
    pickup = case(
        "en-pickup",
        "faq",
        "C0002",
        "en",
        "Is it possible to pick my parcel up in person at one of your stores?",
        expected_status=["resolved"],
        reply_must_include=[["Sapporo"]],
    )

    call_command("simulate", str(suite(tmp_path, pickup)), "--threshold", "1", stdout=StringIO())

    run = SimulationRun.objects.get()
    assert (run.status, run.cases_passed) == (RunStatus.PASSED, 1), run.results.get().reasons
    assert run.versions["articles_version"] == articles_version() == f"1 texts, {digest(run)}"


def digest(run: SimulationRun) -> str:
    return str(run.versions["articles_version"]).rsplit(" ", 1)[-1]


@pytest.mark.django_db(transaction=True)
def test_the_gate_is_the_commands_exit_status(tmp_path: Path) -> None:
    """As a deployment pipeline runs it: below the threshold, the process exits with 1 and
    says why (at or above it, the command returns normally, as the tests above show)."""
    path = suite(tmp_path, POLICY_QUESTION, WRONG)
    env = worker_env({"LOG_LEVEL": "ERROR"})  # this test database, as a pipeline names it

    below = subprocess.run(
        [sys.executable, "manage.py", "simulate", str(path), "--threshold", "0.9"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert below.returncode == 1, below.stderr
    assert "below the threshold 0.9" in below.stderr
    assert "pass^1=0.5" in below.stdout
