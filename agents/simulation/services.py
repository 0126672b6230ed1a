"""Simulation runs: store a suite, start a run (in a worker, for the console), execute it in the
sandbox (the command and the worker), and store its results with the versions it ran against.

A run's gate: its score (pass^k for a suite, agreement with the operators for a replay) at or
above its threshold is ``passed``, below it ``failed``; a sandbox that could not run is
``error``. Each case's verdict is stored with the previous run's verdict on the same case, so
regressions are read, not recomputed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from collections.abc import Callable
from typing import Any, Final

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from agents.models import Inquiry
from agents.simulation import replay
from agents.simulation.candidates import IN_FORCE, Candidate
from agents.simulation.models import (
    RunKind,
    RunStatus,
    SimulationResult,
    SimulationRun,
    SimulationSuite,
)
from agents.simulation.replay import ReplayFilter
from agents.simulation.sandbox.process import SandboxError, sandbox_run
from agents.simulation.scoring import CaseTally, agreement, by_category, pass_at
from agents.simulation.suites import Case, suite_parse
from netshop.task_dispatch import task_submit
from netshop.transactions import after_commit

SIMULATION_TASK: Final = "agents.simulation.tasks.simulation_run"
DEFAULT_THRESHOLD: Final = 0.9


def suite_store(
    *, name: str, content: str, source: str = "", user: User | None = None
) -> SimulationSuite:
    """Save a suite under ``name`` (a new version of it if it exists); refuses a suite that does
    not parse (``SuiteError``), so a stored suite always runs."""
    suite_parse(content, name=source or name)
    digest = hashlib.sha256(content.encode("utf-8")).hexdigest()
    suite, created = SimulationSuite.objects.get_or_create(
        name=name,
        defaults={"content": content, "digest": digest, "source": source, "created_by": user},
    )
    if not created and suite.digest != digest:
        suite.content, suite.digest, suite.source = content, digest, source or suite.source
        suite.save(update_fields=["content", "digest", "source", "updated_at"])
    return suite


def run_create(
    *,
    kind: str = RunKind.SUITE,
    suite: SimulationSuite | None = None,
    candidate: Candidate = IN_FORCE,
    k: int = 1,
    threshold: float = DEFAULT_THRESHOLD,
    selection: dict[str, Any] | None = None,
    user: User | None = None,
) -> SimulationRun:
    """A queued run: a suite's (``selection["only"]``: case ids) or a replay's
    (``selection``: ``ReplayFilter.as_json()``)."""
    if kind == RunKind.SUITE and suite is None:
        raise ValueError("a suite run needs its suite")
    if k < 1:
        raise ValueError("k is at least 1")
    return SimulationRun.objects.create(
        kind=kind,
        suite=suite,
        candidate_name=candidate.name,
        candidate=candidate.as_json(),
        k=k,
        threshold=threshold,
        selection=selection or {},
        started_by=user,
    )


def run_start(**kwargs: Any) -> SimulationRun:
    """Create a run (``run_create``'s arguments) and hand it to a worker after commit: what the
    console calls. The worker runs ``run_execute``."""
    with transaction.atomic():
        run = run_create(**kwargs)
        run_id = run.pk
        after_commit(lambda: task_submit(SIMULATION_TASK, run_id, pool="simulations"))
    return run


def run_execute(
    *, run: SimulationRun, on_case: Callable[[SimulationResult], None] | None = None
) -> SimulationRun:
    """Run it in the sandbox now, storing each case as it comes; returns it finished."""
    run.status, run.started_at = RunStatus.RUNNING, timezone.now()
    run.save(update_fields=["status", "started_at"])
    started = time.perf_counter()
    try:
        if run.kind == RunKind.REPLAY:
            _replay(run, on_case)
        else:
            _suite(run, on_case)
    except SandboxError as exc:
        run.error = str(exc)
    run.seconds = round(time.perf_counter() - started, 2)
    return run_finish(run)


def _candidate(run: SimulationRun) -> Candidate:
    return Candidate(**run.candidate) if run.candidate else IN_FORCE


def suite_cases(run: SimulationRun) -> list[Case]:
    """The run's cases: its suite's, or those ``selection["only"]`` names."""
    if run.suite is None:
        raise ValueError(f"run {run.pk} has no suite")
    cases = suite_parse(run.suite.content, name=run.suite.name)
    only = set(run.selection.get("only") or [])
    return [c for c in cases if c.id in only] if only else cases


def _suite(run: SimulationRun, on_case: Callable[[SimulationResult], None] | None) -> None:
    cases = {case.id: case for case in suite_cases(run)}
    previous = previous_verdicts(run)

    def store(event: dict[str, Any]) -> None:
        if event["event"] == "versions":
            _versions(run, event["versions"])
            return
        case = cases[event["id"]]
        result = result_store(run, event, category=case.category, language=case.lang)
        result.previous_passed = previous.get(case.id)
        result.save(update_fields=["previous_passed"])
        if on_case is not None:
            on_case(result)

    sandbox_run(
        cases=[c.as_json() for c in cases.values()],
        k=run.k,
        candidate=_candidate(run),
        on_event=store,
    )


def _replay(run: SimulationRun, on_case: Callable[[SimulationResult], None] | None) -> None:
    selection = run.selection or {}
    filters = ReplayFilter(
        since=_moment(selection.get("since")),
        until=_moment(selection.get("until")),
        intent=selection.get("intent") or "",
        escalated=selection.get("escalated"),
    )
    inquiries = {str(i.pk): i for i in replay.replay_select(filters)}

    def store(event: dict[str, Any]) -> None:
        if event["event"] == "versions":
            _versions(run, event["versions"])
            return
        inquiry = inquiries[event["id"]]
        result = _replayed(run, event, inquiry)
        if on_case is not None:
            on_case(result)

    sandbox_run(
        cases=[replay.replay_case(i) for i in inquiries.values()],
        k=run.k,
        candidate=_candidate(run),
        on_event=store,
    )


def _moment(value: str | None) -> dt.datetime | None:
    return parse_datetime(value) if value else None


def _versions(run: SimulationRun, versions: dict[str, Any]) -> None:
    run.versions = versions
    run.save(update_fields=["versions"])


def result_store(
    run: SimulationRun, event: dict[str, Any], *, category: str, language: str
) -> SimulationResult:
    """One case's attempts as its result row: passed only if every attempt passed."""
    attempts = event["attempts"]
    failing = next((a for a in attempts if not a["pass"]), None)
    first_turns = attempts[0]["turns"]
    return SimulationResult.objects.create(
        run=run,
        case_id=event["id"],
        category=category,
        language=language,
        intent=str(first_turns[0].get("intent") or "") if first_turns else "",
        passed=failing is None,
        attempts_passed=sum(bool(a["pass"]) for a in attempts),
        attempts=attempts,
        reasons=failing["reasons"] if failing else [],
        reason_codes=failing.get("reason_codes", []) if failing else [],
        reply=first_turns[-1].get("reply", "") if first_turns else "",
        seconds=round(sum(t["seconds"] for a in attempts for t in a["turns"]), 3),
    )


def _replayed(run: SimulationRun, event: dict[str, Any], inquiry: Inquiry) -> SimulationResult:
    """A replayed conversation's result: agreement judged on every attempt (all must agree)."""
    decisions = replay.operator_decisions(inquiry)
    verdicts = [
        replay.replay_verdict(decisions, replay.proposals(a["turns"])) for a in event["attempts"]
    ]
    for attempt, (agrees, reasons) in zip(event["attempts"], verdicts, strict=True):
        attempt["pass"] = agrees is not False
        attempt["reasons"] = [r.text for r in reasons]
        attempt["reason_codes"] = [r.as_dict() for r in reasons]
    result = result_store(run, event, category=inquiry.intent or "none", language=inquiry.language)
    first = event["attempts"][0]["turns"]
    result.inquiry_id = inquiry.pk
    result.operator_decision = decisions or None
    result.proposed = replay.proposals(first)
    result.agreement = None if verdicts[0][0] is None else all(v for v, _ in verdicts)
    now = "\n\n".join(t.get("reply", "") for t in first)
    result.reply_diff = replay.reply_diff(replay.replay_reply_then(inquiry), now)
    result.save()
    return result


def previous_verdicts(run: SimulationRun) -> dict[str, bool]:
    """Each case's verdict in the latest earlier finished run of the same suite that ran it
    (a run of a few cases, ``--only``, leaves the others' last verdicts standing)."""
    if run.suite_id is None:
        return {}
    earlier = (
        SimulationResult.objects.filter(
            run__suite_id=run.suite_id,
            run__status__in=(RunStatus.PASSED, RunStatus.FAILED),
            run_id__lt=run.pk,
        )
        .order_by("case_id", "-run_id")
        .distinct("case_id")
    )
    return dict(earlier.values_list("case_id", "passed"))


def run_finish(run: SimulationRun) -> SimulationRun:
    """Score the stored results, apply the gate and close the run."""
    results = list(run.results.all())
    tallies = [CaseTally(r.category, len(r.attempts), r.attempts_passed) for r in results]
    run.cases_total = len(results)
    run.cases_passed = sum(r.passed for r in results)
    run.regressions = sum(r.regressed for r in results)
    run.pass_at = pass_at(tallies, run.k)
    run.summary = by_category(tallies, run.k)
    if run.kind == RunKind.REPLAY:
        run.score = agreement(r.agreement for r in results)
        for intent, figures in run.summary.items():
            figures["agreement"] = agreement(r.agreement for r in results if r.category == intent)
    else:
        run.score = run.pass_at.get(str(run.k))
    run.status = _gate(run)
    run.finished_at = timezone.now()
    run.save()
    return run


def _gate(run: SimulationRun) -> str:
    if run.error:
        return RunStatus.ERROR
    if run.score is None:  # nothing to judge (no case, no decided conversation)
        return RunStatus.FAILED if run.kind == RunKind.SUITE else RunStatus.PASSED
    return RunStatus.PASSED if run.score >= run.threshold else RunStatus.FAILED
