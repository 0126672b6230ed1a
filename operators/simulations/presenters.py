"""A stored run as a manager reads it: figures, versions, categories, cases (regressions first),
and two runs side by side. Reads through ``agents.simulation.results``; words from the labels."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from agents.simulation.models import FINISHED_RUN_STATUSES, RunKind, SimulationResult, SimulationRun
from agents.simulation.reasons import reason_shown
from agents.simulation.results import run_cases, run_summary, runs_compare
from operators import labels
from operators.simulations.labels import RUN_STATUS_LABELS, VERSION_LABELS

DIGEST_SHOWN = 12


def percent(value: float | None) -> str:
    """A share as a manager reads it ("67%"); a dash when there was nothing to count."""
    return "–" if value is None else f"{value:.0%}"


def run_title(run: SimulationRun) -> str:
    """How a run is named in lists and headings: its number, what it ran, against what."""
    what = run.suite.name if run.suite is not None else str(RunKind.REPLAY.label)
    against = run.candidate_name or _("configuration in force")
    return _("Run %(id)s: %(what)s against %(against)s") % {
        "id": run.pk,
        "what": what,
        "against": against,
    }


def status_text(run: SimulationRun) -> str:
    return labels.label(RUN_STATUS_LABELS, run.status)


def is_finished(run: SimulationRun) -> bool:
    return run.status in FINISHED_RUN_STATUSES


def run_rows(runs: Any) -> list[dict[str, Any]]:
    """Runs as the lists show them: title, status and score in words."""
    return [
        {
            "run": run,
            "title": run_title(run),
            "status": status_text(run),
            "score": percent(run.score),
        }
        for run in runs
    ]


def version_value(key: str, value: Any) -> str:
    """One recorded version in words: models by role, digests shortened, nothing as a dash."""
    if value is None or value == "" or value == {}:
        return _("not recorded") if key.endswith("version") else "–"
    if isinstance(value, dict):
        return ", ".join(f"{role}: {name}" for role, name in sorted(value.items()))
    if key.endswith("digest"):
        return str(value)[:DIGEST_SHOWN]
    return str(value)


def version_rows(*runs: SimulationRun) -> list[dict[str, Any]]:
    """The versions of one run or more, a row per kind of version; ``differs`` when they do."""
    keys = list(VERSION_LABELS) + sorted(
        {k for r in runs for k in r.versions} - set(VERSION_LABELS)
    )
    rows = []
    for key in keys:
        raw = [run.versions.get(key) for run in runs]
        rows.append(
            {
                "label": labels.label(VERSION_LABELS, key),
                "cells": [
                    {"value": version_value(key, value), "full": str(value) if value else ""}
                    for value in raw
                ],
                "differs": len({repr(value) for value in raw}) > 1,
            }
        )
    return rows


def pass_at_rows(run: SimulationRun) -> list[tuple[str, str]]:
    """pass^1..pass^k as (k, share)."""
    return [(k, percent(v)) for k, v in sorted(run.pass_at.items(), key=lambda kv: int(kv[0]))]


@dataclass
class DiffLine:
    kind: str  # "add", "del", "hunk" or "same": the line's class
    text: str


def diff_lines(diff: str) -> list[DiffLine]:
    """A unified diff's lines with what each is, for the page to colour (text stays escaped)."""
    lines = []
    for line in diff.splitlines():
        if line.startswith(("+++", "---")):
            continue
        kind = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "same")
        lines.append(DiffLine(kind, line))
    return lines


@dataclass
class CaseView:
    """One case of a run as the page shows it."""

    result: SimulationResult
    verdict: str
    verdict_class: str
    regressed: bool
    attempts: str
    reasons: list[str] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    proposed: list[dict[str, Any]] = field(default_factory=list)
    diff: list[DiffLine] = field(default_factory=list)


def case_verdict(result: SimulationResult, kind: str) -> tuple[str, str]:
    """The case's verdict in words and as a class: pass/fail for a suite, agreement (or nothing
    decided to agree with) for a replay."""
    if kind == RunKind.REPLAY:
        if result.agreement is None:
            return _("nothing decided"), "none"
        return (_("agrees"), "pass") if result.agreement else (_("disagrees"), "fail")
    if result.passed:
        return pgettext("simulation", "passed"), "pass"
    return pgettext("simulation", "failed"), "fail"


def action_rows(actions: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Decided or proposed actions with their kind and decision in words."""
    return [
        {
            **action,
            "kind_text": labels.label(labels.SKILL_LABELS, action.get("kind")),
            "decision_text": labels.label(labels.DECISION_LABELS, action.get("decision")),
        }
        for action in actions or []
    ]


def reasons_shown(result: SimulationResult) -> list[str]:
    """The case's reasons in the active language. A result stored before reasons had codes,
    or one whose code this version cannot word, keeps its English text."""
    if len(result.reason_codes) != len(result.reasons):
        return list(result.reasons)
    return [
        reason_shown(stored) or text
        for stored, text in zip(result.reason_codes, result.reasons, strict=True)
    ]


def case_view(result: SimulationResult, kind: str) -> CaseView:
    verdict, verdict_class = case_verdict(result, kind)
    return CaseView(
        result=result,
        verdict=verdict,
        verdict_class=verdict_class,
        regressed=result.regressed,
        attempts=f"{result.attempts_passed}/{len(result.attempts)}",
        reasons=reasons_shown(result),
        decisions=action_rows(result.operator_decision),
        proposed=action_rows(result.proposed),
        diff=diff_lines(result.reply_diff),
    )


def category_rows(run: SimulationRun) -> list[dict[str, Any]]:
    """The run per category (a replay: per intent), with its shares as text."""
    return [
        {
            "name": row.category,
            "label": _category_label(run, row.category),
            "cases": row.cases,
            "passed": row.passed,
            "pass_at": [(k, percent(v)) for k, v in sorted(row.pass_at.items())],
            "agreement": percent(row.agreement),
        }
        for row in run_summary(run)
    ]


def _category_label(run: SimulationRun, name: str) -> str:
    """A replay's categories are intents, shown in words; a suite's are the suite's own."""
    if run.kind == RunKind.REPLAY:
        return labels.label(labels.SKILL_LABELS, name)
    return name


def earlier_run(run: SimulationRun) -> SimulationRun | None:
    """The suite's latest finished run before this one: what the page offers to compare with."""
    if run.suite_id is None:
        return None
    earlier = SimulationRun.objects.filter(
        suite_id=run.suite_id, status__in=FINISHED_RUN_STATUSES, id__lt=run.pk
    )
    return earlier.order_by("-id").first()


def run_page(run: SimulationRun) -> dict[str, Any]:
    """Everything the run's page shows."""
    return {
        "run": run,
        "earlier": earlier_run(run),
        "title": run_title(run),
        "status": status_text(run),
        "finished": is_finished(run),
        "is_replay": run.kind == RunKind.REPLAY,
        "score": percent(run.score),
        "threshold": percent(run.threshold),
        "pass_at": pass_at_rows(run),
        "categories": category_rows(run),
        "versions": version_rows(run),
        "cases": [case_view(result, run.kind) for result in run_cases(run)],
    }


def compare_page(before: SimulationRun, after: SimulationRun) -> dict[str, Any]:
    """Two runs side by side: versions, scores, categories and each case's verdict and reply
    in both (cases whose verdict changed first, as ``runs_compare`` orders them)."""
    compared = runs_compare(before, after)
    first = {r.case_id: r for r in before.results.all()}
    second = {r.case_id: r for r in after.results.all()}
    cases = [
        {
            "case_id": row.case_id,
            "category": row.category,
            "changed": row.changed,
            "sides": [
                case_view(side[row.case_id], run.kind) if row.case_id in side else None
                for side, run in ((first, before), (second, after))
            ],
        }
        for row in compared["cases"]
    ]
    return {
        "columns": [
            {"run": run, "title": run_title(run), "score": percent(run.score)}
            for run in (before, after)
        ],
        "titles": [run_title(before), run_title(after)],
        "versions": version_rows(before, after),
        "pass_at": _pass_at_pairs(before, after),
        "categories": _category_pairs(before, after),
        "cases": cases,
    }


def _pass_at_pairs(before: SimulationRun, after: SimulationRun) -> list[tuple[str, str, str]]:
    ks = sorted(set(before.pass_at) | set(after.pass_at), key=int)
    return [(k, percent(before.pass_at.get(k)), percent(after.pass_at.get(k))) for k in ks]


def _category_pairs(before: SimulationRun, after: SimulationRun) -> list[dict[str, Any]]:
    sides = [{row.category: row for row in run_summary(run)} for run in (before, after)]
    names = sorted(set(sides[0]) | set(sides[1]))
    return [
        {
            "name": name,
            "label": _category_label(after, name),
            "sides": [
                f"{side[name].passed}/{side[name].cases}" if name in side else "–" for side in sides
            ],
        }
        for name in names
    ]
