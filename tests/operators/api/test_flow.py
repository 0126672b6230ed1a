"""The whole path over HTTP, in this process: submit, wait, approve, refund once, resolved.

Given Hanako's delivered order (``support_shop``), when a storefront submits a refund request
and an operator approves it through the API, then the refund is recorded once and the inquiry
reads back resolved. The worker hand-off is recorded instead of sent, and the run is advanced
here, as a worker would.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from agents.team.runs.driver import inquiry_advance
from netshop.models import Order, Refund
from netshop.roles import Role
from tests.operators.api_helpers import bearer, signed_in, staff_user, storefront_key
from tests.support.scenarios import support_shop


def refunds_on(order: Order) -> int:
    return Refund.objects.filter(payment__order=order).count()


@pytest.fixture
def handed_to_workers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The inquiry ids given to workers; nothing reaches the broker."""
    handed: list[str] = []
    monkeypatch.setattr(
        "agents.support.run_requests._submit", lambda task, inquiry_id: handed.append(inquiry_id)
    )
    return handed


@pytest.mark.django_db(transaction=True)
def test_a_refund_request_waits_for_approval_and_pays_once(
    handed_to_workers: list[str], settings: Any
) -> None:
    settings.NETSHOP_RETRY_BACKOFF_S = 0
    hanako = support_shop().hanako
    delivered = hanako.delivered  # ¥12,800 captured
    storefront = Client(headers=bearer(storefront_key()))
    operator = signed_in(staff_user("operator", Role.OPERATOR))
    text = f"届いた商品（{delivered.number}）が壊れていました。返金をお願いします。"
    body = {"customer_id": hanako.customer.code, "text": text, "idempotency_key": "refund-1"}

    accepted = storefront.post("/api/v1/inquiries", json.dumps(body), "application/json")
    inquiry_id = accepted.json()["id"]
    assert handed_to_workers == [inquiry_id]
    inquiry_advance(inquiry_id=inquiry_id)

    waiting = storefront.get(f"/api/v1/inquiries/{inquiry_id}").json()
    queue = operator.get("/api/v1/escalations").json()["items"]
    assert waiting["status"] == "awaiting_approval"
    assert waiting["escalation"]["kind"] == "approval"
    assert [(e["inquiry_id"], e["kind"], e["amount_at_risk"]) for e in queue] == [
        (inquiry_id, "approval", 12800)
    ]
    detail = operator.get(f"/api/v1/escalations/{queue[0]['id']}").json()
    assert [a["params"]["amount"] for a in detail["actions"]] == [12800]
    assert refunds_on(delivered) == 0

    approved = operator.post(
        f"/api/v1/escalations/{queue[0]['id']}/decide",
        json.dumps({"decision": "approve"}),
        "application/json",
    )
    assert approved.status_code == 200
    assert handed_to_workers == [inquiry_id, inquiry_id]
    inquiry_advance(inquiry_id=inquiry_id)
    inquiry_advance(inquiry_id=inquiry_id)  # a redelivered task changes nothing

    done = storefront.get(f"/api/v1/inquiries/{inquiry_id}").json()
    assert done["status"] == "resolved"
    assert "12,800" in done["reply"]
    assert refunds_on(delivered) == 1
