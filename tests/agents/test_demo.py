"""``seed_demo --with-open-escalations``: a fresh console starts with one wait of each kind.

Given the demo shop, when the demo is seeded with open escalations, then the queue holds three
approvals (a five-figure refund, a cancellation, a four-figure refund), a failure, a follow-up,
a customer request and a review, each from a real run; seeding again adds none and runs nothing.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from agents.models import Escalation, EscalationStatus, Inquiry
from agents.support.vocabulary import Skill
from tests.support.demo_snapshot import demo_shop_seed


@pytest.fixture
def seeded_twice(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.setenv("NETSHOP_DEMO_PASSWORD", "test-password")
    demo_shop_seed(password="test-password")
    return seed(), seed()


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", "--with-open-escalations", stdout=out)
    return out.getvalue()


def open_waits() -> list[tuple[str, str, list[tuple[str, str, int]]]]:
    return [
        (
            e.kind,
            e.reason,
            [(a["kind"], a["params"]["order_number"], a["amount_at_risk"]) for a in e.actions],
        )
        for e in Escalation.objects.filter(status=EscalationStatus.OPEN).order_by("created_at")
    ]


def test_the_demo_starts_with_an_open_escalation_of_each_kind(seeded_twice) -> None:
    assert open_waits() == [
        ("approval", "approval_required", [(Skill.PROCESS_REFUND, "ORD-1003", 12800)]),
        ("approval", "approval_required", [(Skill.CANCEL_ORDER, "ORD-1001", 3980)]),
        ("approval", "approval_required", [(Skill.PROCESS_REFUND, "ORD-2001", 8600)]),
        ("follow_up", "claim_contradicts_records", []),
        ("customer_request", "customer_request", []),
        ("failure", "supervisor_failure", []),
        ("review", "flagged_for_review", []),
    ]


def test_the_approvals_wait_in_a_real_run_with_its_hand_off_package(seeded_twice) -> None:
    refund = Escalation.objects.get(inquiry__idempotency_key="demo-open:refund-ord-1003")

    assert refund.inquiry.status == "awaiting_approval"
    assert [task["agent"] for task in refund.package["subtasks"]] == ["order", "payment"]
    assert refund.package["draft_reply"]


def test_seeding_again_adds_no_inquiry_and_no_escalation(seeded_twice) -> None:
    first, second = seeded_twice

    assert "7 created, 0 already there" in first
    assert "0 created, 7 already there" in second
    assert Inquiry.objects.filter(channel="demo").count() == 7
    assert Escalation.objects.count() == 7


def test_without_the_option_the_demo_has_no_escalations(transactional_db, monkeypatch) -> None:
    monkeypatch.setenv("NETSHOP_DEMO_PASSWORD", "test-password")
    call_command("seed_demo", stdout=StringIO())

    assert Escalation.objects.count() == 0
