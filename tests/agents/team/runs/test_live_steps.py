"""The live timeline of a run: every step reaches the consoles before the run waits again.

Given a run on a remote model (one that may keep it waiting) whose model calls look at what
the consoles have been told so far, when the run reaches each model call, then every step it
finished before that call is already announced, in order; the steps after the last call go
out with the run's record, and the timeline ends up exactly as before: one ``run.step`` per
step, in the order the steps ran.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from agents.models import ConsoleEvent
from agents.team.runs.outcome import RunOutcome
from tests.support.events import last_seq, published_after
from tests.support.scenarios import SupportShop
from tests.support.scripted_model import use_scripted_model

Ask = Callable[..., RunOutcome]

TRACKING = "注文{in_transit}の荷物は今どこにありますか？"


def steps_after(seq: int) -> list[tuple[str, str | None]]:
    return [(p["node"], p.get("agent")) for _, p in published_after(seq, "run.step")]


def test_each_step_is_announced_before_the_run_waits_for_the_model_again(
    shop: SupportShop, ask: Ask, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.NETSHOP_MODEL_PROVIDER = "openai"  # the scripted model stands in for a remote one
    start = last_seq()
    seen_at_call: list[tuple[str, list[tuple[str, str | None]]]] = []

    def watch(role: str, messages: list[BaseMessage], tools: list[str]) -> None:
        """Notes what the consoles were told; the offline model answers."""
        seen_at_call.append((role, steps_after(start)))

    use_scripted_model(monkeypatch, watch)

    outcome = ask(TRACKING.format(**shop.hanako.numbers()))

    assert outcome.status == "resolved"
    classify, *specialists, writer = seen_at_call
    assert classify == ("supervisor", [])
    assert all(role == "specialist" for role, _ in specialists)
    assert specialists[0][1] == [("classify", None)]
    assert writer == (
        "writer",
        [("classify", None), ("specialist", "order"), ("specialist", "shipping"), ("review", None)],
    )
    assert steps_after(start) == writer[1] + [("merge", None)]


def test_the_last_step_is_recorded_with_the_reply_it_wrote(shop: SupportShop, ask: Ask) -> None:
    start = last_seq()

    outcome = ask(TRACKING.format(**shop.hanako.numbers()))

    events = [
        (kind, payload.get("node") or payload.get("status") or payload.get("author_kind"))
        for kind, payload in published_after(start)
    ]
    assert outcome.status == "resolved"
    assert events[-3:] == [
        ("run.step", "merge"),
        ("inquiry.updated", "resolved"),
        ("conversation.message", "ai"),
    ]
    merge, resolved, reply = ConsoleEvent.objects.filter(pk__gt=start).order_by("-pk")[:3][::-1]
    assert merge.pk < resolved.pk < reply.pk


def test_a_run_that_stops_for_approval_announces_every_step_it_took(
    shop: SupportShop, ask: Ask
) -> None:
    start = last_seq()

    outcome = ask(
        f"届いた商品（{shop.hanako.delivered.number}）が壊れていました。返金をお願いします。"
    )

    assert outcome.status == "awaiting_approval"
    steps: list[Any] = steps_after(start)
    assert steps[0] == ("classify", None)
    assert steps[-1] == ("review", None)
    assert ("specialist", "payment") in steps
