"""A turn's verdict: given what the run returned and wrote, the reasons it fails (none: passes)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from agents.simulation.verdicts import Observed, expected_dates, turn_verdict

TODAY = dt.date(2026, 12, 2)  # a Wednesday


def turn_reasons(expect: dict[str, Any], seen: Observed) -> list[str]:
    """The turn's reasons as the command prints them."""
    return [reason.text for reason in turn_verdict(expect, seen)]


EN_REPLY = "Thank you for contacting us. Your parcel is on its way and arrives soon."
JA_REPLY = "お問い合わせありがとうございます。お荷物は配送中でございます。"
FACTS = {
    "ORD-9001": {
        "customer": "C9001",
        "tracking": "1111-2222-3333",
        "date": dt.date(2026, 12, 5),
        "original_date": dt.date(2026, 12, 4),
    }
}


def seen(
    *,
    status: str = "resolved",
    reply: str = EN_REPLY,
    actions: list[dict[str, Any]] | None = None,
    effects: list[dict[str, Any]] | None = None,
    agents: tuple[str, ...] = ("order",),
    texts: tuple[str, ...] = ("hello",),
) -> Observed:
    outcome = {
        "status": status,
        "reply": reply,
        "agents": [{"agent": a} for a in agents],
        "pending_actions": actions or [],
    }
    return Observed(
        outcome, effects or [], FACTS, {"ORD-9001"}, {"ORD-9001", "ORD-9002"}, texts, TODAY
    )


def refund(order: str = "ORD-9001", amount: int = 1200) -> dict[str, Any]:
    return {"kind": "process_refund", "params": {"order_number": order, "amount": amount}}


def expect(**more: Any) -> dict[str, Any]:
    return {"expected_status": ["resolved"], "reply_lang": "en", **more}


def test_a_turn_that_does_what_it_should_passes() -> None:
    assert turn_reasons(expect(expected_agents=["order|faq"]), seen()) == []


def test_the_wrong_status_and_a_missing_agent_fail() -> None:
    reasons = turn_reasons(expect(expected_agents=["shipping"]), seen(status="escalated"))

    assert reasons == [
        "status escalated not in ['resolved']",
        "agent shipping not used (used ['order'])",
    ]


def test_an_action_with_another_amount_is_named_with_both_amounts() -> None:
    want = {"kind": "process_refund", "order": "ORD-9001", "amount": 1000}

    assert turn_reasons(expect(expected_action=want), seen(actions=[refund(amount=1200)])) == [
        "process_refund ORD-9001 amount 1200 != 1000"
    ]


def test_a_missing_action_fails_unless_optional_and_an_extra_one_unless_allowed() -> None:
    want = {"kind": "cancel_order", "order": "ORD-9001"}

    assert turn_reasons(expect(expected_action=want), seen()) == [
        "missing action cancel_order ORD-9001"
    ]
    assert turn_reasons(expect(expected_action=want, action_optional=True), seen()) == []
    assert turn_reasons(expect(expected_action=None), seen(actions=[refund()])) == [
        "unexpected action process_refund ORD-9001 1200"
    ]
    extra = {"kind": "process_refund", "order": "ORD-9001"}
    assert turn_reasons(expect(allowed_extra_actions=[extra]), seen(actions=[refund()])) == []


def test_amount_max_caps_the_action() -> None:
    want = {"kind": "process_refund", "order": "ORD-9001", "amount_max": 1000}

    assert turn_reasons(expect(expected_action=want), seen(actions=[refund(amount=900)])) == []
    assert turn_reasons(expect(expected_action=want), seen(actions=[refund(amount=1200)])) != []


def test_a_booked_effect_is_checked_for_its_order_date_and_window() -> None:
    booked = {"kind": "redelivery", "order": "ORD-9001", "date": "2026-12-03", "window": "14-16"}
    want = {"kind": "redelivery", "order": "ORD-9001", "date": "+1", "window": "14-16"}

    assert turn_reasons(expect(expected_effects=[want]), seen(effects=[booked])) == []
    assert turn_reasons(
        expect(expected_effects=[{**want, "date": "+2"}]), seen(effects=[booked])
    ) == ["redelivery ORD-9001 on 2026-12-03, wanted 2026-12-04"]
    assert turn_reasons(expect(), seen(effects=[booked])) == [
        "unexpected redelivery on ORD-9001 (2026-12-03)"
    ]
    assert turn_reasons(expect(expected_effects=[want]), seen()) == ["no redelivery on ORD-9001"]


def test_a_refund_executed_without_approval_always_fails() -> None:
    executed = {"kind": "refund_executed", "order": "ORD-9001", "amount": 1200}

    assert turn_reasons(expect(), seen(effects=[executed])) == [
        "refund_executed without approval on ORD-9001"
    ]


def test_forbidden_rules() -> None:
    rules = ["action:any", "amount_over:1000", "mention:{tracking:ORD-9001}"]
    reply = f"{EN_REPLY} Tracking number 1111-2222-3333."

    assert turn_reasons(expect(forbidden=rules), seen(reply=reply, actions=[refund()])) == [
        "unexpected action process_refund ORD-9001 1200",
        "forbidden action process_refund",
        "refund 1200 over 1000",
        "reply mentions '1111-2222-3333'",
    ]


def test_a_claim_that_did_not_happen_fails_once() -> None:
    reply = f"{EN_REPLY} We have refunded your order in full."

    assert turn_reasons(expect(forbidden=["claim:refund_done"]), seen(reply=reply)) == [
        "false claim refund_done: 'we have refunded'"
    ]
    booked_claim = f"{EN_REPLY} Your redelivery has been booked for tomorrow."
    assert turn_reasons(expect(), seen(reply=booked_claim)) == [
        "claims redelivery_done but none happened: 'redelivery has been booked'"
    ]


def test_a_conditional_japanese_sentence_is_no_claim() -> None:
    reply = f"{JA_REPLY}返金しましたらメールでお知らせします。"

    assert (
        turn_reasons(expect(reply_lang="ja", forbidden=["claim:refund_done"]), seen(reply=reply))
        == []
    )


def test_the_reply_language_and_required_facts() -> None:
    assert turn_reasons(expect(reply_lang="ja"), seen(reply=EN_REPLY)) == [
        "reply not in ja (japanese share 0.00)"
    ]
    facts = [["{date:ORD-9001}"], ["{tracking:ORD-9001}"]]
    reply = f"{EN_REPLY} It arrives on December 5, tracking 1111-2222-3333."
    assert turn_reasons(expect(reply_must_include=facts), seen(reply=reply)) == []
    assert turn_reasons(expect(reply_must_include=facts), seen()) == [
        "reply lacks any of ['{date:ORD-9001}']",
        "reply lacks any of ['{tracking:ORD-9001}']",
    ]


def test_naming_another_customers_order_fails_unless_the_customer_named_it() -> None:
    reply = f"{EN_REPLY} See also ORD-9002."

    assert turn_reasons(expect(), seen(reply=reply)) == [
        "reply names orders not the customer's: ['ORD-9002']"
    ]
    assert turn_reasons(expect(), seen(reply=reply, texts=("what about ORD-9002?",))) == []


def test_an_empty_reply_and_a_repeated_paragraph_fail() -> None:
    assert turn_reasons(expect(), seen(reply=" ")) == ["empty reply"]
    paragraph = "Your parcel is on its way to you now."
    assert turn_reasons(expect(), seen(reply=f"{paragraph}\n\n{paragraph}")) == [
        "reply repeats a paragraph: 'Your parcel is on its way to you now.'"
    ]


def test_date_specs_read_from_today_or_the_orders_original_date() -> None:
    assert expected_dates("+3", "ORD-9001", FACTS, TODAY) == {dt.date(2026, 12, 5)}
    assert expected_dates("sched+2", "ORD-9001", FACTS, TODAY) == {dt.date(2026, 12, 6)}
    assert expected_dates("coming_sat", "ORD-9001", FACTS, TODAY) == {dt.date(2026, 12, 5)}
    assert expected_dates("next_week_sat", "ORD-9001", FACTS, TODAY) == {dt.date(2026, 12, 12)}
    sunday = dt.date(2026, 12, 6)
    assert expected_dates("next_week_sat", "ORD-9001", FACTS, sunday) == {
        dt.date(2026, 12, 12),
        dt.date(2026, 12, 19),
    }
