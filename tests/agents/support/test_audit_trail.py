"""What staff write goes to a staff table, and only its digest into the content-free chain."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User

from agents.models import Inquiry, InquiryStatus, StaffText, StaffTextKind
from agents.support import audit_trail
from agents.support.escalations.review_flags import conversation_flag
from agents.support.escalations.services import escalation_decide
from netshop.audit import audit_verify
from netshop.audit.models import AuditEntry
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, inquiry_for, staff_user

pytestmark = pytest.mark.django_db

REASON = "お客様と電話で確認済み: 箱が潰れていた"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture
def sato() -> User:
    return staff_user("sato", Role.OPERATOR)


def test_a_rejection_keeps_its_reason_for_managers_and_its_digest_in_the_chain(
    sato: User,
) -> None:
    escalation = escalation_for()

    escalation_decide(escalation_id=escalation.pk, user=sato, decision="reject", reason=REASON)

    entry = AuditEntry.objects.get(action="decision.reject")
    kept = StaffText.objects.get()
    assert entry.data["reason_digest"] == _sha(REASON) == kept.digest
    assert (kept.inquiry_id, kept.escalation_id, kept.kind, kept.author, kept.text) == (
        escalation.inquiry_id,
        escalation.pk,
        StaffTextKind.DECISION_REASON,
        "sato",
        REASON,
    )
    assert REASON not in str(AuditEntry.objects.values_list("data", flat=True))
    assert audit_verify().ok


def test_an_approval_without_a_reason_keeps_no_text(sato: User) -> None:
    escalation = escalation_for()

    escalation_decide(escalation_id=escalation.pk, user=sato, decision="approve")

    entry = AuditEntry.objects.get(action="decision.approve")
    assert "reason_digest" not in entry.data
    assert not StaffText.objects.exists()


def test_a_decision_on_one_action_names_it_and_recommends_only_it() -> None:
    escalation = escalation_for()
    cancel = {"action_id": "a2", "kind": "cancel_order", "params": {"order_number": "ORD-4004"}}
    escalation.actions = [*escalation.actions, cancel]

    audit_trail.decided(
        escalation=escalation,
        username="sato",
        decision="reject",
        params={},
        reason="already shipped",
        action_id="a2",
    )

    entry = AuditEntry.objects.get(action="decision.reject")
    assert entry.operation_id == "a2"
    assert entry.data["action_id"] == "a2"
    assert entry.data["recommended"] == [
        {"action_id": "a2", "kind": "cancel_order", "order_number": "ORD-4004"}
    ]
    assert StaffText.objects.get().action_id == "a2"


def test_an_edit_records_the_figures_it_changed(sato: User) -> None:
    escalation = escalation_for()

    escalation_decide(
        escalation_id=escalation.pk,
        user=sato,
        decision="edit",
        params={"amount": 5000},
        reason="partial: one item kept",
    )

    entry = AuditEntry.objects.get(action="decision.edit")
    assert entry.data["changes"] == [
        {"action_id": "a1", "param": "amount", "recommended": 12800, "decided": 5000}
    ]
    assert entry.data["reason_digest"] == _sha("partial: one item kept")


def test_a_flag_keeps_the_leads_reason_by_digest() -> None:
    lead = staff_user("lead", Role.MANAGER)
    inquiry = inquiry_for()
    Inquiry.objects.filter(pk=inquiry.pk).update(status=InquiryStatus.RESOLVED)

    conversation_flag(inquiry_id=inquiry.pk, user=lead, reason="the answer was too curt")

    entry = AuditEntry.objects.get(action="conversation.flagged")
    kept = StaffText.objects.get(kind=StaffTextKind.FLAG_REASON)
    assert entry.data == {"reason_digest": _sha("the answer was too curt")}
    assert (kept.inquiry_id, kept.author, kept.text) == (inquiry.pk, "lead", kept.text)
    assert kept.text == "the answer was too curt"
    assert audit_verify().ok
