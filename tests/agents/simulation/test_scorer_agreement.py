"""``simulate`` gives the same verdicts as the product's own end-to-end evaluation
(``shared/eval/score_resolution.py``), case by case, on a sample of its check set.

Evaluation only: the check set is read here to be run, never copied. Skipped when ``shared``
is not beside the repository.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from agents.simulation.models import SimulationRun
from agents.simulation.sandbox.database import sandbox_url
from agents.simulation.sandbox.environment import sandbox_audit_key

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared"
SCORER = SHARED / "eval" / "score_resolution.py"
CHECK_SET = SHARED / "data" / "resolution_check.jsonl"
EVERY = 8  # one case in eight: 15 of 120, both languages, every kind of expectation

pytestmark = pytest.mark.skipif(
    not (SCORER.is_file() and CHECK_SET.is_file()), reason="shared/ is not beside the repository"
)


def one_liner(source: Path, target: Path) -> None:
    """The documented conversion (``jq -c '{id, category, customer, lang, turns:
    [del(.id, .category, .customer, .lang)]}'``), as Python."""
    cases = [json.loads(line) for line in source.read_text("utf-8").splitlines() if line.strip()]
    lines = [
        json.dumps(
            {
                **{k: c[k] for k in ("id", "category", "customer", "lang")},
                "turns": [
                    {k: v for k, v in c.items() if k not in ("id", "category", "customer", "lang")}
                ],
            },
            ensure_ascii=False,
        )
        for c in cases[::EVERY]
    ]
    target.write_text("\n".join(lines), "utf-8")


@pytest.mark.django_db
def test_simulate_and_the_scorer_agree_case_by_case(tmp_path: Path) -> None:
    suite = tmp_path / "suite.jsonl"
    one_liner(CHECK_SET, suite)
    ids = [json.loads(line)["id"] for line in suite.read_text("utf-8").splitlines()]

    call_command("simulate", str(suite), "--threshold", "0", stdout=StringIO())
    ours = dict(SimulationRun.objects.get().results.values_list("case_id", "passed"))

    scored = tmp_path / "scored.json"
    env = {
        **os.environ,
        "DATABASE_URL": sandbox_url(),  # the scorer re-seeds the demo: the sandbox, not the shop
        "NETSHOP_AUDIT_KEY": sandbox_audit_key(),
        "RESOLUTION_VENV": str(Path(sys.prefix)),
        "LOG_LEVEL": "ERROR",
    }
    finished = subprocess.run(
        [
            sys.executable,
            str(SCORER),
            str(CHECK_SET),
            str(ROOT),
            "--only",
            ",".join(ids),
            "--out",
            str(scored),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr[-2000:]
    theirs = {r["id"]: r["pass"] for r in json.loads(scored.read_text("utf-8"))}

    assert len(ours) == len(ids) == len(theirs)
    assert ours == theirs
