"""The support graph end to end on the demo shop, with the offline model (SPEC 3, 5).

Given the demo customers' fixed orders, when an inquiry runs, then the run stops, answers or
refuses exactly as the shop's rules say, in the customer's language.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.contract.schemas import Envelope
from agents.team.runs.outcome import RunOutcome
from netshop.audit.models import AuditEntry
from netshop.models import Cancellation, Order, Redelivery, Refund

Ask = Callable[..., RunOutcome]


def envelope(outcome: RunOutcome, agent: str) -> dict:
    return outcome.state["envelopes"][agent]


def test_refund_of_ord_1003_stops_for_approval_with_the_captured_amount(ask: Ask) -> None:
    outcome = ask("届いた商品（ORD-1003）が壊れていました。返金をお願いします。")

    assert outcome.status == "awaiting_approval"
    [action] = outcome.pending_actions
    assert action["kind"] == "process_refund"
    assert action["params"] == {
        "order_number": "ORD-1003",
        "amount": 12800,
        "reason": "damaged item",
    }
    assert all(check["passed"] for check in action["checks"])
    assert not Refund.objects.filter(payment__order__number="ORD-1003").exists()


def test_refund_in_english_for_c0002(ask: Ask) -> None:
    outcome = ask("The towel I received is damaged. I want my money back.", customer="C0002")

    assert outcome.status == "awaiting_approval"
    [action] = outcome.pending_actions
    assert action["params"]["order_number"] == "ORD-2001"
    assert action["params"]["amount"] == 8600


def test_cancelling_a_pending_order_stops_for_approval_and_changes_nothing(ask: Ask) -> None:
    outcome = ask("先週注文したORD-1001をキャンセルしたいです。")

    assert outcome.status == "awaiting_approval"
    [action] = outcome.pending_actions
    assert action["kind"] == "cancel_order"
    assert action["params"]["order_number"] == "ORD-1001"
    assert Order.objects.get(number="ORD-1001").status == "pending"
    assert not Cancellation.objects.filter(order__number="ORD-1001").exists()


@pytest.mark.parametrize(
    ("text", "customer", "expected"),
    [
        ("注文をキャンセルしてください。番号はORD-1005です。", "C0001", "キャンセル"),
        ("Please cancel ORD-1005.", "C0001", "cancel"),
    ],
)
def test_cancelling_a_cancelled_order_is_refused_with_an_explanation(
    ask: Ask, text: str, customer: str, expected: str
) -> None:
    outcome = ask(text, customer=customer)

    assert outcome.status == "resolved"
    assert outcome.pending_actions == []
    refusal = envelope(outcome, "order")["data"]["cancel_order"]
    assert refusal["refused"] == "order_not_cancellable"
    assert expected in outcome.state["reply"]


def test_tracking_ord_1002_answers_with_the_carrier_status_in_japanese(ask: Ask) -> None:
    outcome = ask("注文ORD-1002の荷物は今どこにありますか？")

    assert outcome.status == "resolved"
    tracking = envelope(outcome, "shipping")["data"]["track_shipment"]["tracking"]
    assert tracking["tracking_number"] == "4821-7730-1195"
    assert tracking["status"] == "in_transit"
    assert "配送中" in outcome.state["reply"]


@pytest.mark.parametrize(
    ("customer", "text", "language", "expected"),
    [
        ("C0001", "4821-7730-1195", "ja", "配送中"),
        ("C0002", "ORD-2001?", "en", "ORD-2001"),
    ],
)
def test_a_bare_number_is_answered_in_the_customers_own_language(
    ask: Ask, customer: str, text: str, language: str, expected: str
) -> None:
    outcome = ask(text, customer=customer)

    assert (outcome.status, outcome.state["language"]) == ("resolved", language)
    assert expected in outcome.state["reply"]


def test_tracking_in_english_answers_in_english(ask: Ask) -> None:
    outcome = ask("Where is my package? Tracking number 4821-7730-1195.")

    assert outcome.status == "resolved"
    assert outcome.state["language"] == "en"
    assert "4821-7730-1195" in outcome.state["reply"]


def test_redelivery_of_ord_1004_is_booked_once(ask: Ask) -> None:
    outcome = ask(
        "昨日不在で持ち帰られた荷物を明後日の午前に再配達してほしいです。注文番号はORD-1004です。"
    )

    assert outcome.status == "resolved"
    booked = envelope(outcome, "shipping")["data"]["arrange_redelivery"]["redelivery"]
    assert booked["order_number"] == "ORD-1004"
    assert booked["slot_window"] == "08-12"
    assert Redelivery.objects.filter(shipment__order__number="ORD-1004").count() == 1
    audited = AuditEntry.objects.get(action="side_effect.redelivery")
    assert (audited.actor, str(audited.inquiry_id)) == ("agent:shipping", outcome.inquiry_id)


def test_an_unknown_question_with_no_order_still_gets_an_faq_answer(ask: Ask) -> None:
    outcome = ask("How long do I have to return an item?", customer="C0002")

    assert outcome.status == "resolved"
    assert list(outcome.state["envelopes"]) == ["faq"]
    assert outcome.state["reply"]


def test_every_specialist_answers_with_the_one_envelope_shape(ask: Ask) -> None:
    outcome = ask("クーポンの使い方がわかりません。あと、注文ORD-1002はいつ届きますか？")

    assert set(outcome.state["envelopes"]) == {"faq", "order", "shipping"}
    for stored in outcome.state["envelopes"].values():
        public = {k: v for k, v in stored.items() if k not in ("attempt", "step")}
        assert Envelope.model_validate(public).model_dump() == public
