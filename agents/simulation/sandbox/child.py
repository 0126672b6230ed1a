"""The sandbox child: seed the fixed scenario, run each case's turns through the whole graph in
this process, and report what happened (and, for a suite, the verdict) as JSON events.

Runs only under ``sandbox.settings`` (the ``simulation_sandbox`` command checks). The demo is
seeded again after any attempt that changed the shop, so no case sees another's actions.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management import call_command

from agents.models import Inquiry
from agents.runs import inquiry_create, inquiry_run
from agents.simulation.candidates import ARTICLES_VARIABLE
from agents.simulation.reasons import Reason, reason
from agents.simulation.replies import ORDER_NUMBER
from agents.simulation.sandbox import shop_state
from agents.simulation.verdicts import Observed, turn_verdict
from agents.simulation.versions import versions_in_force
from agents.support.conversations.services import customer_message_post
from netshop.demo import demo_password, seed_demo
from netshop.knowledge.files import articles_import_text
from netshop.knowledge.models import HelpArticle
from netshop.selectors import customer_get
from netshop.shop_time import shop_today

SIMULATION_CHANNEL = "simulation"
Emit = Callable[[dict[str, Any]], None]


def sandbox_main(spec: dict[str, Any], emit: Emit) -> None:
    """Run ``spec`` (``cases`` in the suite's multi-turn form, ``k`` attempts each) and
    ``emit`` the versions, then one event per case."""
    call_command("migrate", verbosity=0, interactive=False)
    _seed()
    emit({"event": "versions", "versions": versions_in_force()})
    all_orders = shop_state.order_numbers()
    for case in spec["cases"]:
        attempts = []
        for _ in range(int(spec.get("k", 1))):
            before = shop_state.fingerprint()
            attempt = case_attempt(case, all_orders=all_orders)
            attempts.append(attempt)
            if attempt["changed"] or shop_state.fingerprint() != before:
                _seed()
        emit({"event": "case", "id": case["id"], "attempts": attempts})


def _seed() -> None:
    """The fixed scenario, answering from the shop's (or the candidate's) articles."""
    seed_demo(password=demo_password(), reset=True)
    export = os.environ.get(ARTICLES_VARIABLE)
    if export:
        _answer_from(Path(export))


def _answer_from(export: Path) -> None:
    """Replace the scenario's help articles with the file's: the sandbox answers from exactly
    the articles the shop (or the candidate) has."""
    HelpArticle.objects.all().delete()
    articles_import_text(export.read_text("utf-8"))


def case_attempt(case: dict[str, Any], *, all_orders: set[str]) -> dict[str, Any]:
    """One attempt at a case: each turn run and (when it has expectations) judged."""
    numbers = set(ORDER_NUMBER.findall(json.dumps(case, ensure_ascii=False)))
    facts = {number: shop_state.order_facts(number) for number in numbers}
    mine = shop_state.order_numbers(customer=case["customer"])
    inquiry_id: str | None = None
    texts: list[str] = []
    turns: list[dict[str, Any]] = []
    for turn in case["turns"]:
        texts.append(turn["text"])
        before = shop_state.high_water()
        started = time.perf_counter()
        outcome, inquiry_id = _run_turn(case["customer"], turn["text"], inquiry_id)
        effects = shop_state.effects_since(before)
        seen = Observed(outcome, effects, facts, mine, all_orders, tuple(texts), shop_today())
        reasons = turn_verdict(turn, seen) if "expected_status" in turn else []
        if outcome.get("status") == "crash":
            reasons.insert(0, reason("crash", error=outcome["error"]))
        turns.append(_turn_report(outcome, effects, reasons, time.perf_counter() - started))
    return {
        "pass": all(not t["reasons"] for t in turns),
        "reasons": [r for t in turns for r in t["reasons"]],
        "reason_codes": [r for t in turns for r in t["reason_codes"]],
        "changed": any(t["effects"] for t in turns),
        "turns": turns,
    }


def _run_turn(
    customer_code: str, text: str, inquiry_id: str | None
) -> tuple[dict[str, Any], str | None]:
    """The run's outcome for one customer message (a crash is an outcome, not an error)."""
    try:
        customer = customer_get(code=customer_code)
        if inquiry_id is None:
            inquiry = inquiry_create(
                customer=customer, text=text, channel=SIMULATION_CHANNEL, start=False
            )
        else:
            message = customer_message_post(
                customer=customer, inquiry_id=inquiry_id, text=text, channel=SIMULATION_CHANNEL
            )
            inquiry = Inquiry.objects.select_related("customer").get(pk=message.inquiry_id)
        return inquiry_run(inquiry=inquiry).as_dict(), str(inquiry.pk)
    except Exception as exc:  # a crash fails the case, not the simulation
        error = f"{type(exc).__name__}: {exc}"
        trace = traceback.format_exc(limit=5)
        return {"status": "crash", "reply": "", "error": error, "trace": trace}, inquiry_id


def _turn_report(
    outcome: dict[str, Any], effects: list[dict[str, Any]], reasons: list[Reason], seconds: float
) -> dict[str, Any]:
    return {
        "status": outcome.get("status"),
        "intent": outcome.get("intent"),
        "agents": [a.get("agent") for a in outcome.get("agents", [])],
        "pending_actions": [
            {"kind": a.get("kind"), "params": a.get("params")}
            for a in outcome.get("pending_actions") or []
        ],
        "effects": effects,
        "escalation": outcome.get("escalation"),
        "errors": outcome.get("errors"),
        "reply": outcome.get("reply") or "",
        "reasons": [r.text for r in reasons],
        "reason_codes": [r.as_dict() for r in reasons],
        "seconds": round(seconds, 3),
    }
