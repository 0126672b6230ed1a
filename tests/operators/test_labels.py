"""The console's words for the retail skills' actions: what one click on Approve does."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

from agents.models import EscalationStatus
from agents.support.vocabulary import Skill
from agents.team.graph import planner, supervisor, wiring
from agents.team.handoffs.receipts import VERDICTS
from netshop.models import OrderStatus, PaymentMethod, PaymentStatus, ShipmentStatus
from netshop.services import policy_checks
from operators import labels
from operators.labels import ACTION_LABELS, approve_label

RETURN = {
    "kind": "return_items",
    "params": {"order_number": "ORD-7101", "items": [{"sku": "MUG-ARITA-AI", "quantity": 1}]}
    | {"amount": 2200},
}
EXCHANGE = {
    "kind": "exchange_items",
    "params": {"order_number": "ORD-7103", "item": "TSH-LOGO-M", "new_sku": "TSH-LOGO-L"},
}
CHANGE = {
    "kind": "modify_order_items",
    "params": {"order_number": "ORD-7104", "items": [{"sku": "CHP-WAKASA", "quantity": 0}]}
    | {"new_total": 4950},
}


def test_approve_says_exactly_what_each_retail_action_does() -> None:
    with translation.override("en"):
        assert approve_label([RETURN]) == (
            "Approve return of MUG-ARITA-AI × 1 with a refund of ¥2,200 on ORD-7101"
        )
        assert approve_label([EXCHANGE]) == (
            "Approve exchange of TSH-LOGO-M for TSH-LOGO-L on ORD-7103"
        )
        assert approve_label([CHANGE]) == (
            "Approve change of CHP-WAKASA × 0 on ORD-7104 (new total ¥4,950)"
        )


def test_each_retail_action_kind_has_a_label_in_japanese() -> None:
    with translation.override("ja"):
        labels = [str(ACTION_LABELS[str(a["kind"])]) for a in (RETURN, EXCHANGE, CHANGE)]
    assert labels == ["商品の返品と返金", "別のバリエーションへの交換", "注文商品の変更"]


# --- Every stored code the detail page shows has its words ------------------------------------


def test_every_stored_code_the_console_shows_has_a_label() -> None:
    assert set(labels.SKILL_LABELS) == set(Skill.values)
    assert set(labels.VERDICT_LABELS) == set(VERDICTS)
    assert set(labels.ORDER_STATUS_LABELS) == set(OrderStatus.values)
    assert set(labels.SHIPMENT_STATUS_LABELS) == set(ShipmentStatus.values)
    assert set(labels.PAYMENT_STATUS_LABELS) == set(PaymentStatus.values)
    assert set(labels.PAYMENT_METHOD_LABELS) == set(PaymentMethod.values)
    assert set(labels.ESCALATION_STATUS_LABELS) == set(EscalationStatus.values)
    assert set(labels.ENVELOPE_STATUS_LABELS) == {"success", "escalate", "error"}


def test_every_policy_check_and_graph_node_has_a_label() -> None:
    checks = set(re.findall(r'name="(\w+)"', Path(policy_checks.__file__).read_text()))
    nodes = set(re.findall(r'add_node\("(\w+)"', Path(wiring.__file__).read_text()))

    assert set(labels.CHECK_LABELS) == checks
    assert set(labels.NODE_LABELS) == nodes


def test_a_specialists_answer_and_a_check_are_told_in_japanese() -> None:
    answered = {"status": "success", "data": {"get_order_details": {}, "track_shipment": {}}}
    waiting = {"status": "escalate", "error_code": "approval_required"}
    failed_check = {"name": "within_refundable", "passed": False, "code": "reason_required"}
    with translation.override("ja"):
        assert labels.subtask_result(answered) == "注文詳細, 配送状況の確認 から回答"
        assert labels.subtask_result(waiting) == str(labels.REASON_LABELS["approval_required"])
        assert labels.check_text({"name": "payment_captured", "passed": True}) == (
            "売上が確定している"
        )
        assert labels.check_text(failed_check).startswith("返金可能額の範囲内: ")


def test_the_plans_revisions_and_their_decisions_have_words() -> None:
    revision_kinds = set(re.findall(r'"kind": "(\w+)"', Path(planner.__file__).read_text()))
    revision_kinds |= set(
        re.findall(r'\{"kind": "(\w+)", "steps"', Path(supervisor.__file__).read_text())
    )
    decisions = set(
        re.findall(r'_revision\(step, envelope, "(\w+)"\)', Path(planner.__file__).read_text())
    )
    decisions |= set(re.findall(r'"decision": "(\w+)"', Path(planner.__file__).read_text()))

    assert set(labels.PLAN_REVISION_LABELS) == revision_kinds
    assert set(labels.PLAN_DECISION_LABELS) == decisions
