"""The audit search and its CSV in support terms: readable columns, search by order number,
and the operators' reasons and notes, for managers only."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agents.models import Escalation
from agents.support.escalations.services import escalation_decide
from netshop.audit.models import AuditEntry
from netshop.roles import Role
from operators.audit import export
from tests.factories import CustomerFactory, delivered_order
from tests.operators.api_helpers import escalation_for, inquiry_for, signed_in, staff_user
from tests.operators.audit.scenes import NOTE, REJECT_REASON, decide_with_a_note, refunded

pytestmark = pytest.mark.django_db


@pytest.fixture
def sato() -> User:
    return staff_user("sato", Role.OPERATOR)


@pytest.fixture
def manager() -> Client:
    return signed_in(staff_user("mgr", Role.MANAGER))


def _csv(response: Any) -> list[dict[str, str]]:
    body = b"".join(response.streaming_content).decode("utf-8")
    return list(csv.DictReader(io.StringIO(body[1:])))


def _by_action(rows: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    return {row["action"]: row for row in rows}


# --- Readable columns ------------------------------------------------------------------------


def test_the_csv_says_who_did_what_for_which_customer_order_and_amount(
    manager: Client, sato: User
) -> None:
    escalation = decide_with_a_note(sato)
    customer = escalation.inquiry.customer.code

    rows = _by_action(_csv(manager.get(f"/audit/export.csv?inquiry={escalation.inquiry_id}")))

    assert list(rows["decision.reject"]) == list(export.COLUMNS)
    wait, decision = rows["wait.opened"], rows["decision.reject"]
    assert {k: wait[k] for k in ("actor", "customer", "order", "amount_yen", "decision")} == {
        "actor": "agent:supervisor",
        "customer": customer,
        "order": "ORD-4003",
        "amount_yen": "12800",
        "decision": "",
    }
    assert wait["reason_category"] == "approval required"
    assert {
        k: decision[k]
        for k in ("actor", "customer", "order", "amount_yen", "decision", "reason_or_note")
    } == {
        "actor": "sato",
        "customer": customer,
        "order": "ORD-4003",
        "amount_yen": "12800",
        "decision": "rejected",
        "reason_or_note": REJECT_REASON,
    }
    assert rows["message.posted"]["customer"] == customer


def test_an_edited_amount_is_the_decided_one(manager: Client, sato: User) -> None:
    escalation = escalation_for()
    escalation_decide(
        escalation_id=escalation.pk,
        user=sato,
        decision="edit",
        params={"amount": 5000},
        reason="one item kept",
    )

    rows = _by_action(_csv(manager.get("/audit/export.csv?action=decision.")))

    assert (rows["decision.edit"]["amount_yen"], rows["decision.edit"]["decision"]) == (
        "5000",
        "approved with changes",
    )
    assert rows["decision.edit"]["reason_or_note"] == "one item kept"


def test_a_side_effect_row_carries_the_inquirys_verdict(manager: Client) -> None:
    escalation = escalation_for()
    inquiry = escalation.inquiry
    inquiry.handoffs = [{"handoff_id": "h1", "verdict": "HEALTHY"}, {"verdict": "FALSE_COMPLETE"}]
    inquiry.save(update_fields=["handoffs"])
    refunded(escalation, actor="sato")

    rows = _by_action(_csv(manager.get("/audit/export.csv?action=side_effect.")))

    assert rows["side_effect.refund"]["verdict"] == "FALSE_COMPLETE"


def test_the_search_page_shows_the_readable_columns_and_the_reason(
    manager: Client, sato: User
) -> None:
    escalation = decide_with_a_note(sato, reason="<b>too late</b> to refund")

    html = manager.get(f"/audit/?inquiry={escalation.inquiry_id}").content.decode()

    assert escalation.inquiry.customer.code in html
    assert "ORD-4003" in html
    assert "¥12,800" in html
    assert "&lt;b&gt;too late&lt;/b&gt; to refund" in html
    assert NOTE in html


# --- Search by order number ------------------------------------------------------------------


def _conversation_about_ord_4003(sato: User) -> Escalation:
    customer = CustomerFactory.create()
    delivered_order(number="ORD-4003", customer=customer, captured=12800)
    escalation = escalation_for(inquiry_for(customer, text="返金してください"))
    escalation_decide(escalation_id=escalation.pk, user=sato, decision="approve")
    refunded(escalation, actor="sato")
    return escalation


def _seqs(response: Any) -> set[int]:
    return {entry.seq for entry in response.context["page"].entries}


def test_an_order_number_finds_every_entry_of_the_conversations_about_it(
    manager: Client, sato: User
) -> None:
    escalation = _conversation_about_ord_4003(sato)
    customer = escalation.inquiry.customer
    asking = inquiry_for(customer, text="ORD-4003 はいつ届きますか")  # names it, no action
    elsewhere = inquiry_for(customer, text="ポイントについて")  # the same customer, not about it
    stranger = inquiry_for(text="ORD-4003 を教えて")  # not their order

    response = manager.get("/audit/?q=ORD-4003")

    expected = AuditEntry.objects.filter(inquiry_id__in=[escalation.inquiry_id, asking.pk])
    assert _seqs(response) == set(expected.values_list("seq", flat=True))
    actions = {e.action for e in response.context["page"].entries}
    assert {"inquiry.received", "wait.opened", "decision.approve", "side_effect.refund"} <= actions
    assert not {e.inquiry_id for e in response.context["page"].entries} & {
        elsewhere.pk,
        stranger.pk,
    }


def test_the_order_search_exports_the_same_rows(manager: Client, sato: User) -> None:
    _conversation_about_ord_4003(sato)

    page = _seqs(manager.get("/audit/?q=ORD-4003"))
    rows = _csv(manager.get("/audit/export.csv?q=ORD-4003"))

    assert {int(row["seq"]) for row in rows} == page


# --- Reasons and notes are for managers ------------------------------------------------------


def test_an_operator_reads_neither_the_reasons_nor_the_notes_in_the_audit_pages(
    sato: User,
) -> None:
    escalation = decide_with_a_note(sato)
    operator = signed_in(staff_user("op", Role.OPERATOR))

    pages = [
        f"/audit/inquiries/{escalation.inquiry_id}/",
        f"/audit/?inquiry={escalation.inquiry_id}",
        f"/audit/export.csv?inquiry={escalation.inquiry_id}",
        f"/api/v1/inquiries/{escalation.inquiry_id}/audit",
    ]
    responses = [operator.get(url) for url in pages]

    assert [r.status_code for r in responses[:3]] == [403, 403, 403]
    trail = responses[3]
    assert trail.status_code == 200  # the operator's API trail: content-free entries only
    assert REJECT_REASON not in trail.content.decode()
    assert NOTE not in trail.content.decode()


def test_the_timeline_shows_the_reason_and_the_note_to_a_manager(
    manager: Client, sato: User
) -> None:
    escalation = decide_with_a_note(sato)

    response = manager.get(f"/audit/inquiries/{escalation.inquiry_id}/")

    html = response.content.decode()
    assert REJECT_REASON in html
    assert NOTE in html
    texts = {row["row"].staff_text for row in response.context["rows"]} - {""}
    assert texts == {REJECT_REASON, NOTE}


def test_an_order_named_only_by_an_escalations_action_finds_its_conversation(
    manager: Client,
) -> None:
    customer = CustomerFactory.create()
    delivered_order(number="ORD-4003", customer=customer, captured=12800)
    escalation = escalation_for(inquiry_for(customer, text="返金してください"))  # no number

    response = manager.get("/audit/?q=ORD-4003")

    assert {e.inquiry_id for e in response.context["page"].entries} == {escalation.inquiry_id}
