"""An operator's edit of a return's refund: less than the items is fine, more is refused.

Given an escalation holding a prepared return of one ¥2,200 item of a ¥5,720 order, when an
operator edits the refund over HTTP, then an amount above the returned items' value is
refused (though the payment could cover it) and nothing is decided.
"""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from django.contrib.auth.models import User

from agents.models import Escalation
from agents.support.escalations.services import escalation_record_wait
from agents.support.shapes import PendingAction
from tests.factories import OrderLineFactory, delivered_order
from tests.operators.api_helpers import inquiry_for, signed_in

pytestmark = pytest.mark.django_db

RETURN_ACTION: dict[str, Any] = {
    "action_id": "r1",
    "kind": "return_items",
    "params": {
        "order_number": "ORD-7101",
        "items": [{"sku": "MUG", "quantity": 1}],
        "amount": 2200,
        "reason": "broken",
    },
    "amount_at_risk": 2200,
}


@pytest.fixture
def a_return() -> Escalation:
    inquiry = inquiry_for()
    order = delivered_order(
        number="ORD-7101", customer=inquiry.customer, captured=5720, lines=False
    )
    OrderLineFactory.create(order=order, product__sku="MUG", unit_price=2200)
    OrderLineFactory.create(order=order, product__sku="FAN", unit_price=3520)
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:return",
        kind="approval",
        reason="approval_required",
        summary="return",
        package={},
        actions=[cast(PendingAction, dict(RETURN_ACTION))],
    )


def edit(user: User, escalation: Escalation, amount: int) -> Any:
    body = {"decision": "edit", "params": {"amount": amount}}
    url = f"/api/v1/escalations/{escalation.pk}/decide"
    return signed_in(user).post(url, json.dumps(body), content_type="application/json")


def test_a_returns_refund_can_be_lowered(op1: User, a_return: Escalation) -> None:
    response = edit(op1, a_return, 1500)

    assert response.status_code == 200
    a_return.refresh_from_db()
    assert (a_return.decision or {}).get("params") == {"amount": 1500}


def test_a_returns_refund_cannot_exceed_the_returned_items(op1: User, a_return: Escalation) -> None:
    response = edit(op1, a_return, 3000)

    assert response.status_code == 422
    assert response.json()["code"] == "return_amount_exceeds_items"
    a_return.refresh_from_db()
    assert a_return.decision is None
