"""The console's decisions per action and four eyes (issue 15, sections 1 and 2).

Given an escalation holding a refund and a cancellation, or one large refund, when operators
post the per-action forms, then each action is decided on its own, the page says what still
waits ("needs a second approval by a manager"), in English and in Japanese.
"""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agents.models import Escalation
from agents.support.escalations.services import escalation_record_wait
from agents.support.shapes import PendingAction
from netshop.roles import Role
from operators.models import StaffPreference
from tests.operators.api_helpers import (
    CANCEL_ACTION,
    inquiry_for,
    refund_escalation,
    signed_in,
    staff_user,
)

pytestmark = pytest.mark.django_db


def decide(client: Client, escalation: Escalation, **form: Any) -> Any:
    return client.post(f"/console/escalations/{escalation.pk}/decide", form, follow=True)


def detail(client: Client, escalation: Escalation) -> str:
    return client.get(f"/console/escalations/{escalation.pk}/").content.decode()


def test_each_action_has_its_own_forms_and_one_is_decided_alone(op1: User) -> None:
    both = refund_escalation(12800, with_cancellation=True)
    client = signed_in(op1)

    before = detail(client, both)
    answer = decide(client, both, decision="approve", action_id="a2")

    assert before.count('class="action-decision"') == 2
    assert before.count("Approve this action") == 2
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Decision recorded. The other actions still wait for a decision." in page
    assert 'data-action-id="a2" data-state="decided"' in page
    assert 'data-action-id="a1" data-state="pending"' in page
    both.refresh_from_db()
    assert (both.status, set(both.action_decisions)) == ("open", {"a2"})


def test_a_rejection_of_one_action_needs_its_own_reason(op1: User) -> None:
    both = refund_escalation(12800, with_cancellation=True)

    answer = decide(signed_in(op1), both, decision="reject", reason=" ", action_id="a1")

    assert answer.status_code == 422
    both.refresh_from_db()
    assert both.action_decisions == {}


def test_a_large_refund_shows_it_needs_a_second_approval_by_a_manager(op1: User) -> None:
    large = refund_escalation(30000)
    client = signed_in(op1)

    answer = decide(client, large, decision="approve")

    page = answer.content.decode()
    assert "Approval recorded: it needs a second approval by a manager." in page
    assert "needs a second approval by a manager" in detail(client, large)
    assert "Give the second approval" in detail(signed_in(staff_user("mgr", Role.MANAGER)), large)


def test_the_second_approval_is_shown_in_japanese(op1: User) -> None:
    large = refund_escalation(30000)
    decide(signed_in(op1), large, decision="approve")
    manager = staff_user("mgr", Role.MANAGER)
    StaffPreference.objects.create(user=manager, language="ja", time_zone="Asia/Tokyo")

    page = detail(signed_in(manager), large)

    assert "マネージャーによる二人目の承認が必要です" in page
    assert "二人目として承認する" in page


def test_an_operator_giving_the_second_approval_is_told_a_manager_must(
    op1: User, op2: User
) -> None:
    large = refund_escalation(30000)
    decide(signed_in(op1), large, decision="approve")

    answer = decide(signed_in(op2), large, decision="approve", action_id="a1")

    assert answer.status_code == 403
    assert "This needs a second approval by a manager." in answer.content.decode()
    large.refresh_from_db()
    assert large.action_decisions["a1"]["record"]["approvals"] == ["op1"]


def test_one_action_is_approved_with_another_amount_and_the_other_still_waits(op1: User) -> None:
    both = refund_escalation(12800, with_cancellation=True)
    client = signed_in(op1)

    before = detail(client, both)
    answer = decide(client, both, decision="edit", action_id="a1", amount="9800")

    # only the refund has an amount to change
    assert before.count("Approve with this amount") == 1
    assert answer.status_code == 200
    both.refresh_from_db()
    assert both.status == "open"
    assert set(both.action_decisions) == {"a1"}
    record = both.action_decisions["a1"]["record"]
    assert (record["decision"], record["params"]) == ("edit", {"amount": 9800})


def test_an_amount_over_what_the_order_can_refund_is_refused_for_that_action(op1: User) -> None:
    both = refund_escalation(12800, with_cancellation=True)

    answer = decide(signed_in(op1), both, decision="edit", action_id="a1", amount="99999")

    assert answer.status_code == 422
    both.refresh_from_db()
    assert both.action_decisions == {}


def test_an_action_larger_than_the_request_is_flagged_with_the_customers_words(
    op1: User,
) -> None:
    inquiry = inquiry_for(text="Please remove the tenugui from my order, I don't need it.")
    lines = [
        {"name": "手ぬぐい 藍染", "name_en": "Indigo Tenugui Towel", "quantity": 1},
        {"name": "竹の箸 五膳", "name_en": "Bamboo Chopsticks Set", "quantity": 1},
    ]
    cancel = {**CANCEL_ACTION, "facts": {"number": "ORD-7001", "total": 6600, "lines": lines}}
    larger = escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:scope",
        kind="approval",
        reason="approval_required",
        summary="cancel",
        package={"inquiry": {"text": inquiry.text, "customer_id": inquiry.customer.code}},
        actions=[cast(PendingAction, cancel)],
    )

    page = detail(signed_in(op1), larger)

    assert "Larger than the request" in page
    assert "the customer named only 手ぬぐい 藍染; this action covers the whole order." in page
    assert "Please remove the tenugui from my order, I don&#x27;t need it." in page
