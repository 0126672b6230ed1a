"""Ask, don't guess (issue 12, items 2 and 9), on a shop of two customers with the offline model.

Given Hanako (``support_shop``: an order in transit, one back at the depot, one delivered, one
pending, one cancelled), when they write that their parcel has not arrived and name no
order, then the run asks which of the parcels on their way, in their language, and waits for
them (awaiting_customer) having done nothing: no redelivery, coupon, date change or refund.
Their answer (a bare order number, 「2つ目の方です」) starts the next turn on the same thread,
which tracks the chosen order and names it. A claim the records contradict, and a request
the shop cannot do, go to a person with the reason.
"""

from __future__ import annotations

from collections.abc import Callable

from agents.models import Escalation, Inquiry, InquiryStatus, Message, MessageAuthor
from agents.team.runs.outcome import RunOutcome
from netshop.models import Coupon, DeliveryDateChange, Redelivery, Refund
from tests.support.conversations import customer_answers
from tests.support.scenarios import SCENARIO_PREFIX, SupportShop

Ask = Callable[..., RunOutcome]


def no_side_effects() -> None:
    assert Coupon.objects.filter(inquiry_ref__isnull=False).count() == 0
    assert Redelivery.objects.count() == 0
    assert DeliveryDateChange.objects.count() == 0
    assert Refund.objects.exclude(operation_id__startswith=SCENARIO_PREFIX).count() == 0


def ai_messages(inquiry_id: str) -> list[str]:
    rows = Message.objects.filter(inquiry_id=inquiry_id, author_kind=MessageAuthor.AI)
    return list(rows.order_by("created_at", "id").values_list("text", flat=True))


def test_an_order_left_unnamed_among_several_is_asked_for_and_nothing_is_done(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask("My parcel hasn't arrived.")

    inquiry = Inquiry.objects.get(pk=outcome.inquiry_id)
    question = outcome.state["question"]
    assert outcome.status == InquiryStatus.AWAITING_CUSTOMER
    assert inquiry.status == InquiryStatus.AWAITING_CUSTOMER
    assert inquiry.awaiting_until is not None
    assert [o["value"] for o in question["options"]] == [
        shop.hanako.in_transit.number,
        shop.hanako.absent_returned.number,
    ]
    assert (question["slot"], question["asked_by"]) == ("order", "order")
    assert "shipping" not in outcome.state["envelopes"]  # the dependent step did not run
    assert ai_messages(outcome.inquiry_id) == [outcome.state["reply"]]
    assert (
        f"Which order is this about (parcel not delivered)?\n1. {shop.hanako.in_transit.number} ("
        in outcome.state["reply"]
    )
    assert f"2. {shop.hanako.absent_returned.number} (" in outcome.state["reply"]
    assert outcome.state["reply"].endswith(
        "Please reply with the number (1 or 2) or the order number."
    )
    assert not Escalation.objects.filter(inquiry_id=outcome.inquiry_id).exists()
    no_side_effects()


def test_a_bare_order_number_answers_and_the_chosen_order_is_tracked(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask("My parcel hasn't arrived.")

    inquiry = customer_answers(outcome, shop.hanako.absent_returned.number)

    [_question, reply] = ai_messages(outcome.inquiry_id)
    assert inquiry.status == InquiryStatus.RESOLVED
    assert inquiry.turns == 2
    assert inquiry.reply == reply
    assert f"order {shop.hanako.absent_returned.number}" in reply
    assert shop.hanako.in_transit.number not in reply
    assert "back at the depot" in reply
    assert inquiry.language == "en"
    no_side_effects()


def test_the_second_one_in_japanese_answers_with_the_second_option(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask("荷物がまだ届きません。")
    assert outcome.status == InquiryStatus.AWAITING_CUSTOMER
    assert "どちらのご注文" in outcome.state["reply"]
    assert "番号（1、2）または注文番号でお答えください。" in outcome.state["reply"]

    inquiry = customer_answers(outcome, "2つ目の方です")

    assert inquiry.status == InquiryStatus.RESOLVED
    assert f"ご注文 {shop.hanako.absent_returned.number}" in inquiry.reply
    assert shop.hanako.in_transit.number not in inquiry.reply
    assert inquiry.language == "ja"
    no_side_effects()


def test_the_issue_case_asks_instead_of_issuing_a_coupon_on_a_guessed_order(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask("注文した商品がまだ届かないし、クーポンも使えなかった")

    assert outcome.status == InquiryStatus.AWAITING_CUSTOMER
    assert [o["value"] for o in outcome.state["question"]["options"]] == [
        shop.hanako.in_transit.number,
        shop.hanako.absent_returned.number,
    ]
    assert "payment" not in outcome.state["envelopes"]
    no_side_effects()


def test_a_bare_number_that_is_no_option_asks_again(ask: Ask) -> None:
    outcome = ask("My parcel hasn't arrived.")

    inquiry = customer_answers(outcome, "I don't know")

    assert inquiry.status == InquiryStatus.AWAITING_CUSTOMER
    assert len(ai_messages(outcome.inquiry_id)) == 2
    no_side_effects()


def test_not_arrived_while_the_carrier_says_delivered_goes_to_a_person(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(f"{shop.hanako.delivered.number} hasn't arrived yet.")

    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id)
    assert outcome.status == InquiryStatus.ESCALATED
    assert (escalation.kind, escalation.reason) == ("follow_up", "claim_contradicts_records")
    assert "carrier shows it delivered" in escalation.summary
    assert "a member of our staff will check with the carrier" in outcome.state["reply"]
    assert f"order {shop.hanako.delivered.number}" in outcome.state["reply"]
    assert "Delivered" not in outcome.state["reply"]
    no_side_effects()


def test_an_answer_naming_the_delivered_order_goes_to_a_person(shop: SupportShop, ask: Ask) -> None:
    outcome = ask("荷物がまだ届きません。")

    inquiry = customer_answers(outcome, f"いえ、{shop.hanako.delivered.number}の方です")

    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id)
    assert inquiry.status == InquiryStatus.ESCALATED
    assert escalation.reason == "claim_contradicts_records"
    assert f"ご注文 {shop.hanako.delivered.number}は配送業者の記録では配達済み" in inquiry.reply
    no_side_effects()


def test_a_correction_on_the_next_turn_redoes_the_request_for_the_other_order(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(f"Where is {shop.hanako.in_transit.number}?")
    assert outcome.status == InquiryStatus.RESOLVED

    inquiry = customer_answers(outcome, f"Sorry, I meant {shop.hanako.absent_returned.number}")

    assert inquiry.status == InquiryStatus.RESOLVED
    assert inquiry.turns == 2
    assert f"order {shop.hanako.absent_returned.number}" in inquiry.reply
    assert "back at the depot" in inquiry.reply
    no_side_effects()


def test_the_second_one_in_english_answers_the_question(shop: SupportShop, ask: Ask) -> None:
    outcome = ask("My parcel hasn't arrived.")

    inquiry = customer_answers(outcome, "the second one")

    assert inquiry.status == InquiryStatus.RESOLVED
    assert f"order {shop.hanako.absent_returned.number}" in inquiry.reply
    no_side_effects()
