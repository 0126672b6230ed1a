"""A simulation adds nothing to the shop: not to the production audit chain, the escalation
queue, conversations, live events, webhook deliveries, mail or the task broker; its own
conversations, approvals and bookings are in the sandbox's database."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command

from agents.simulation.models import SimulationRun
from agents.simulation.sandbox.database import sandbox_url
from tests.agents.simulation.leaks import Footprint

SAMPLE = Path(__file__).resolve().parents[3] / "simulations" / "sample.jsonl"
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
