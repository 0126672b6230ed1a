"""Fixtures for running the real graph: a shop committed where the graph's threads see it."""

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
from tests.support.scenarios import SupportShop, support_shop


@pytest.fixture
def shop(transactional_db: None, settings: Any) -> SupportShop:
    """Hanako's and Emily's orders (``support_shop``), committed for the graph's threads."""
    settings.NETSHOP_RETRY_BACKOFF_S = 0
    return support_shop()


@pytest.fixture
def ask(shop: SupportShop) -> Callable[..., RunOutcome]:
    """Run one inquiry through the graph, as the storefront would start it; Hanako's unless
    another ``customer`` is given."""

    def run(text: str, *, customer: Customer | None = None) -> RunOutcome:
        who = customer or shop.hanako.customer
        inquiry = inquiry_create(customer=who, text=text, start=False)
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
