"""End to end: realistic inquiries from the demo customers, each checked against what a careful
support person would do (issue 13, "done when": at least 85% handled correctly).

    .venv/bin/python -m bench.understanding [--reuse-db] [--only ja-03,en-1] [--lang ja]

Each case of ``bench/understanding_cases.jsonl`` is sent as its customer (C0001 writes
Japanese, C0002 English) through the real graph in this process with the offline model, on
the demo shop restored to its seeded state before every case (``seed_demo --reset``: a
redelivery or a coupon one case made must not change the next). ``understanding_checks``
turns the run into an observation and says what, if anything, was wrong. Prints PASS/FAIL per
case with the reasons and the share correct overall, per language and per topic; writes
``bench/results/understanding.json`` with every run's reply, route and actions.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import harness
from bench.understanding_checks import Action, Json, Observation, failures, flatten, notes

CASES = harness.ROOT / "bench" / "understanding_cases.jsonl"
CHANNEL = "bench"  # the channel of every inquiry this check sends
REFUSALS = ("refused", "error")  # a tool result with one of these keys did nothing


def load_cases(path: Path = CASES) -> list[Json]:
    """The cases, each given an ``id`` (``ja-01``...) when the file does not name one."""
    cases: list[Json] = []
    counts: dict[str, int] = defaultdict(int)
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        language = case_language(case)
        counts[language] += 1
        case.setdefault("id", f"{language}-{counts[language]:02d}")
        cases.append(case)
    return cases


def case_language(case: Mapping[str, Any]) -> str:
    return str(case["expect"].get("language") or customer_language(case["customer"]))


def customer_language(code: str) -> str:
    return {"C0001": "ja", "C0002": "en"}.get(code, "ja")


# --- running one case (needs Django) ------------------------------------------------------------


def reset_shop() -> None:
    """The demo shop as seeded: every action a previous case took is undone, and the
    approvals earlier cases left waiting are closed (a refund still waiting for a person is
    what "has my refund been processed?" reads: one case's proposal must not answer the
    next one's question). The bench's own database only: no decision is made, the rows are
    closed, whoever left them (``--reuse-db`` keeps those of earlier runs)."""
    from agents.models import Escalation, EscalationStatus
    from netshop.demo.seed import demo_password, seed_demo

    seed_demo(password=demo_password(), reset=True)
    Escalation.objects.filter(status=EscalationStatus.OPEN).update(status=EscalationStatus.DECIDED)


def run_case(case: Mapping[str, Any]) -> Observation:
    """Send the case's text as its customer and observe what the run did."""
    from django.utils import timezone

    from agents.support.conversations.intake import inquiry_create
    from agents.team.runs.driver import inquiry_run
    from netshop.selectors import customer_get

    customer = customer_get(code=case["customer"])
    due_dates = _due_dates(customer.code)
    before = _row_counts()
    inquiry = inquiry_create(customer=customer, text=case["text"], channel=CHANNEL, start=False)
    outcome = inquiry_run(inquiry=inquiry)
    state = outcome.state
    classification = state.get("classification") or {}
    added = {k: v - before.get(k, 0) for k, v in _row_counts().items() if v > before.get(k, 0)}
    return Observation(
        status=str(outcome.status),
        language=str(state.get("language") or ""),
        reply=str(state.get("reply") or ""),
        agents=list(classification.get("agents") or []),
        intent=str(classification.get("intent") or ""),
        actions=observed_actions(outcome.pending_actions, state.get("envelopes") or {}),
        today=timezone.localdate(),
        due_dates=due_dates,
        db_changes=added,
        plan=[f"{step.get('agent')}:{step.get('intent')}" for step in state.get("plan") or []],
    )


def observed_actions(
    pending: Iterable[Mapping[str, Any]], envelopes: Mapping[str, Any]
) -> list[Action]:
    """The actions waiting for approval and those the specialists' tools carried out."""
    actions = [
        Action(str(p.get("kind")), "proposed", flatten(p.get("params") or {})) for p in pending
    ]
    effects = _side_effect_tools()
    for envelope in envelopes.values():
        for tool, result in ((envelope or {}).get("data") or {}).items():
            if tool not in effects or not isinstance(result, Mapping):
                continue
            if any(key in result for key in REFUSALS):
                continue
            done = Action(tool, "done", flatten(result))
            if not any(a.kind == done.kind and a.order() == done.order() for a in actions):
                actions.append(done)
    return actions


@dataclass(frozen=True)
class Tools:
    """The specialists' tool names: all of them, and those that change the shop."""

    all: frozenset[str]
    effects: frozenset[str]
    gated: frozenset[str]  # those that wait for a person's approval


# Intents that are answered without a tool of their own (a hand-off to a person).
NOT_TOOLS = frozenset({"contact_human", "classify_and_route", "aggregate_responses"})


def specialist_tools() -> Tools:
    from agents.team.specialists import SPECIALISTS

    names = {tool.name for specialist in SPECIALISTS.values() for tool in specialist.tools}
    gated = {str(s) for specialist in SPECIALISTS.values() for s in specialist.approval_required}
    return Tools(all=frozenset(names), effects=_side_effect_tools(), gated=frozenset(gated))


def _side_effect_tools() -> frozenset[str]:
    """Tools that change the shop (done at once, or after approval), read from the specialists
    themselves so that a new skill is counted without touching the benchmark."""
    from agents.team.specialists import SPECIALISTS

    tools: set[str] = set()
    for specialist in SPECIALISTS.values():
        tools |= {str(t) for t in specialist.side_effects | specialist.approval_required}
    return frozenset(tools)


def _due_dates(customer_code: str) -> dict[str, Any]:
    from netshop.models import Shipment

    shipments = Shipment.objects.filter(order__customer__code=customer_code)
    return dict(shipments.values_list("order__number", "scheduled_date"))


def _row_counts() -> dict[str, int]:
    """Rows per model of the shop's domain: what an action adds shows up here."""
    from django.apps import apps

    # never what an inquiry changes
    skip = {"ApiToken", "HelpArticle", "ArticleVersion", "Product", "Customer"}
    return {
        model.__name__: model._default_manager.count()
        for model in apps.get_app_config("netshop").get_models()
        if model.__name__ not in skip and not model.__name__.startswith("Audit")
    }


# --- the whole run -----------------------------------------------------------------------------


def evaluate(cases: Sequence[Json], *, quiet: bool = False) -> list[Json]:
    """Run and check every case on a freshly reset shop; one result row per case."""
    rows: list[Json] = []
    baseline: dict[str, int] | None = None
    for case in cases:
        reset_shop()
        baseline = _check_isolation(baseline, after=rows[-1]["id"] if rows else "")
        started = time.perf_counter()
        seen = run_case(case)
        seconds = time.perf_counter() - started
        wrong = failures(case, seen, customer_language=customer_language(case["customer"]))
        row = {**_row(case, seen, wrong, seconds), "notes": notes(case, seen)}
        rows.append({**row, "likely_cause": likely_cause(row, specialist_tools())})
        if not quiet:
            _print_case(rows[-1])
    return rows


def _check_isolation(baseline: dict[str, int] | None, *, after: str) -> dict[str, int]:
    """The shop's row counts after a reset must be the same before every case: rows a new
    skill writes that ``seed_demo --reset`` does not remove would let cases leak into each
    other. Says so (the figures may then be off) rather than hiding it."""
    counts = _row_counts()
    if baseline is not None and counts != baseline:
        left = {k: v - baseline.get(k, 0) for k, v in counts.items() if v != baseline.get(k, 0)}
        harness.log(f"WARNING: reset left rows after {after}: {left} (cases may leak)")
    return baseline if baseline is not None else counts


def _row(case: Json, seen: Observation, wrong: list[str], seconds: float) -> Json:
    return {
        "id": case["id"],
        "topic": case.get("topic", ""),
        "customer": case["customer"],
        "language": case_language(case),
        "text": case["text"],
        "expect": case["expect"],
        "passed": not wrong,
        "failures": wrong,
        "status": seen.status,
        "intent": seen.intent,
        "agents": seen.agents,
        "plan": seen.plan,
        "actions": [a.label() for a in seen.actions],
        "db_changes": seen.db_changes,
        "reply": seen.reply,
        "seconds": round(seconds, 2),
    }


def likely_cause(row: Json, tools: Tools) -> str:
    """A first guess at why a case failed, to group the misses (read the reasons too)."""
    wrong = " | ".join(row["failures"])
    if not wrong:
        return ""
    expect = row["expect"]
    specs = [expect.get("action")] + [alt.get("action") for alt in expect.get("or", [])]
    kinds = [
        _as_kinds(spec)
        for value in specs
        if value
        for spec in (value if isinstance(value, list) else [value])
    ]
    unknown_intent = row["intent"] not in tools.all | NOT_TOOLS
    if unknown_intent or (kinds and all(not (k & tools.effects) for k in kinds)):
        return "missing skill"
    wanted = set().union(*kinds) if kinds else set()
    # A step planned for a refund or cancellation nobody asked for (the plan's own words).
    unasked = [s for s in row["plan"] if s.split(":")[-1] in tools.gated - wanted]
    for needle, cause in (
        ("routing:", "routing"),
        (" instead of ORD-", "wrong order"),
        ("unexpected action", "wrong action"),
    ):
        if needle in wrong:
            return cause
    if unasked:
        return f"routing (unasked step {unasked[0]})"
    for needle, cause in (
        ("missing:", "action not taken"),
        ("did not", "ask / hand-off"),
        ("should not have", "ask / hand-off"),
        ("writer:", "writer"),
        ("language ", "writer"),
    ):
        if needle in wrong:
            return cause
    return "facts in the reply"


def _as_kinds(spec: Json) -> set[str]:
    kind = spec["kind"]
    return set(kind) if isinstance(kind, list) else {kind}


def _print_case(row: Json) -> None:
    mark = "PASS" if row["passed"] else "FAIL"
    print(f"{mark} {row['id']:<6} {row['topic']:<16} {row['text'][:60]!r}", flush=True)
    for reason in row["failures"]:
        print(f"       - {reason}", flush=True)
    for note in row["notes"]:
        print(f"       ~ {note}", flush=True)
    if row["failures"]:
        print(f"       . likely cause: {row['likely_cause']}", flush=True)
        route = f"{row['intent']} {row['plan']} {row['status']} actions={row['actions']}"
        print(f"       . run: {route}", flush=True)


def shares(rows: Sequence[Json], key: str) -> dict[str, tuple[int, int]]:
    """(passed, total) per value of ``key``."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        counts[row[key]][0] += row["passed"]
        counts[row[key]][1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(counts.items())}


def _pct(passed: int, total: int) -> str:
    return f"{100 * passed / total:.0f}%" if total else "-"


def report(rows: Sequence[Json]) -> Json:
    passed = sum(row["passed"] for row in rows)
    languages = shares(rows, "language")
    topics = shares(rows, "topic")
    table = [("all", passed, len(rows), _pct(passed, len(rows)))]
    table += [(k, p, t, _pct(p, t)) for k, (p, t) in languages.items()]
    harness.print_table("handled correctly", table, ("cases", "passed", "total", "share"))
    harness.print_table(
        "per topic",
        [(k, p, t, _pct(p, t)) for k, (p, t) in topics.items()],
        ("topic", "passed", "total", "share"),
    )
    causes: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        if not row["passed"]:
            causes[row["likely_cause"]].append(row["id"])
    harness.print_table(
        "failures by likely cause (a first guess: read each case's reasons)",
        [(k, len(v), " ".join(v)) for k, v in sorted(causes.items(), key=lambda kv: -len(kv[1]))],
        ("cause", "cases", "ids"),
    )
    return {
        "failures_by_likely_cause": dict(causes),
        "passed": passed,
        "total": len(rows),
        "share": round(passed / len(rows), 3) if rows else None,
        "per_language": {k: {"passed": p, "total": t} for k, (p, t) in languages.items()},
        "per_topic": {k: {"passed": p, "total": t} for k, (p, t) in topics.items()},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reuse-db", action="store_true", help="keep the bench database")
    parser.add_argument("--only", default="", help="comma-separated case ids or id prefixes")
    parser.add_argument("--lang", choices=("ja", "en"), help="only this language's cases")
    parser.add_argument("--cases", type=Path, default=CASES)
    args = parser.parse_args(argv)
    cases = select(load_cases(args.cases), only=args.only, language=args.lang)
    harness.configure(fresh=not args.reuse_db)
    rows = evaluate(cases)
    summary = report(rows)
    harness.write_results("understanding", {**summary, "cases": rows})
    return 0


def select(cases: Sequence[Json], *, only: str = "", language: str | None = None) -> list[Json]:
    wanted = [w for w in only.split(",") if w]
    return [
        c
        for c in cases
        if (not wanted or any(c["id"].startswith(w) for w in wanted))
        and (language is None or case_language(c) == language)
    ]


if __name__ == "__main__":
    raise SystemExit(main())
