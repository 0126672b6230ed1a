"""The grounds each AI answer keeps: what the turn read, the records it used, its self-check."""

from __future__ import annotations

from collections.abc import Callable

from agents.models import Message, MessageAuthor
from agents.support.grounds import turn_grounds
from agents.team.graph.planner import INTENT_OF_AGENT
from agents.team.runs.outcome import RunOutcome
from netshop.audit.models import AuditEntry
from netshop.knowledge.selectors import article_get
from netshop.knowledge.services import article_draft_save, article_publish
from tests.support.scenarios import SupportShop


def ai_message(outcome: RunOutcome) -> Message:
    return Message.objects.get(inquiry_id=outcome.inquiry_id, author_kind=MessageAuthor.AI)


def test_a_tracking_answer_names_the_order_it_read_and_passes(
    ask: Callable[..., RunOutcome], shop: SupportShop
) -> None:
    parcel = shop.hanako.in_transit
    outcome = ask(f"{parcel.number}の荷物はいつ届きますか？")

    grounds = ai_message(outcome).grounds
    assert grounds is not None
    assert grounds["reading"]["intents"][0] == "track_shipment"
    assert 0 < grounds["reading"]["confidence"] <= 1
    assert grounds["reading"]["language"] == "ja"
    assert grounds["records"]["orders"] == [parcel.number]
    assert grounds["records"]["tracking"] == [parcel.shipment.tracking_number]
    assert grounds["check"] == {"passed": True, "problems": []}


def test_an_faq_answer_names_the_entry_it_quotes(
    ask: Callable[..., RunOutcome], shop: SupportShop
) -> None:
    outcome = ask("How much is shipping?", customer=shop.emily.customer)

    grounds = ai_message(outcome).grounds
    assert grounds is not None
    quoted = [entry["question"] for entry in grounds["records"]["faq"] if entry["quoted"]]
    assert quoted == ["How much is shipping?"]
    assert grounds["check"]["passed"]


def test_a_newly_published_version_answers_the_next_question_and_the_grounds_name_it(
    ask: Callable[..., RunOutcome], shop: SupportShop
) -> None:
    """No restart: the run's search sees the publish at once (the index's stamp moved)."""
    customer = shop.emily.customer
    article = article_get(key="shipping-fee")
    before = ask("How much is shipping?", customer=customer)
    draft = article_draft_save(
        article=article,
        language="en",
        title="How much is shipping?",
        body="Shipping is a flat ¥700 (tax included), and free on orders of ¥8,000 or more.",
    )
    article_publish(version=draft)

    after = ask("How much is shipping?", customer=customer)

    assert "¥550" in before.state["reply"]
    assert "¥700" in after.state["reply"]
    assert "¥550" not in after.state["reply"]
    grounds = Message.objects.filter(inquiry_id=after.inquiry_id, author_kind=MessageAuthor.AI)
    quoted = [f for f in grounds.get().grounds["records"]["faq"] if f["quoted"]]  # type: ignore[index]
    assert [(f["article"], f["version"]) for f in quoted] == [("shipping-fee", 2)]


def test_a_reply_stating_a_fact_the_turn_never_read_fails(
    ask: Callable[..., RunOutcome], shop: SupportShop
) -> None:
    parcel = shop.hanako.in_transit
    outcome = ask(f"{parcel.number}の荷物はいつ届きますか？")
    wrong = f"ご注文 {shop.emily.pending.number} は配送中です。代金は¥99,999です。"

    check = turn_grounds(outcome.state, reply=wrong, owners=INTENT_OF_AGENT)["check"]

    assert check == {
        "passed": False,
        "problems": [
            {"kind": "order", "subject": shop.emily.pending.number},
            {"kind": "amount", "subject": "¥99,999"},
        ],
    }


def test_a_specialist_that_failed_leaves_its_request_unanswered(
    ask: Callable[..., RunOutcome], shop: SupportShop
) -> None:
    outcome = ask(f"{shop.hanako.in_transit.number}の荷物はいつ届きますか？")
    state = dict(outcome.state)
    state["envelopes"] = {
        **state["envelopes"],
        "shipping": {
            **state["envelopes"]["shipping"],
            "status": "error",
            "error_code": "max_turns",
        },
    }

    check = turn_grounds(state, reply=state["reply"], owners=INTENT_OF_AGENT)["check"]

    assert check["problems"] == [{"kind": "unanswered", "subject": "track_shipment"}]


def test_the_audit_trail_keeps_the_grounds_as_figures_only(
    ask: Callable[..., RunOutcome], shop: SupportShop
) -> None:
    parcel = shop.hanako.in_transit
    outcome = ask(f"{parcel.number}の荷物はいつ届きますか？")

    entry = AuditEntry.objects.get(
        action="message.posted", inquiry_id=outcome.inquiry_id, data__author_kind="ai"
    )
    figures = entry.data["grounds"]
    assert figures["intents"][0] == "track_shipment"
    assert figures["check"] == "passed"
    assert figures["records"] == {"orders": 1, "tracking": 1, "faq": 0}
    assert parcel.number not in str(entry.data)
    assert parcel.shipment.tracking_number not in str(entry.data)
