"""A support lead reads the dashboard in Chromium and follows a figure to its rows.

Given the demo shop and an escalation an operator rejected with a reason, when the manager
opens the dashboard and clicks the figure of decisions rejected against the recommendation,
then the audit search lists that decision with its customer, order, amount and the
operator's reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from agents.support.escalations.services import escalation_decide
from tests.browser.conftest import OpenSession
from tests.operators.api_helpers import escalation_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

REASON = "already refunded by phone"


@pytest.mark.usefixtures("shop")
def test_a_manager_follows_a_dashboard_figure_to_the_decision_and_its_reason(
    open_session: OpenSession, shots: Path
) -> None:
    escalation = escalation_for()
    escalation_decide(
        escalation_id=escalation.pk,
        user=User.objects.get(username="operator"),
        decision="reject",
        reason=REASON,
        confirm_language=True,
    )
    page = open_session("manager").page

    page.goto("/audit/dashboard/")
    figure = page.locator('[data-figure="against"]')
    expect(figure).to_be_visible()
    page.screenshot(path=str(shots / "dashboard.png"), full_page=True)
    figure.locator("a").nth(1).click()

    page.wait_for_url("**/audit/?action=decision.reject*")
    row = page.locator("table.audit-rows tbody tr").first
    # The action in words; its code stays on the badge for the search and the scripts.
    expect(row.locator(".badge.kind")).to_have_text("Rejected")
    expect(row.locator(".badge.kind")).to_have_attribute("data-action", "decision.reject")
    expect(row).to_contain_text(escalation.inquiry.customer.code)
    expect(row).to_contain_text(escalation.actions[0]["params"]["order_number"])
    expect(row).to_contain_text("¥12,800")
    expect(row.locator("td.staff-text")).to_have_text(REASON)
    page.screenshot(path=str(shots / "search.png"), full_page=True)
