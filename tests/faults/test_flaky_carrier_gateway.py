"""The carrier and the gateway failing 20% of calls with timeouts and 5xx (issue 7, SPEC 4).

Given two workers whose carrier and gateway simulators fail one call in five (seeded), and
an operator approving every refund and cancellation; when 30 inquiries run (tracking,
payment checks, redeliveries, refunds, cancellations); then every inquiry ends in a proper
state, read-only skills were retried and fell back or answered partially, and a refund or
cancellation that failed at the gateway was not retried but handed over as action_failed.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path
from typing import Any

import pytest

from agents.models import Escalation, Inquiry
from netshop.models import GatewayTransaction, Refund
from tests.faults.conftest import Desk, submit
from tests.faults.invariants import assert_invariants, run_state

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

READ_ONLY = [
    ("C0001", "注文ORD-1002の荷物は今どこにありますか？"),
    ("C0004", "ORD-3004の配送状況を教えてください。"),
    ("C0009", "Where is my order ORD-3019?"),
    ("C0013", "注文ORD-3034はいつ届きますか？"),
    ("C0018", "Has ORD-3049 shipped? Where is it now?"),
    ("C0001", "Where is my package? Tracking number 4821-7730-1195."),
    ("C0002", "Refund status for ORD-2001?"),
    ("C0007", "ORD-3010の返金は済んでいますか？"),
    ("C0005", "返金ってもう済んでますか ORD-3006"),
    ("C0009", "ORD-3019の荷物はいつ届きますか？"),
    ("C0018", "注文ORD-3049の配送状況を教えて"),
    ("C0013", "Where is ORD-3034 now?"),
    ("C0004", "Has my payment for ORD-3002 gone through?"),
    ("C0017", "ORD-3047の支払い状況を確認したいです。"),
    ("C0001", "ORD-1002はどこ？"),
]
REDELIVERIES = [
    ("C0001", "不在票が入っていました。ORD-1004を明日の18時以降に再配達してください。"),
    ("C0007", "不在票が入っていました。ORD-3012を明日の18時以降に再配達してください。"),
    ("C0012", "I missed the delivery of ORD-3027, please redeliver it tomorrow morning."),
]
GATED = [
    ("C0001", "届いた商品（ORD-1003）が壊れていました。返金をお願いします。"),
    ("C0002", "The towels in ORD-2001 arrived damaged. I want my money back."),
    ("C0004", "ORD-3002の商品が壊れていたので返金してください。"),
    ("C0009", "Refund ORD-3017 please, the item was broken."),
    ("C0013", "ORD-3032が不良品でした。返金をお願いします。"),
    ("C0017", "ORD-3047 arrived broken, please refund it."),
    ("C0009", "ORD-3015が壊れていました。返金してください。"),
    ("C0012", "ORD-3028の商品が破損していました。返金をお願いします。"),
    ("C0001", "先週注文したORD-1001をキャンセルしたいです。"),
    ("C0002", "Please cancel ORD-2002, I ordered it by mistake."),
    ("C0003", "ORD-3001をキャンセルしてください。"),
    ("C0004", "I don't need ORD-3003 anymore, can you cancel it?"),
]
INJECTED = re.compile(r"injected (timeout|server_error) fault on (carrier|gateway)\.(\w+)")


def injected_faults(logs: list[Path]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for log in logs:
        for match in INJECTED.finditer(log.read_text(encoding="utf-8", errors="replace")):
            key = f"{match[2]}.{match[3]}"
            counts[key] = counts.get(key, 0) + 1
    return counts


def seed_failing_early(seed: int, rate: float, within: int = 3) -> int:
    """The first seed from ``seed`` whose fault sequence fails within ``within`` calls.

    Every worker process draws the same seeded sequence for each service and makes only a
    handful of calls of each; a seed whose first failure comes at the 13th draw met none
    (seed 1407469236). Still replayable: the same ``seed`` gives the same sequence.
    """
    for candidate in itertools.count(seed):
        draws = random.Random(candidate)  # noqa: S311  (the simulator's own generator)
        if any(draws.random() < rate for _ in range(within)):
            return candidate
    raise AssertionError("unreachable")


def test_carrier_and_gateway_failing_one_call_in_five(
    shop: None, operator, faults, fault_seed: int, worker_pool
) -> None:
    flaky = {
        "fault_rate": 0.2,
        "kinds": ["timeout", "server_error"],
        "seed": seed_failing_early(fault_seed, 0.2),
    }
    faults.set(carrier={**flaky, "latency_ms": 50}, gateway={**flaky, "latency_ms": 50})
    pool = worker_pool(2, faults.env)
    rng = random.Random(fault_seed)  # noqa: S311  (replayable, not secret)
    asked = rng.sample(READ_ONLY + REDELIVERIES + GATED, 30)  # all 30, in a seeded order
    ids = [submit(customer, text) for customer, text in asked]
    desk = Desk(operator)
    desk.drive(ids, timeout=90)
    desk.settle(ids, timeout=60)
    pool.stop()

    assert_invariants(ids, logs=pool.logs)
    states = {i: run_state(i, customer) for i, (customer, _) in zip(ids, asked, strict=True)}
    injected = injected_faults(pool.logs)
    print(f"injected faults: {injected}")
    assert sum(injected.values()) >= 1  # the seed fails early: the scenario met failures

    for (customer, text), inquiry_id in zip(asked, ids, strict=True):
        if (customer, text) in READ_ONLY + REDELIVERIES:
            assert_answered_despite_failures(inquiry_id, states[inquiry_id])
    left = [e for state in states.values() for e in state.get("errors", [])]
    print(f"errors left after retries: {[(e['agent'], e['code']) for e in left]}")
    failed = assert_gated_failures_handed_over(ids, states)
    # Each gated call the gateway failed is one failed action: none was tried again.
    assert injected.get("gateway.refund", 0) + injected.get("gateway.void", 0) == failed


def assert_answered_despite_failures(inquiry_id: str, state: dict[str, Any]) -> None:
    """A read-only or idempotent skill was retried, then fell back or answered partially:
    the inquiry is resolved with a reply, and tracking always answers (from the shop's own
    records when the carrier stays down)."""
    inquiry = Inquiry.objects.get(pk=inquiry_id)
    assert (inquiry.status, bool(inquiry.reply)) == ("resolved", True), state.get("errors")
    tracking = state["envelopes"].get("shipping", {}).get("data", {}).get("track_shipment")
    if state["classification"]["intent"] == "track_shipment":
        assert tracking is not None, state["envelopes"]["shipping"]
        assert "tracking" in tracking


def assert_gated_failures_handed_over(ids: list[str], states: dict[str, Any]) -> int:
    """Refunds and cancellations the gateway failed: not retried, back with a person as an
    open action_failed escalation holding the action (to retry, give up or take over)."""
    failed = 0
    for inquiry_id in ids:
        for result in states[inquiry_id].get("action_results", []):
            if result["outcome"] != "failed":
                continue
            failed += 1
            inquiry = Inquiry.objects.get(pk=inquiry_id)
            assert inquiry.status == "awaiting_approval"
            retry = Escalation.objects.get(inquiry=inquiry, reason="action_failed", status="open")
            assert [a["action_id"] for a in retry.actions] == [result["action_id"]]
            assert not Refund.objects.filter(operation_id=result["action_id"]).exists()
            assert not GatewayTransaction.objects.filter(
                idempotency_key=result["action_id"]
            ).exists()
    print(f"gated actions failed at the gateway: {failed}")
    return failed
