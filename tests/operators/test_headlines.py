"""What an escalation is about, in people's words, built from its fields (never the run's note).

Given an escalation's kind, reason, actions and package, the headline says what a person is
asked to do, in English and in Japanese; the run's English ``summary`` plays no part.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from operators.headlines import headline

REFUND = {"kind": "process_refund", "params": {"order_number": "ORD-4003", "amount": 12800}}
CANCEL = {"kind": "cancel_order", "params": {"order_number": "ORD-4004"}}


def shown(language: str, **fields: Any) -> str:
    fields = {"kind": "approval", "reason": "approval_required", "actions": [], "package": {}} | (
        fields
    )
    with translation.override(language):
        return headline(**fields)


@pytest.mark.parametrize(
    ("fields", "english", "japanese"),
    [
        ({"actions": [REFUND]}, "Refund ¥12,800 on ORD-4003", "ORD-4003 の ¥12,800 返金"),
        ({"actions": [CANCEL]}, "Cancel ORD-4004", "ORD-4004 のキャンセル"),
        (
            {"actions": [REFUND, CANCEL]},
            "Refund ¥12,800 on ORD-4003; Cancel ORD-4004",
            "ORD-4003 の ¥12,800 返金、ORD-4004 のキャンセル",
        ),
        (
            {"kind": "failure", "reason": "action_failed", "actions": [REFUND]},
            "Failed, to retry or give up: Refund ¥12,800 on ORD-4003",
            "失敗（再実行か取りやめ）: ORD-4003 の ¥12,800 返金",
        ),
        (
            {
                "kind": "follow_up",
                "reason": "claim_contradicts_records",
                "package": {"escalation": {"detail": {"order_number": "ORD-8001"}}},
            },
            "ORD-8001: the customer's account contradicts the records",
            "ORD-8001: お客様のお話と記録が食い違っています",
        ),
        (
            {
                "kind": "failure",
                "reason": "tool_failure",
                "package": {"escalation": {"failed_agents": ["shipping", "payment"]}},
            },
            "No answer from: Shipping, Payments",
            "回答なし: 配送担当, 支払い担当",
        ),
        (
            {"kind": "customer_request", "reason": "customer_request"},
            "Answer the customer yourself",
            "担当者からお客様に回答",
        ),
        (
            {"kind": "failure", "reason": "supervisor_failure"},
            "The run failed before it could answer",
            "回答前に処理が失敗しました",
        ),
        (
            {
                "kind": "review",
                "reason": "flagged_for_review",
                "package": {"review": {"flagged_by": "lead", "reason": "wrong order"}},
            },
            "Flagged for review by lead: wrong order",
            "lead が確認を依頼: wrong order",
        ),
        (
            {
                "kind": "follow_up",
                "reason": "policy_restriction",
                "package": {"held_actions": [{"kind": "apply_coupon"}]},
            },
            "Held for a person, not done: coupon",
            "担当者の判断待ち（未実行）: クーポン",
        ),
        (
            {"kind": "follow_up", "reason": "missing_knowledge"},
            "The FAQ has no answer to this question",
            "この質問への回答がFAQにありません",
        ),
    ],
)
def test_the_headline_says_what_to_do_in_the_readers_language(
    fields: dict[str, Any], english: str, japanese: str
) -> None:
    assert shown("en", **fields) == english
    assert shown("ja", **fields) == japanese


def test_a_reason_without_its_details_falls_back_to_the_reasons_label() -> None:
    assert shown("en", kind="failure", reason="tool_failure") == "Tool failure"
    assert shown("en", kind="follow_up", reason="claim_contradicts_records") == (
        "Claim contradicts the records"
    )
