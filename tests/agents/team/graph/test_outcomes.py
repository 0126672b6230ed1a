"""The support graph end to end on a shop of two customers, with the offline model (SPEC 3, 5).

Given Hanako's and Emily's orders (``support_shop``), when an inquiry runs, then the run
stops, answers or refuses exactly as the shop's rules say, in the customer's language.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.contract.schemas import Envelope
from agents.team.runs.outcome import RunOutcome
from netshop.audit.models import AuditEntry
from netshop.models import Cancellation, Order, Redelivery, Refund
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]


def envelope(outcome: RunOutcome, agent: str) -> dict:
    return outcome.state["envelopes"][agent]


def test_refund_of_a_delivered_order_stops_for_approval_with_the_captured_amount(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(
        f"届いた商品（{shop.hanako.delivered.number}）が壊れていました。返金をお願いします。"
    )

    assert outcome.status == "awaiting_approval"
    [action] = outcome.pending_actions
    assert action["kind"] == "process_refund"
    assert action["params"] == {
        "order_number": shop.hanako.delivered.number,
        "amount": 12800,
        "reason": "damaged item",
    }
    assert all(check["passed"] for check in action["checks"])
    assert not Refund.objects.filter(payment__order__number=shop.hanako.delivered.number).exists()


def test_refund_in_english_for_an_english_customer(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(
        "The towel I received is damaged. I want my money back.", customer=shop.emily.customer
    )

    assert outcome.status == "awaiting_approval"
    [action] = outcome.pending_actions
    assert action["params"]["order_number"] == shop.emily.delivered.number
    assert action["params"]["amount"] == 8600


def test_cancelling_a_pending_order_stops_for_approval_and_changes_nothing(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(f"先週注文した{shop.hanako.pending.number}をキャンセルしたいです。")

    assert outcome.status == "awaiting_approval"
    [action] = outcome.pending_actions
    assert action["kind"] == "cancel_order"
    assert action["params"]["order_number"] == shop.hanako.pending.number
    assert Order.objects.get(number=shop.hanako.pending.number).status == "pending"
    assert not Cancellation.objects.filter(order__number=shop.hanako.pending.number).exists()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("注文をキャンセルしてください。番号は{order}です。", "キャンセル"),
        ("Please cancel {order}.", "cancel"),
    ],
)
def test_cancelling_a_cancelled_order_is_refused_with_an_explanation(
    shop: SupportShop, ask: Ask, text: str, expected: str
) -> None:
    hanako = shop.hanako
    outcome = ask(text.format(order=hanako.cancelled.number), customer=hanako.customer)

    assert outcome.status == "resolved"
    assert outcome.pending_actions == []
    refusal = envelope(outcome, "order")["data"]["cancel_order"]
    assert refusal["refused"] == "order_not_cancellable"
    assert expected in outcome.state["reply"]


def test_tracking_an_order_in_transit_answers_with_the_carrier_status_in_japanese(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(f"注文{shop.hanako.in_transit.number}の荷物は今どこにありますか？")

    assert outcome.status == "resolved"
    tracking = envelope(outcome, "shipping")["data"]["track_shipment"]["tracking"]
    assert tracking["tracking_number"] == shop.hanako.in_transit.shipment.tracking_number
    assert tracking["status"] == "in_transit"
    assert "配送中" in outcome.state["reply"]


def test_a_bare_tracking_number_is_answered_in_japanese_for_a_japanese_customer(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(shop.hanako.in_transit.shipment.tracking_number, customer=shop.hanako.customer)

    assert (outcome.status, outcome.state["language"]) == ("resolved", "ja")
    assert "配送中" in outcome.state["reply"]


def test_a_bare_order_number_is_answered_in_english_for_an_english_customer(
    shop: SupportShop, ask: Ask
) -> None:
    delivered = shop.emily.delivered
    outcome = ask(f"{delivered.number}?", customer=shop.emily.customer)

    assert (outcome.status, outcome.state["language"]) == ("resolved", "en")
    assert delivered.number in outcome.state["reply"]


def test_tracking_in_english_answers_in_english(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(
        f"Where is my package? Tracking number {shop.hanako.in_transit.shipment.tracking_number}."
    )

    assert outcome.status == "resolved"
    assert outcome.state["language"] == "en"
    assert shop.hanako.in_transit.shipment.tracking_number in outcome.state["reply"]


def test_redelivery_of_an_order_taken_back_is_booked_once(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(
        f"昨日不在で持ち帰られた荷物を明後日の午前に再配達してほしいです。注文番号は{shop.hanako.absent_returned.number}です。"
    )

    assert outcome.status == "resolved"
    booked = envelope(outcome, "shipping")["data"]["arrange_redelivery"]["redelivery"]
    assert booked["order_number"] == shop.hanako.absent_returned.number
    assert booked["slot_window"] == "08-12"
    assert (
        Redelivery.objects.filter(
            shipment__order__number=shop.hanako.absent_returned.number
        ).count()
        == 1
    )
    audited = AuditEntry.objects.get(action="side_effect.redelivery")
    assert (audited.actor, str(audited.inquiry_id)) == ("agent:shipping", outcome.inquiry_id)


def test_an_unknown_question_with_no_order_still_gets_an_faq_answer(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask("How long do I have to return an item?", customer=shop.emily.customer)

    assert outcome.status == "resolved"
    assert list(outcome.state["envelopes"]) == ["faq"]
    assert outcome.state["reply"]


def test_every_specialist_answers_with_the_one_envelope_shape(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(
        f"クーポンの使い方がわかりません。あと、注文{shop.hanako.in_transit.number}はいつ届きますか？"
    )

    assert set(outcome.state["envelopes"]) == {"faq", "order", "shipping"}
    for stored in outcome.state["envelopes"].values():
        public = {k: v for k, v in stored.items() if k not in ("attempt", "step")}
        assert Envelope.model_validate(public).model_dump() == public
