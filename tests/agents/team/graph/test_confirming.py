"""Unsure of a request to act, the AI asks before anything runs (issue 13: the model's
confidence decides between acting and asking).

Given Hanako's pending order, when the reading of "cancel it" is unsure, the run asks "would
you like us to go ahead with the cancellation?" in their language and prepares nothing; a
"yes" confirms it and the next turn prepares the cancellation for approval; their own words
instead are read afresh. A look-up is never held up by the question.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.contract.schemas import Classification, Entities, Intent
from agents.models import Escalation, EscalationKind, Inquiry, InquiryStatus
from agents.providers.offline.writing.questions import write_question
from agents.support.conversations.services import customer_message_post
from agents.support.escalations.drafts import draft_send
from agents.team.graph import confidence
from agents.team.runs.driver import inquiry_advance
from agents.team.runs.outcome import RunOutcome
from netshop.roles import Role
from tests.operators.api_helpers import staff_user
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]


@pytest.fixture
def unsure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reading counts as unsure: the policy, not today's model, is under test."""
    monkeypatch.setattr(confidence, "CONFIRM_BELOW", 0.999)
    monkeypatch.setattr(confidence, "CONFIRM_NAMED_GATED_BELOW", 0.999)


def reading(intent: Intent, certainty: float) -> Classification:
    return Classification(agents=["order"], intent=intent, language="ja", confidence=certainty)


def test_an_unsure_request_to_act_is_put_back_to_the_customer() -> None:
    question = confidence.confirmation_question(reading("cancel_order", 0.2))

    assert question == {
        "slot": "intent",
        "why": "unsure",
        "options": [{"value": "cancel_order"}],
        "about": "cancel_order",
    }


def test_a_sure_request_or_any_look_up_goes_ahead() -> None:
    assert confidence.confirmation_question(reading("cancel_order", 0.9)) is None
    assert confidence.confirmation_question(reading("get_order_details", 0.05)) is None


def test_a_gated_request_on_the_order_named_goes_ahead_unless_much_less_sure() -> None:
    """A person approves it anyway: "can I cancel ORD-1234?" is not met with "shall we?"."""
    named = reading("cancel_order", 0.3).model_copy(
        update={"entities": Entities(order_numbers=["ORD-1234"])}
    )
    assert confidence.confirmation_question(named) is None
    assert confidence.confirmation_question(reading("cancel_order", 0.3)) is not None
    hardly = named.model_copy(update={"confidence": 0.1})
    assert confidence.confirmation_question(hardly) is not None


def test_every_approval_gated_or_side_effect_skill_is_an_action() -> None:
    assert {"process_refund", "cancel_order", "apply_coupon", "arrange_redelivery"} <= (
        confidence.ACTION_SKILLS
    )
    assert "track_shipment" not in confidence.ACTION_SKILLS


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ja", "ご注文のキャンセルをご希望ということでよろしいでしょうか。"),
        ("en", "would you like us to go ahead with the cancellation?"),
    ],
)
def test_the_question_names_the_action_in_the_customers_language(
    language: str, expected: str
) -> None:
    text = write_question({"language": language, "slot": "intent", "about": "cancel_order"})

    assert expected in text


@pytest.mark.usefixtures("unsure")
def test_an_unsure_cancellation_asks_first_and_a_yes_prepares_it(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(
        f"{shop.hanako.pending.number}はキャンセルでお願いします", customer=shop.hanako.customer
    )

    assert outcome.status == InquiryStatus.AWAITING_CUSTOMER
    assert outcome.state["question"]["slot"] == "intent"
    assert "ご注文のキャンセルをご希望" in outcome.state["reply"]
    assert outcome.pending_actions == []
    assert not Escalation.objects.filter(inquiry_id=outcome.inquiry_id).exists()

    customer_message_post(customer=shop.hanako.customer, inquiry_id=outcome.inquiry_id, text="はい")
    inquiry_advance(inquiry_id=outcome.inquiry_id)

    inquiry = Inquiry.objects.get(pk=outcome.inquiry_id)
    escalation = Escalation.objects.get(inquiry_id=outcome.inquiry_id, status="open")
    assert inquiry.status == InquiryStatus.AWAITING_APPROVAL
    assert [a["kind"] for a in escalation.package["recommended_actions"]] == ["cancel_order"]
    assert (
        escalation.package["recommended_actions"][0]["params"]["order_number"]
        == shop.hanako.pending.number
    )


@pytest.mark.usefixtures("unsure")
def test_their_own_words_instead_of_a_yes_are_read_afresh(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(
        f"{shop.hanako.pending.number}はキャンセルでお願いします", customer=shop.hanako.customer
    )

    customer_message_post(
        customer=shop.hanako.customer,
        inquiry_id=outcome.inquiry_id,
        text=f"いえ、{shop.hanako.pending.number}の中身を確認したいだけです",
    )
    inquiry_advance(inquiry_id=outcome.inquiry_id)

    inquiry = Inquiry.objects.get(pk=outcome.inquiry_id)
    assert inquiry.status == InquiryStatus.RESOLVED
    assert not Escalation.objects.filter(inquiry_id=outcome.inquiry_id).exists()


# --- no request read at all: ask what they need, never answer with an order ---------------


def test_a_reading_with_no_request_in_it_asks_what_the_customer_needs() -> None:
    """Only the card's fallback look-up is left, read as a guess: an order's details would
    answer a question nobody asked (issue 24, class 1)."""
    for fallback in ("get_order_details", "search_faq", "track_shipment"):
        question = confidence.question_before_planning(reading(fallback, 0.02))

        assert question == {"slot": "request", "why": "unclear", "options": [], "about": ""}


def test_a_later_message_with_no_request_goes_on_with_the_conversation() -> None:
    assert (
        confidence.question_before_planning(reading("get_order_details", 0.02), later_turn=True)
        is None
    )


def test_a_real_look_up_or_a_flagged_message_is_not_asked_about() -> None:
    assert confidence.question_before_planning(reading("get_order_details", 0.6)) is None
    flagged = reading("process_refund", 0.05).model_copy(update={"injection_suspected": True})
    assert confidence.question_before_planning(flagged) is None


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("ja", "どのようなことでお困りか"),
        ("en", "could you tell us what happened"),
    ],
)
def test_the_open_question_apologises_and_says_what_the_shop_can_help_with(
    language: str, expected: str
) -> None:
    text = write_question({"language": language, "slot": "request", "why": "unclear"})

    assert expected in text


@pytest.mark.parametrize(
    "text",
    [
        "I'm having trouble with something I ordered, please help.",
        "Honestly, you people are useless. Every single time.",
        "ちょっとトラブってまして、助けてもらえませんか",
        "御社にはほとほと呆れました。",
    ],
)
def test_a_vague_or_angry_message_gets_a_question_not_an_orders_details(
    shop: SupportShop, ask: Ask, text: str
) -> None:
    outcome = ask(text, customer=shop.hanako.customer)

    assert outcome.state["status"] == InquiryStatus.AWAITING_CUSTOMER
    assert outcome.status == InquiryStatus.ESCALATED  # not understood: a person sends it
    assert outcome.state["question"]["slot"] == "request"
    assert outcome.pending_actions == []
    for order in (shop.hanako.pending, shop.hanako.delivered):
        assert order.number not in outcome.state["reply"]


def send_the_draft(outcome: RunOutcome) -> None:
    draft = Escalation.objects.get(inquiry_id=outcome.inquiry_id, kind=EscalationKind.DRAFT)
    draft_send(escalation_id=draft.pk, user=staff_user("op", Role.OPERATOR))


def test_the_answer_to_the_open_question_is_read_as_a_request_of_its_own(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask("There's an issue, can you help me?", customer=shop.hanako.customer)
    send_the_draft(outcome)  # not understood: a person sends the question

    customer_message_post(
        customer=shop.hanako.customer,
        inquiry_id=outcome.inquiry_id,
        text=f"I want to cancel {shop.hanako.pending.number}, I ordered it by mistake.",
    )
    inquiry_advance(inquiry_id=outcome.inquiry_id)

    inquiry = Inquiry.objects.get(pk=outcome.inquiry_id)
    assert inquiry.status == InquiryStatus.AWAITING_APPROVAL
