"""Conversations built through the services, as the manager pages' tests need them."""

from __future__ import annotations

from django.contrib.auth.models import User

from agents.models import Escalation
from agents.support.conversations.services import note_add
from agents.support.escalations.services import escalation_decide
from netshop.audit import audit_record
from tests.operators.api_helpers import escalation_for, inquiry_for

REJECT_REASON = "注文は出荷済み: 返品で対応してください"
NOTE = "電話で確認、箱が潰れていた"


def decide_with_a_note(user: User, *, reason: str = REJECT_REASON) -> Escalation:
    """A refund escalation (ORD-4003) rejected by ``user`` with ``reason``, after a note."""
    escalation = escalation_for()
    note_add(inquiry_id=escalation.inquiry_id, user=user, text=NOTE)
    escalation_decide(
        escalation_id=escalation.pk,
        user=user,
        decision="reject",
        reason=reason,
        confirm_language=True,
    )
    return escalation


def refunded(escalation: Escalation, *, actor: str, amount: int = 12800) -> None:
    """The audit entry of the refund the escalation's approval made."""
    audit_record(
        action="side_effect.refund",
        actor=actor,
        inquiry_id=escalation.inquiry_id,
        operation_id=f"{escalation.inquiry_id}:process_refund:a1",
        data={"order": "ORD-4003", "amount": amount},
    )


__all__ = ["decide_with_a_note", "inquiry_for", "refunded"]
