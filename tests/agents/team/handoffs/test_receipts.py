"""Hand-off receipts are content-free and each gets the verdict seed 002 prescribes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from agents.team.handoffs.receipts import VERDICTS, classify
from agents.team.runs.outcome import RunOutcome
from netshop.models import GatewayTransaction
from tests.support.scenarios import SupportShop

REPLAYS = json.loads((Path(__file__).parents[2] / "fixtures" / "handoff_replays.json").read_text())

Ask = Callable[..., RunOutcome]
Decide = Callable[..., RunOutcome]


@pytest.mark.parametrize(
    "case", REPLAYS, ids=[f"{c['expected']}-{i}" for i, c in enumerate(REPLAYS)]
)
def test_replayed_handoffs_get_their_verdict(case: dict) -> None:
    assert (
        classify(case["receipt"], routes={"order", "shipping", "payment", "faq"})
        == case["expected"]
    )


def test_the_replay_fixture_covers_every_verdict() -> None:
    assert {case["expected"] for case in REPLAYS} == set(VERDICTS)


def verdicts(outcome: RunOutcome) -> dict[str, str]:
    from agents.models import Inquiry

    return {
        r["receiver"]: r["verdict"] for r in Inquiry.objects.get(pk=outcome.inquiry_id).handoffs
    }


def test_a_waiting_refund_is_waiting_on_approval_and_the_rest_healthy(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(f"{shop.hanako.delivered.number}が壊れていました。返金してください。")

    assert verdicts(outcome) == {"order": "HEALTHY", "payment": "WAITING_ON_APPROVAL"}


def test_an_approved_refund_confirmed_by_the_gateway_is_healthy(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    waiting = ask(f"{shop.hanako.delivered.number}が壊れていました。返金してください。")

    resolved = decide(waiting, "approve")

    assert verdicts(resolved) == {"order": "HEALTHY", "payment": "HEALTHY"}


def test_a_refund_the_gateway_does_not_show_is_false_complete(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    waiting = ask(f"{shop.hanako.delivered.number}が壊れていました。返金してください。")
    action_id = waiting.pending_actions[0]["action_id"]
    from agents.team.handoffs.receipts import finalized_receipts

    resolved = decide(waiting, "approve")
    GatewayTransaction.objects.filter(idempotency_key=action_id).delete()
    receipts = finalized_receipts(
        resolved.state,
        status="resolved",
        customer_id=shop.hanako.customer.code,
        wait=None,
        state_persisted=True,
    )

    assert {r["receiver"]: r["verdict"] for r in receipts}["payment"] == "FALSE_COMPLETE"


def test_a_redelivery_is_verified_with_the_carrier(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(f"{shop.hanako.absent_returned.number}を明日の午前に再配達してください。")

    receipt = next(r for r in outcome.state["receipts"] if r["receiver"] == "shipping")
    assert receipt["closed"] is True
    assert verdicts(outcome)["shipping"] == "HEALTHY"


def test_receipts_and_audit_rows_carry_no_text_of_the_inquiry_or_the_tools(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    from agents.models import Inquiry
    from netshop.audit.models import AuditEntry

    marker = "MARKER-7f3a9c"
    waiting = ask(f"{shop.hanako.delivered.number}が壊れていました。{marker} 返金してください。")
    decide(waiting, "reject", reason="not eligible")

    receipts = json.dumps(Inquiry.objects.get(pk=waiting.inquiry_id).handoffs, ensure_ascii=False)
    assert marker not in receipts
    assert (
        shop.hanako.delivered.number not in receipts
    )  # tool arguments and results are not in receipts either
    assert "12800" not in receipts
    rows = AuditEntry.objects.filter(inquiry_id=waiting.inquiry_id)
    assert {row.action for row in rows} >= {
        "inquiry.received",
        "inquiry.routed",
        "handoff.verdict",
        "reply.sent",
    }
    for row in AuditEntry.objects.all():
        assert marker not in json.dumps(row.data, ensure_ascii=False), row.action
