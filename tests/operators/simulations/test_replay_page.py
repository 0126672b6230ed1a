"""Replay: a manager chooses past conversations and a configuration; a finished replay shows,
per conversation, what the AI proposes now against what the operators decided, the reply's
diff, and the agreement per intent."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from agents.simulation import services
from agents.simulation.models import RunKind, SimulationRun
from tests.operators.simulations.stored_runs import replayed_run

pytestmark = pytest.mark.django_db

DIFF = "--- then\n+++ now\n@@ -1 +1 @@\n-We will refund ¥4,200.\n+A person will look at this."
CONVERSATION = uuid.UUID("0d3b9a52-6c1e-4f0a-9d2b-3e4f5a6b7c8d")


def test_the_replay_form_starts_a_replay_of_the_chosen_conversations(
    manager: Client, submitted: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    form = {
        "since": "2026-11-01",
        "until": "2026-11-30",
        "intent": "process_refund",
        "escalated": "yes",
        "configuration": "",
        "k": "1",
        "threshold": "0.8",
    }

    with django_capture_on_commit_callbacks(execute=True):
        response = manager.post("/audit/simulations/replay/", form)

    run = SimulationRun.objects.get()
    assert response["Location"] == f"/audit/simulations/runs/{run.pk}/"
    assert (run.kind, run.suite, run.threshold) == (RunKind.REPLAY, None, 0.8)
    assert run.selection["intent"] == "process_refund"
    assert run.selection["escalated"] is True
    assert run.selection["since"].startswith("2026-11-01T00:00:00")
    assert run.selection["until"].startswith("2026-12-01T00:00:00")  # the 30th included
    assert submitted == [((services.SIMULATION_TASK, run.pk), {"pool": "simulations"})]


@pytest.mark.parametrize(
    ("field", "value"), [("since", "yesterday"), ("escalated", "maybe"), ("intent", "<b>")]
)
def test_a_bad_choice_is_refused_and_nothing_started(
    manager: Client, submitted: list[tuple[Any, ...]], field: str, value: str
) -> None:
    form = {"configuration": "", "k": "1", "threshold": "0.8", field: value}

    response = manager.post("/audit/simulations/replay/", form)

    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert SimulationRun.objects.count() == 0
    assert submitted == []


def test_a_replay_shows_proposals_against_decisions_and_the_agreement_per_intent(
    manager: Client,
) -> None:
    refund = {"kind": "process_refund", "order": "ORD-8101", "amount": 4200}
    run = replayed_run(
        [
            {
                "case_id": str(uuid.uuid4()),
                "category": "track_shipment",
                "agreement": None,
                "reply": "Your parcel is on its way.",
            },
            {
                "case_id": str(CONVERSATION),
                "inquiry_id": CONVERSATION,
                "category": "process_refund",
                "agreement": False,
                "reasons": [
                    "does not propose process_refund ORD-8101, which the operators approved"
                ],
                "operator_decision": [{**refund, "decision": "approve"}],
                "proposed": [],
                "reply": "A person will look at this.",
                "reply_diff": DIFF,
            },
            {
                "case_id": str(uuid.uuid4()),
                "category": "process_refund",
                "agreement": True,
                "operator_decision": [{**refund, "decision": "approve"}],
                "proposed": [refund],
            },
        ]
    )

    response = manager.get(f"/audit/simulations/runs/{run.pk}/")

    page = response.content.decode()
    views = response.context["cases"]
    assert [v.verdict for v in views] == ["disagrees", "nothing decided", "agrees"]
    assert response.context["score"] == "50%"
    intents = {c["name"]: (c["label"], c["agreement"]) for c in response.context["categories"]}
    assert intents == {
        "process_refund": ("refund", "50%"),
        "track_shipment": ("shipment tracking", "–"),
    }
    assert views[0].decisions[0]["decision_text"] == "approved"
    assert views[0].proposed == []
    assert [(line.kind, line.text) for line in views[0].diff] == [
        ("hunk", "@@ -1 +1 @@"),
        ("del", "-We will refund ¥4,200."),
        ("add", "+A person will look at this."),
    ]
    assert f'href="/audit/inquiries/{CONVERSATION}/"' in page
    assert '<span class="diff-del">-We will refund ¥4,200.</span>' in page
    assert "agreement with the operators' decisions" in page
