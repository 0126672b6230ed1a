"""The driver under the conversation's lease: a decision that lands while a worker holds the
run is carried on by that worker, not left for the recovery sweep (the embedded shape's
approval test found it: the decision's own dispatch was turned away as "busy")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agents.models import Escalation, Inquiry, InquiryStatus, MessageAuthor
from agents.support import run_requests
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.thread import turn_input
from agents.support.escalations.services import escalation_decide
from agents.team.runs import driver, recording
from agents.team.runs.outcome import RunOutcome, RunStop
from netshop.models import Refund
from netshop.roles import Role
from tests.operators.api_helpers import staff_user
from tests.support.events import last_seq, published_after
from tests.support.scenarios import SCENARIO_PREFIX, SupportShop

Ask = Callable[..., RunOutcome]


def test_a_decision_taken_while_the_run_is_held_is_sent_on_when_the_lease_is_let_go(
    shop: SupportShop, ask: Ask, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome = ask(
        f"{shop.hanako.delivered.number}が壊れていました。返金してください。",
        customer=shop.hanako.customer,
    )
    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    sent: list[str] = []
    monkeypatch.setattr(run_requests, "_submit", lambda task, inquiry_id: sent.append(inquiry_id))
    advance_turns = driver._advance_turns

    def decided_meanwhile(inquiry_id: str) -> Any:
        status = advance_turns(inquiry_id)  # finds the wait undecided
        escalation_decide(
            escalation_id=escalation.pk,
            user=staff_user("op-race", Role.OPERATOR),
            decision="approve",
        )
        assert sent == [inquiry_id]  # the decision's own dispatch...
        assert driver.inquiry_advance(inquiry_id=inquiry_id) == "busy"  # ...turned away
        sent.clear()
        return status

    monkeypatch.setattr(driver, "_advance_turns", decided_meanwhile)
    driver.inquiry_advance(inquiry_id=outcome.inquiry_id)
    monkeypatch.setattr(driver, "_advance_turns", advance_turns)

    assert sent == [outcome.inquiry_id]
    driver.inquiry_advance(inquiry_id=sent[0])  # the worker the dispatch reaches
    assert Inquiry.objects.get(pk=outcome.inquiry_id).status == InquiryStatus.RESOLVED
    assert (
        Refund.objects.filter(payment__order__number=shop.hanako.delivered.number)
        .exclude(operation_id__startswith=SCENARIO_PREFIX)
        .count()
        == 1
    )


def test_a_wait_nobody_decided_is_not_sent_on(
    shop: SupportShop, ask: Ask, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome = ask(
        f"{shop.hanako.delivered.number}が壊れていました。返金してください。",
        customer=shop.hanako.customer,
    )
    sent: list[str] = []
    monkeypatch.setattr(run_requests, "_submit", lambda task, inquiry_id: sent.append(inquiry_id))

    driver.inquiry_advance(inquiry_id=outcome.inquiry_id)

    assert sent == []
    assert Inquiry.objects.get(pk=outcome.inquiry_id).status == InquiryStatus.AWAITING_APPROVAL


def test_a_copy_read_before_the_first_turn_does_not_start_that_turn_again(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(f"注文{shop.hanako.in_transit.number}の荷物は今どこにありますか？")
    read_before = Inquiry.objects.get(pk=outcome.inquiry_id)
    read_before.turns, read_before.status = 0, InquiryStatus.QUEUED  # as it was at intake
    start = last_seq()

    again = driver.inquiry_run(inquiry=read_before)

    inquiry = Inquiry.objects.get(pk=outcome.inquiry_id)
    assert (again.status, inquiry.status, inquiry.turns) == ("resolved", "resolved", 1)
    assert inquiry.messages.filter(author_kind=MessageAuthor.AI).count() == 1
    assert published_after(start, "run.step") == []  # nothing ran again


def test_a_first_turn_is_marked_only_while_no_turn_has_started(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(f"注文{shop.hanako.in_transit.number}の荷物は今どこにありますか？")
    stale = Inquiry.objects.get(pk=outcome.inquiry_id)
    stale.turns = 0

    assert not recording.inquiry_mark_running(inquiry=stale, turn=1, first=True)
    assert Inquiry.objects.get(pk=outcome.inquiry_id).status == InquiryStatus.RESOLVED


@pytest.mark.parametrize(
    ("text", "waits"),
    [
        ("注文{in_transit}の荷物は今どこにありますか？", False),
        ("届いた商品（{delivered}）が壊れていました。返金をお願いします。", True),
    ],
)
def test_where_a_leg_stopped_as_its_stream_told_it_is_what_its_checkpoint_holds(
    shop: SupportShop, text: str, waits: bool
) -> None:
    """The record reads a leg's stop from the stream instead of reading the checkpoint back:
    the two must agree, state and interrupts alike (what LangGraph streams could change)."""
    inquiry = inquiry_create(
        customer=shop.hanako.customer, text=text.format(**shop.hanako.numbers()), start=False
    )
    recording.inquiry_mark_running(inquiry=inquiry, turn=1)
    config = driver._config(inquiry)
    graph = driver.support_graph()

    leg = driver._drive(graph, turn_input(inquiry=inquiry, turn=1), config)

    assert leg.stop == RunStop.of(graph.get_state(config))
    assert leg.stop is not None
    assert bool(leg.stop.interrupts) is waits
