"""``simulate --replay``: the demo's escalations, decided by the team, replayed in the sandbox.

The configuration in force proposes what the operators approved (agreement 1.0, exit 0); a
candidate whose retrained router reads refund requests as FAQ questions proposes no refund,
agrees less and fails the gate. Neither adds anything to the shop.

On the demo shop: the replayed conversations are the demo's own (``agents.demo``), whose
customers the sandbox's demo scenario holds.
"""

from __future__ import annotations

import gzip
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from agents.demo import demo_escalations_open
from agents.models import Escalation, EscalationKind, EscalationStatus
from agents.providers import router_model_file
from agents.simulation.models import RunKind, RunStatus, SimulationRun
from agents.simulation.results import run_cases
from agents.support.escalations.services import escalation_decide
from netshop.demo import demo_password, seed_demo
from tests.agents.simulation.leaks import Footprint


@pytest.fixture
def decided_demo(transactional_db: None, settings: Any) -> list[Escalation]:
    """The demo's approvals, each approved by the demo manager."""
    settings.NETSHOP_RETRY_BACKOFF_S = 0
    seed_demo(password=demo_password())
    demo_escalations_open()
    manager = User.objects.get(username="manager")
    approvals = list(Escalation.objects.filter(kind=EscalationKind.APPROVAL))
    for escalation in approvals:
        escalation_decide(escalation_id=escalation.pk, user=manager, decision="approve")
    assert approvals
    assert all(
        e.status == EscalationStatus.DECIDED
        for e in Escalation.objects.filter(pk__in=[a.pk for a in approvals])
    )
    return approvals


def refunds_read_as_faq(path: Path) -> Path:
    """A router retrained on mislabelled examples, as a shop might produce by mistake: what
    it learned of refund requests it now reads as FAQ questions, and the reverse."""
    model = json.loads(gzip.decompress(router_model_file().read_bytes()))
    refund, faq = (
        model["labels"].index("intent:process_refund"),
        model["labels"].index("intent:search_faq"),
    )
    for row in [*model["weights"].values(), model["bias"]]:
        row[refund], row[faq] = row[faq], row[refund]
    path.write_bytes(gzip.compress(json.dumps(model).encode("utf-8")))
    return path


def test_replaying_decided_escalations_agrees_with_the_operators_and_leaves_no_trace(
    decided_demo: list[Escalation],
) -> None:
    before = Footprint.now()
    printed = StringIO()

    call_command("simulate", "--replay", "--escalated", stdout=printed)

    run = SimulationRun.objects.get()
    assert (run.kind, run.status, run.score) == (RunKind.REPLAY, RunStatus.PASSED, 1.0)
    assert run.cases_total == len({e.inquiry_id for e in decided_demo})
    assert {intent: f["agreement"] for intent, f in run.summary.items()} == {
        "cancel_order": 1.0,
        "process_refund": 1.0,
    }
    for result in run.results.all():
        assert result.agreement is True
        assert [d["decision"] for d in result.operator_decision or []] == ["approve"]
        assert [p["kind"] for p in result.proposed or []] == [
            d["kind"] for d in result.operator_decision or []
        ]
    assert printed.getvalue().count("AGREE ") == run.cases_total
    assert Footprint.now() == before


def test_a_router_that_sends_refunds_to_the_faq_agrees_less_and_fails_the_gate(
    decided_demo: list[Escalation], tmp_path: Path
) -> None:
    candidate = tmp_path / "refunds-to-faq.json"
    router = refunds_read_as_faq(tmp_path / "router.json.gz")
    candidate.write_text(json.dumps({"name": "refunds to the FAQ", "router_model": router.name}))

    with pytest.raises(CommandError, match=r"below the threshold 0\.9"):
        call_command(
            "simulate", "--replay", "--escalated", "--candidate", str(candidate), stdout=StringIO()
        )

    run = SimulationRun.objects.get()
    assert run.candidate_name == "refunds to the FAQ"
    assert run.status == RunStatus.FAILED
    assert run.score is not None
    assert run.score < 1.0
    assert run.summary["process_refund"]["agreement"] == 0.0
    assert run.summary["cancel_order"]["agreement"] == 1.0
    first = run_cases(run).first()
    assert first is not None
    assert first.agreement is False
    assert first.reasons[0].startswith("does not propose process_refund")
    assert first.reason_codes[0]["code"] == "replay_unproposed"
    assert first.reply_diff.startswith("--- then\n+++ now")
