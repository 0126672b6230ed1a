"""A reason is kept once however often the decision is sent: twice in a row (a double click)
or by two operators at the same moment, against real PostgreSQL."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import Escalation, StaffText
from agents.support.escalations.services import escalation_decide
from netshop.audit import audit_verify
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, staff_user
from tests.support.concurrency import released_together

REASON = "the parcel was found"


def _reject(escalation: Escalation, user: User) -> str:
    try:
        escalation_decide(
            escalation_id=escalation.pk,
            user=user,
            decision="reject",
            reason=f"{REASON} ({user.username})",
            confirm_language=True,
        )
        return "decided"
    except DomainError as refused:
        return refused.code


@pytest.mark.django_db
def test_a_double_click_keeps_one_reason() -> None:
    escalation, sato = escalation_for(), staff_user("sato", Role.OPERATOR)

    first, second = _reject(escalation, sato), _reject(escalation, sato)

    assert (first, second) == ("decided", "already_decided")
    assert StaffText.objects.count() == 1
    assert AuditEntry.objects.filter(action="decision.reject").count() == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_operators_deciding_at_once_keep_the_winners_reason_only() -> None:
    escalation = escalation_for()
    users = [staff_user(f"op{i}", Role.OPERATOR) for i in range(4)]
    outcomes = released_together(lambda user: _reject(escalation, user), users)

    assert sorted(outcomes) == ["already_decided"] * 3 + ["decided"]
    winner = users[outcomes.index("decided")].username
    kept = StaffText.objects.get()
    entry = AuditEntry.objects.get(action="decision.reject")
    assert (kept.author, kept.text, entry.actor) == (winner, f"{REASON} ({winner})", winner)
    assert entry.data["reason_digest"] == kept.digest
    assert audit_verify().ok
