"""Reading stored runs, for the console and the command: the runs, one run per category and per
case (regressions first), and two runs compared case by case."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from agents.simulation.models import RunKind, SimulationResult, SimulationRun


def runs_list(
    *, suite_id: int | None = None, kind: str | None = None, limit: int = 50
) -> QuerySet[SimulationRun]:
    """The latest runs first, optionally of one suite or one kind."""
    runs = SimulationRun.objects.select_related("suite", "started_by")
    if suite_id is not None:
        runs = runs.filter(suite_id=suite_id)
    if kind is not None:
        runs = runs.filter(kind=kind)
    return runs.order_by("-created_at", "-id")[:limit]


def run_cases(run: SimulationRun) -> QuerySet[SimulationResult]:
    """The run's cases: regressions first, then the other failures (a replay's disagreements),
    then the rest, each group in suite order."""
    failed = Q(passed=False) if run.kind == RunKind.SUITE else Q(agreement=False)
    rank = Case(
        When(Q(previous_passed=True, passed=False), then=Value(0)),
        When(failed, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
    return run.results.annotate(rank=rank).order_by("rank", "id")


@dataclass(frozen=True)
class CategoryRow:
    """One category of a run: its cases, how many passed, pass^1..k, and for a replay the
    agreement with the operators."""

    category: str
    cases: int
    passed: int
    pass_at: dict[str, float]
    agreement: float | None


def run_summary(run: SimulationRun) -> list[CategoryRow]:
    """The run per category (a suite's categories, a replay's intents), by name."""
    return [
        CategoryRow(
            category=name,
            cases=int(figures["cases"]),
            passed=int(figures["passed"]),
            pass_at=dict(figures["pass_at"]),
            agreement=figures.get("agreement"),
        )
        for name, figures in sorted(run.summary.items())
    ]


@dataclass(frozen=True)
class CaseComparison:
    """One case in two runs: its verdict in each (None: not in that run)."""

    case_id: str
    category: str
    before: bool | None
    after: bool | None

    @property
    def changed(self) -> bool:
        return self.before != self.after


def runs_compare(before: SimulationRun, after: SimulationRun) -> dict[str, Any]:
    """Two runs side by side: what changed in the versions, the scores, and each case's verdict
    in both (cases whose verdict changed first)."""
    first = {r.case_id: r for r in before.results.all()}
    second = {r.case_id: r for r in after.results.all()}
    ids = list(dict.fromkeys([*first, *second]))
    rows = [
        CaseComparison(
            case_id=i,
            category=(second.get(i) or first[i]).category,
            before=first[i].passed if i in first else None,
            after=second[i].passed if i in second else None,
        )
        for i in ids
    ]
    rows.sort(key=lambda row: not row.changed)
    keys = sorted(set(before.versions) | set(after.versions))
    return {
        "versions": {
            key: (before.versions.get(key), after.versions.get(key))
            for key in keys
            if before.versions.get(key) != after.versions.get(key)
        },
        "score": (before.score, after.score),
        "pass_at": (before.pass_at, after.pass_at),
        "cases": rows,
    }
