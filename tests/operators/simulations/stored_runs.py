"""Stored suites and finished runs for the simulation pages' tests, written through the services
the sandbox's parent uses (``result_store``, ``run_finish``) with events shaped as the sandbox
child sends them, so a page reads exactly what a real run leaves."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from agents.simulation.candidates import IN_FORCE, Candidate
from agents.simulation.models import RunKind, SimulationResult, SimulationRun, SimulationSuite
from agents.simulation.services import (
    previous_verdicts,
    result_store,
    run_create,
    run_finish,
    suite_store,
)

# The sandbox's shop has a customer of each language; the tests' cases name none of its orders.
SANDBOX_CUSTOMERS = {"ja": "C0001", "en": "C0002"}
OFFLINE_VERSIONS: dict[str, Any] = {
    "provider": "offline",
    "models": {},
    "base_url": "",
    "prompt_digest": "a" * 64,
    "router_digest": "b" * 64,
    "policy_version": None,
    "articles_version": None,
}


def case_line(case_id: str, *, category: str = "faq", lang: str = "en", **turn: Any) -> str:
    """One case of a suite file: a turn asking about payment unless ``turn`` says otherwise."""
    text = turn.pop("text", "Which payment methods do you accept?")
    expect = {"expected_status": ["resolved"], **turn}
    case = {
        "id": case_id,
        "category": category,
        "customer": SANDBOX_CUSTOMERS.get(lang, "C0002"),
        "lang": lang,
    }
    return json.dumps({**case, "turns": [{"text": text, **expect}]}, ensure_ascii=False)


def suite_text(*case_ids: str) -> str:
    return "// a suite of the tests\n" + "\n".join(case_line(i) for i in case_ids) + "\n"


def stored_suite(name: str = "payments", *case_ids: str) -> SimulationSuite:
    return suite_store(name=name, content=suite_text(*(case_ids or ("pay-en", "pay-ja"))))


@dataclass(frozen=True)
class Outcome:
    """What one case did in a run: passed or not, the reply, the failing reasons (in English,
    and as codes when the run stored them)."""

    passed: bool
    reply: str = "We accept cards and bank transfer."
    reasons: list[str] = field(default_factory=list)
    reason_codes: list[dict[str, Any]] = field(default_factory=list)
    category: str = "faq"
    status: str = "resolved"


def case_event(case_id: str, outcome: Outcome, *, k: int = 1) -> dict[str, Any]:
    """The sandbox child's event for one case: ``k`` attempts of one turn."""
    turn = {
        "status": outcome.status,
        "reply": outcome.reply,
        "intent": "search_faq",
        "pending_actions": [],
        "seconds": 0.1,
    }
    attempt = {
        "pass": outcome.passed,
        "reasons": outcome.reasons,
        "reason_codes": outcome.reason_codes,
        "turns": [turn],
    }
    return {"event": "case", "id": case_id, "attempts": [attempt] * k}


def finished_run(
    suite: SimulationSuite,
    outcomes: dict[str, Outcome],
    *,
    candidate: Candidate = IN_FORCE,
    versions: dict[str, Any] | None = None,
    k: int = 1,
    user: User | None = None,
) -> SimulationRun:
    """A run of ``suite`` whose cases ended as ``outcomes`` say, scored and gated."""
    run = run_create(suite=suite, candidate=candidate, k=k, user=user)
    run.versions = versions or OFFLINE_VERSIONS
    previous = previous_verdicts(run)
    for case_id, outcome in outcomes.items():
        event = case_event(case_id, outcome, k=k)
        result = result_store(run, event, category=outcome.category, language="en")
        result.previous_passed = previous.get(case_id)
        result.save(update_fields=["previous_passed"])
    return run_finish(run)


def replayed_run(rows: list[dict[str, Any]]) -> SimulationRun:
    """A finished replay whose conversations are ``rows`` (``SimulationResult`` fields)."""
    run = run_create(kind=RunKind.REPLAY, selection={"intent": "process_refund"})
    run.versions = OFFLINE_VERSIONS
    for row in rows:
        agrees = row.get("agreement")
        SimulationResult.objects.create(
            run=run,
            passed=agrees is not False,
            attempts_passed=int(agrees is not False),
            attempts=[
                {"pass": agrees is not False, "reasons": row.get("reasons", []), "turns": []}
            ],
            **row,
        )
    return run_finish(run)
