"""Fixtures for running the real graph: demo data committed where the graph's threads see it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest

from agents.models import Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.support.shapes import Decision
from agents.team.runs.driver import inquiry_resume, inquiry_run
from agents.team.runs.outcome import RunOutcome
from netshop.models import Customer
from tests.support.demo_snapshot import demo_shop_seed


@pytest.fixture
def demo_shop(transactional_db: None, settings: Any) -> None:
    """The demo shop (C0001, C0002 and their fixed orders), committed for the graph's threads."""
    settings.NETSHOP_RETRY_BACKOFF_S = 0
    demo_shop_seed(password="test-password")


@pytest.fixture
def ask(demo_shop: None) -> Callable[..., RunOutcome]:
    """Run one inquiry for a customer through the graph, as the storefront would start it."""

    def run(text: str, *, customer: str = "C0001") -> RunOutcome:
        customer_row = Customer.objects.get(code=customer)
        inquiry = inquiry_create(customer=customer_row, text=text, start=False)
        return inquiry_run(inquiry=inquiry)

    return run


@pytest.fixture
def decide() -> Callable[..., RunOutcome]:
    """Resume a waiting run with one decision for every pending action."""

    def resume(outcome: RunOutcome, decision: str = "approve", **extra: Any) -> RunOutcome:
        decisions = {
            action["action_id"]: {"decision": decision, "operator": "op1", **extra}
            for action in outcome.pending_actions
        }
        return inquiry_resume(
            inquiry=Inquiry.objects.get(pk=outcome.inquiry_id),
            decisions=cast(dict[str, Decision], decisions),
        )

    return resume
