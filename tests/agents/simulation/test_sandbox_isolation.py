"""A simulation adds nothing to the shop: not to the production audit chain, the escalation
queue, conversations, live events, webhook deliveries, mail or the task broker; its own
conversations, approvals and bookings are in the sandbox's database."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command

from agents.simulation.models import SimulationRun
from agents.simulation.sandbox.database import sandbox_url
from tests.agents.simulation.leaks import Footprint

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "simulations" / "sample.jsonl"
# Approvals (one large enough to be mailed to staff), a booking, a coupon refused, a hand-off.
CASES = (
    "ja-refund-lacquer-box-four-eyes,ja-cancel-pending-tea,ja-redelivery-returned-parcel,"
    "en-ask-for-person,ja-coupon-without-cause"
)


@pytest.mark.django_db
def test_a_simulation_leaves_no_trace_in_the_shop() -> None:
    before = Footprint.now()

    call_command("simulate", str(SAMPLE), "--only", CASES, stdout=StringIO())

    run = SimulationRun.objects.get()
    assert run.cases_total == 5
    assert Footprint.now() == before
    with psycopg.connect(sandbox_url()) as sandbox:
        waiting = sandbox.execute(
            "SELECT count(*) FROM agents_escalation e JOIN agents_inquiry i ON i.id = e.inquiry_id"
            " WHERE i.channel = 'simulation' AND e.kind = 'approval'"
        ).fetchone()
    assert waiting is not None
    assert waiting[0] >= 2  # they happened, in the sandbox


def test_the_sandbox_settings_refuse_a_database_that_is_not_a_sandbox() -> None:
    """A wrong environment must not seed the demo over a shop."""
    env = {**os.environ, "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/netshop_shop"}

    started = subprocess.run(
        [sys.executable, "-c", "import agents.simulation.sandbox.settings"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert started.returncode == 1
    assert "the sandbox runs only on a database named *_sandbox" in started.stderr


def test_the_sandbox_child_refuses_to_run_under_the_shops_settings(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text('{"cases": [], "k": 1}', encoding="utf-8")

    with pytest.raises(CommandError, match="runs only under the sandbox's settings"):
        call_command("simulation_sandbox", str(spec))
