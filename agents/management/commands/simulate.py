"""``simulate SUITE`` / ``simulate --replay``: run a suite or replay past conversations in the
sandbox, store the run, print a line per case and the figures, exit non-zero below the gate.

    manage.py simulate simulations/sample.jsonl --k 3 --threshold 0.9
    manage.py simulate suite.jsonl --candidate candidate.toml --out results.json
    manage.py simulate --replay --since 2026-11-01 --intent process_refund --escalated
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from agents.simulation.candidates import IN_FORCE, CandidateError, candidate_load
from agents.simulation.models import RunKind, RunStatus, SimulationResult, SimulationRun
from agents.simulation.replay import ReplayFilter
from agents.simulation.services import DEFAULT_THRESHOLD, run_create, run_execute, suite_store
from agents.simulation.suites import SuiteError


class Command(BaseCommand):
    help = (
        "Run a simulation suite (or, with --replay, past conversations) in the sandbox against "
        "the configuration in force or a candidate; exit 1 below the threshold."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("suite", nargs="?", help="The suite file (JSON Lines).")
        parser.add_argument("--name", help="The suite's stored name (default: the file's stem).")
        parser.add_argument("--candidate", help="A candidate configuration (JSON or TOML).")
        parser.add_argument("--k", type=int, default=1, help="Attempts per case (pass^k).")
        parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
        parser.add_argument("--only", help="Comma-separated case ids.")
        parser.add_argument("--out", help="Write each case's details here as JSON.")
        parser.add_argument("--replay", action="store_true", help="Replay past conversations.")
        parser.add_argument("--since", help="Replay: conversations from this date (YYYY-MM-DD).")
        parser.add_argument("--until", help="Replay: conversations before this date.")
        parser.add_argument("--intent", default="", help="Replay: conversations of this intent.")
        escalated = parser.add_mutually_exclusive_group()
        escalated.add_argument("--escalated", dest="escalated", action="store_true", default=None)
        escalated.add_argument("--not-escalated", dest="escalated", action="store_false")

    def handle(self, *args: Any, **options: Any) -> None:
        run = self._run(options)
        run = run_execute(run=run, on_case=self._line)
        if options["out"]:
            rows = [_details(r) for r in run.results.all()]
            Path(options["out"]).write_text(
                json.dumps(rows, ensure_ascii=False, indent=1, default=str), encoding="utf-8"
            )
        self._summary(run)
        if run.status == RunStatus.ERROR:
            raise CommandError(f"the sandbox failed: {run.error}")
        if run.status != RunStatus.PASSED:
            raise CommandError(f"below the threshold {run.threshold} (run {run.pk})")

    def _run(self, options: dict[str, Any]) -> SimulationRun:
        try:
            candidate = (
                candidate_load(Path(options["candidate"])) if options["candidate"] else IN_FORCE
            )
        except CandidateError as exc:
            raise CommandError(str(exc)) from exc
        common = {"candidate": candidate, "k": options["k"], "threshold": options["threshold"]}
        if options["replay"]:
            selection = ReplayFilter(
                since=_day(options["since"]),
                until=_day(options["until"]),
                intent=options["intent"],
                escalated=options["escalated"],
            )
            return run_create(kind=RunKind.REPLAY, selection=selection.as_json(), **common)
        if not options["suite"]:
            raise CommandError("name a suite file, or --replay")
        path = Path(options["suite"])
        try:
            text = path.read_text(encoding="utf-8")
            suite = suite_store(name=options["name"] or path.stem, content=text, source=str(path))
        except (OSError, SuiteError) as exc:
            raise CommandError(str(exc)) from exc
        only = [i for i in (options["only"] or "").split(",") if i]
        return run_create(suite=suite, selection={"only": only} if only else {}, **common)

    def _line(self, result: SimulationResult) -> None:
        verdict = "PASS" if result.passed else "FAIL"
        if result.agreement is not None:
            verdict = "AGREE" if result.agreement else "DISAGREE"
        elif result.run.kind == RunKind.REPLAY:
            verdict = "-"
        turns = result.attempts[0]["turns"]
        statuses = ",".join(str(t["status"]) for t in turns)
        actions = ";".join(
            f"{a['kind']}:{(a.get('params') or {}).get('order_number')}:"
            f"{(a.get('params') or {}).get('amount', '')}"
            for t in turns
            for a in t["pending_actions"]
        )
        tail = "" if not result.reasons else " :: " + " | ".join(result.reasons)
        self.stdout.write(
            f"{verdict} {result.case_id} {result.category} status={statuses} "
            f"actions={actions or '-'} {result.attempts_passed}/{len(result.attempts)} "
            f"{result.seconds:.2f}s{tail}"
        )

    def _summary(self, run: SimulationRun) -> None:
        for category, figures in run.summary.items():
            extra = f" agreement={figures['agreement']}" if "agreement" in figures else ""
            self.stdout.write(
                f"  {category}: {figures['passed']}/{figures['cases']} "
                f"pass^k={figures['pass_at']}{extra}"
            )
        measure = "agreement" if run.kind == RunKind.REPLAY else f"pass^{run.k}"
        self.stdout.write(
            f"run={run.pk} {measure}={run.score} pass_at={run.pass_at} "
            f"passed={run.cases_passed}/{run.cases_total} regressions={run.regressions} "
            f"threshold={run.threshold} status={run.status} elapsed={run.seconds}s"
        )
        self.stdout.write(f"versions={json.dumps(run.versions, ensure_ascii=False)}")


def _day(value: str | None) -> dt.datetime | None:
    if not value:
        return None
    try:
        day = dt.date.fromisoformat(value)
    except ValueError as exc:
        raise CommandError(f"{value!r} is not a date (YYYY-MM-DD)") from exc
    return dt.datetime.combine(day, dt.time(), tzinfo=timezone.get_current_timezone())


def _details(result: SimulationResult) -> dict[str, Any]:
    return {
        "id": result.case_id,
        "category": result.category,
        "lang": result.language,
        "pass": result.passed,
        "reasons": result.reasons,
        "attempts": result.attempts,
        "agreement": result.agreement,
        "operator_decision": result.operator_decision,
        "proposed": result.proposed,
        "reply_diff": result.reply_diff,
    }
