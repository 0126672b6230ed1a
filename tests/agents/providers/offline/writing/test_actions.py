"""The offline writer's replies after a person decided: they name the order, and a
rejection carries the operator's reason as written, in whatever language it is."""

from __future__ import annotations

from typing import Any

import pytest

from agents.providers.offline.writing import write_reply


def brief(lang: str, *results: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "language": lang,
        "today": "2025-12-01",
        "inquiry": "…",
        "intent": "process_refund",
        "secondary_intents": [],
        "results": {},
        "not_checked": [],
        "pending_actions": [],
        "action_results": list(results),
        "escalation": None,
    } | fields


def result(
    outcome: str, decision: str, kind: str = "process_refund", **extra: Any
) -> dict[str, Any]:
    return {"kind": kind, "decision": decision, "outcome": outcome} | extra


DECLINED_JA = "ご注文 ORD-4003の返金はお受けすることができませんでした。"
DECLINED_EN = "unable to approve the refund for order ORD-4003. "
ORD_4003 = {"order_number": "ORD-4003", "amount": 12800, "reason": "damaged"}


@pytest.mark.parametrize(
    ("lang", "reason", "expected"),
    [
        (
            "ja",
            "Please send a photo.",
            DECLINED_JA + "理由: 「Please send a photo.」",
        ),
        (
            "ja",
            "写真をお送りください",
            DECLINED_JA + "理由: 「写真をお送りください」",
        ),
        (
            "en",
            "写真をお送りください",
            DECLINED_EN + "Reason: \u201c写真をお送りください.\u201d",
        ),
        (
            "en",
            "Please send a photo",
            DECLINED_EN + "Reason: \u201cPlease send a photo.\u201d",
        ),
    ],
)
def test_a_rejection_names_the_order_and_quotes_the_reason(
    lang: str, reason: str, expected: str
) -> None:
    reply = write_reply(brief(lang, result("declined", "reject", reason=reason, params=ORD_4003)))

    assert expected in reply


def test_a_rejection_recorded_without_its_parameters_names_the_one_order_the_brief_knows() -> None:
    pending = {"kind": "process_refund", "params": ORD_4003}
    declined = result("declined", "reject", reason="期限切れです")
    # an older run's result: no params; the action it declined is in the brief's history
    reply = write_reply(brief("ja", declined | {"params": {}}, pending_actions=[pending]))

    assert "ご注文 ORD-4003の返金はお受けすることができませんでした。" in reply


@pytest.mark.parametrize(
    ("lang", "kind", "extra", "expected"),
    [
        (
            "ja",
            "process_refund",
            {"refund_amount": 12800},
            "ご注文 ORD-4003について、12,800円の返金手続きが完了いたしました。",
        ),
        (
            "en",
            "process_refund",
            {"refund_amount": 12800},
            "We have refunded ¥12,800 for order ORD-4003.",
        ),
        ("ja", "cancel_order", {}, "ご注文 ORD-4003のキャンセルが完了いたしました。"),
        ("en", "cancel_order", {}, "Order ORD-4003 has been cancelled."),
    ],
)
def test_an_approval_names_the_order(
    lang: str, kind: str, extra: dict[str, Any], expected: str
) -> None:
    reply = write_reply(brief(lang, result("executed", "approve", kind, params=ORD_4003, **extra)))

    assert expected in reply
