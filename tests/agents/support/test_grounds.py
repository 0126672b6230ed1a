"""The self-check of an AI answer: every request answered, every stated fact in the records."""

from __future__ import annotations

from typing import Any

import pytest

from agents.support.grounds import (
    records_read,
    self_check,
    turn_grounds,
    untraceable_facts,
    yen_amounts,
)

OWNERS = {
    "order": ("get_order_details", "cancel_order"),
    "shipping": ("track_shipment", "arrange_redelivery"),
    "faq": ("search_faq", "contact_human"),
}

ORDER = {
    "order": {
        "number": "ORD-6006",
        "total": 10960,
        "lines": [{"name": "南部鉄器 急須", "quantity": 2, "unit_price": 5480}],
        "shipment": {"tracking_number": "6100-0000-0003", "status": "in_transit"},
    }
}
FAQ = {
    "entries": [
        {
            "id": 10,
            "article": "shipping-fee",
            "version": 2,
            "title": "送料はいくらですか？",
            "body": "全国一律550円（税込）です。",
        },
        {
            "id": 16,
            "article": "cancel-order",
            "version": 1,
            "title": "How do I cancel?",
            "body": "Send us your order number.",
        },
    ]
}


def envelope(agent: str, data: dict[str, Any], status: str = "success", code: str | None = None):
    return {"agent": agent, "status": status, "data": data, "message": "", "error_code": code}


def step(agent: str, intent: str, status: str = "done") -> dict[str, Any]:
    return {"step": 1, "agent": agent, "intent": intent, "status": status}


@pytest.mark.parametrize(
    "reply",
    [
        "ご注文 ORD-6006（お問い合わせ番号 6100-0000-0003）は配送中です。合計¥10,960。",
        "Your order ORD-6006 (tracking 6100-0000-0003) is on its way: 2 teapots, ¥5,480 each.",
        "ORD-6006の急須2点、10,960円は発送済みです。",
        "送料は全国一律550円です。",  # an amount the FAQ entry states
        "Thank you for your message.",  # nothing stated, nothing to trace
    ],
)
def test_a_reply_stating_only_what_was_read_passes(reply: str) -> None:
    records = records_read([ORDER, FAQ])

    assert untraceable_facts(reply, records) == []


@pytest.mark.parametrize(
    ("reply", "problems"),
    [
        ("ORD-1234 is on its way.", [("order", "ORD-1234")]),
        ("ご注文ORD-6006は¥3,980です。", [("amount", "¥3,980")]),
        ("お問い合わせ番号 6100-0000-0099 で追跡できます。", [("tracking", "6100-0000-0099")]),
        ("返金額は 12,800円 です（ORD-6099）。", [("order", "ORD-6099"), ("amount", "12,800円")]),
        ("We refunded ¥10,960 and ¥ 999.", [("amount", "¥ 999")]),
    ],
)
def test_a_stated_fact_no_record_holds_is_a_problem(
    reply: str, problems: list[tuple[str, str]]
) -> None:
    found = untraceable_facts(reply, records_read([ORDER, FAQ]))

    assert [(p["kind"], p["subject"]) for p in found] == problems


def test_a_line_total_counts_as_read_with_its_line() -> None:
    records = records_read([{"lines": [{"quantity": 3, "unit_price": 2200}]}])

    assert untraceable_facts("Three mugs, ¥6,600 in all.", records) == []


def test_yen_is_read_in_both_writings() -> None:
    assert yen_amounts("¥3,980 と 550円、￥12,800 と 1,000 円") == [3980, 550, 12800, 1000]


def test_every_request_answered_passes() -> None:
    check = self_check(
        reply="ORD-6006 is in transit.",
        requests=["track_shipment", "search_faq"],
        plan=[
            step("order", "get_order_details"),
            step("shipping", "track_shipment"),
            step("faq", "search_faq"),
        ],
        envelopes={
            "order": envelope("order", ORDER),
            "shipping": envelope("shipping", {}),
            "faq": envelope("faq", FAQ),
        },
        records=records_read([ORDER]),
        owners=OWNERS,
    )

    assert check.passed
    assert check.as_dict() == {"passed": True, "problems": []}


@pytest.mark.parametrize(
    ("shipping_step", "shipping_envelope"),
    [
        (step("shipping", "track_shipment", "skipped"), envelope("shipping", {})),
        (step("shipping", "track_shipment"), envelope("shipping", {}, "error", "max_turns")),
        (step("shipping", "track_shipment"), envelope("shipping", {}, "error", None)),
        (None, None),  # no specialist worked on it
    ],
)
def test_a_request_without_an_answer_fails(
    shipping_step: dict[str, Any] | None, shipping_envelope: dict[str, Any] | None
) -> None:
    check = self_check(
        reply="送料は550円です。",
        requests=["search_faq", "track_shipment"],
        plan=[step("faq", "search_faq"), *([shipping_step] if shipping_step else [])],
        envelopes={"faq": envelope("faq", FAQ)}
        | ({"shipping": shipping_envelope} if shipping_envelope else {}),
        records=records_read([FAQ]),
        owners=OWNERS,
    )

    assert not check.passed
    assert check.problems == ({"kind": "unanswered", "subject": "track_shipment"},)


def test_a_refusal_with_its_reason_is_an_answer() -> None:
    """ "It has shipped, it can no longer be cancelled" answers the request: a shop rule's
    refusal comes back as the tool's result, in a successful envelope."""
    refused = {**ORDER, "cancel_order": {"refused": "order_not_cancellable", "reason": "shipped"}}
    check = self_check(
        reply="ORD-6006 has shipped and can no longer be cancelled.",
        requests=["cancel_order"],
        plan=[step("order", "cancel_order")],
        envelopes={"order": envelope("order", refused)},
        records=records_read([refused]),
        owners=OWNERS,
    )

    assert check.passed


@pytest.mark.parametrize("code", ["invalid_arguments", "action_preparation_failed", "unknown_tool"])
def test_an_error_envelope_is_no_answer_whatever_its_code(code: str) -> None:
    check = self_check(
        reply="ORD-6006 の件、確認いたします。",
        requests=["cancel_order"],
        plan=[step("order", "cancel_order")],
        envelopes={"order": envelope("order", ORDER, "error", code)},
        records=records_read([ORDER]),
        owners=OWNERS,
    )

    assert list(check.problems) == [{"kind": "unanswered", "subject": "cancel_order"}]


def test_an_amount_the_model_asked_for_is_no_record_and_counts_are_not_yen() -> None:
    """A refund asked for at ¥50,000 on a ¥10,960 order: the proposal caps it, and a reply
    stating ¥50,000 (or "¥2", a quantity) has read it nowhere."""
    proposal = {"params": {"order_number": "ORD-6006", "amount": 10960, "reason": "¥50,000"}}
    records = records_read([ORDER, {**proposal, "requested_amount": 50000}])

    assert 50000 not in records.amounts
    assert 2 not in records.amounts
    assert 10960 in records.amounts


def test_full_width_figures_and_very_long_digit_runs_are_read_without_failing() -> None:
    assert yen_amounts("３，９８０円") == [3980]
    assert len(yen_amounts("1" * 5000 + "円")) == 1


def test_a_request_no_specialist_owns_is_the_supervisors() -> None:
    check = self_check(
        reply="担当者におつなぎします。",
        requests=["classify_and_route"],
        plan=[],
        envelopes={},
        records=records_read([]),
        owners=OWNERS,
    )

    assert check.passed


def test_a_question_to_the_customer_is_not_checked_for_answers() -> None:
    check = self_check(
        reply="Which order do you mean: ORD-6006?",
        requests=["track_shipment"],
        plan=[],
        envelopes={},
        records=records_read([ORDER]),
        owners=OWNERS,
        asking=True,
    )

    assert check.passed


def test_the_grounds_of_a_turn_name_its_reading_records_and_verdict() -> None:
    state = {
        "classification": {
            "intent": "track_shipment",
            "secondary_intents": ["search_faq"],
            "requests": [{"intent": "track_shipment"}, {"intent": "search_faq"}],
            "language": "ja",
            "confidence": 0.93,
        },
        "plan": [
            step("order", "get_order_details"),
            step("shipping", "track_shipment"),
            step("faq", "search_faq"),
        ],
        "envelopes": {
            "order": envelope("order", ORDER),
            "shipping": envelope("shipping", {}),
            "faq": envelope("faq", FAQ),
        },
    }

    grounds = turn_grounds(
        state, reply="ORD-6006は配送中です。送料は全国一律550円（税込）です。", owners=OWNERS
    )

    assert grounds["reading"] == {
        "intents": ["track_shipment", "search_faq"],
        "confidence": 0.93,
        "language": "ja",
        "injection_suspected": False,
        "complaint": False,
    }
    assert grounds["records"]["orders"] == ["ORD-6006"]
    assert grounds["records"]["tracking"] == ["6100-0000-0003"]
    assert grounds["records"]["faq"] == [
        {
            "id": 10,
            "question": "送料はいくらですか？",
            "quoted": True,
            "article": "shipping-fee",
            "version": 2,
        },
        {
            "id": 16,
            "question": "How do I cancel?",
            "quoted": False,
            "article": "cancel-order",
            "version": 1,
        },
    ]
    assert grounds["check"] == {"passed": True, "problems": []}


def test_a_quoted_faq_entry_is_marked() -> None:
    state = {
        "classification": {"intent": "search_faq"},
        "envelopes": {"faq": envelope("faq", FAQ)},
        "plan": [step("faq", "search_faq")],
    }

    grounds = turn_grounds(state, reply="送料：全国一律550円（税込）です。", owners=OWNERS)

    assert [f["quoted"] for f in grounds["records"]["faq"]] == [True, False]
