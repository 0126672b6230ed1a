"""The driver under the conversation's lease: a decision that lands while a worker holds the
run is carried on by that worker, not left for the recovery sweep (the embedded shape's
approval test found it: the decision's own dispatch was turned away as "busy")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agents.escalations.services import escalation_decide
from agents.models import Escalation, Inquiry, InquiryStatus
from agents.runs import dispatch, driver
from agents.runs.outcome import RunOutcome
from netshop.models import Refund
from netshop.roles import Role
from tests.operators.api_helpers import staff_user

Ask = Callable[..., RunOutcome]


def test_a_decision_taken_while_the_run_is_held_is_sent_on_when_the_lease_is_let_go(
    ask: Ask, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome = ask("ORD-1003が壊れていました。返金してください。", customer="C0001")
    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    sent: list[str] = []
    monkeypatch.setattr(dispatch, "_submit", lambda task, inquiry_id: sent.append(inquiry_id))
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
        Refund.objects.filter(payment__order__number="ORD-1003")
        .exclude(operation_id__startswith="seed-")
        .count()
        == 1
    )


def test_a_wait_nobody_decided_is_not_sent_on(ask: Ask, monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = ask("ORD-1003が壊れていました。返金してください。", customer="C0001")
    sent: list[str] = []
    monkeypatch.setattr(dispatch, "_submit", lambda task, inquiry_id: sent.append(inquiry_id))

    driver.inquiry_advance(inquiry_id=outcome.inquiry_id)

    assert sent == []
    assert Inquiry.objects.get(pk=outcome.inquiry_id).status == InquiryStatus.AWAITING_APPROVAL
