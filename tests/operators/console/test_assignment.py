"""The console's assignment controls: "Assign to…", a manager's take-over, the managers' queue.

Given escalations and conversations, when staff open their pages and post the assignment
forms, then the controls offered follow the claim rules, an assignment changes the holder,
a refused one changes nothing and says who holds it, and the timeline tells what happened.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agents.models import Escalation
from agents.support.escalations.claims import claims_expire, escalation_assign, escalation_claim
from agents.support.escalations.deadlines import overdue_approvals_move
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, inquiry_for, signed_in, staff_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss() -> User:
    return staff_user("boss", Role.MANAGER)


def page_text(response: Any) -> str:
    """The page as a person reads it: tags gone, entities decoded, spaces collapsed."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))
    return re.sub(r"\s+", " ", text)


def detail(user: User, escalation: Escalation) -> str:
    return signed_in(user).get(f"/console/escalations/{escalation.pk}/").content.decode()


def test_the_detail_page_offers_assign_to_a_colleague(
    op1: User, op2: User, boss: User, escalation: Escalation
) -> None:
    html = detail(op1, escalation)

    assert 'id="assign-form"' in html
    assert '<option value="op2">op2</option>' in html
    assert '<option value="boss">boss</option>' in html


def test_an_operator_gets_no_controls_on_anothers_claim_but_a_manager_does(
    op1: User, op2: User, boss: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)

    theirs = detail(op2, escalation)
    managers = detail(boss, escalation)

    assert 'id="assign-form"' not in theirs
    assert 'id="take-over-claim-button"' not in theirs
    assert 'id="take-over-claim-button"' in managers
    assert 'id="release-other-button"' in managers
    assert '<option value="op1">' not in managers  # the holder is not offered to themself


def test_assigning_from_the_detail_page_gives_it_to_the_colleague(
    op1: User, op2: User, escalation: Escalation
) -> None:
    response = signed_in(op1).post(
        f"/console/escalations/{escalation.pk}/assign", {"assignee": "op2"}, follow=True
    )

    escalation.refresh_from_db()
    assert escalation.claimed_by == op2
    text = page_text(response)
    assert "Assigned to op2." in text
    assert "Claimed by op2: only they can decide or release it." in text
    assert "Assigned op2 · by op1" in text  # the timeline


def test_an_operators_assignment_of_anothers_claim_is_refused_naming_the_holder(
    op1: User, op2: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)

    response = signed_in(op2).post(
        f"/console/escalations/{escalation.pk}/assign", {"assignee": "op2"}
    )

    assert response.status_code == 409
    assert "op1" in page_text(response)
    escalation.refresh_from_db()
    assert escalation.claimed_by == op1


def test_a_manager_takes_over_from_the_detail_page(
    op1: User, boss: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)

    signed_in(boss).post(f"/console/escalations/{escalation.pk}/claim")

    escalation.refresh_from_db()
    assert escalation.claimed_by == boss
    assert "Claimed boss · from op1" in page_text(signed_in(boss).get(_url(escalation)))


def test_a_timed_out_claim_and_an_overdue_move_are_on_the_timeline(
    op1: User, boss: User, escalation: Escalation
) -> None:
    escalation_assign(escalation_id=escalation.pk, user=op1, assignee="op1")
    long_ago = timezone.now() - timedelta(hours=2)
    Escalation.objects.filter(pk=escalation.pk).update(
        claim_active_at=long_ago, deadline=timezone.now() - timedelta(minutes=1)
    )
    claims_expire()
    overdue_approvals_move()

    text = page_text(signed_in(boss).get(_url(escalation)))

    assert "Claim released after no activity from op1" in text
    assert "Past its deadline: moved to the managers' queue" in text


def test_the_queue_marks_and_filters_the_managers_queue(boss: User) -> None:
    late = escalation_for()
    Escalation.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    waiting = escalation_for()
    overdue_approvals_move()

    everything = signed_in(boss).get("/console/").content.decode()
    managers = signed_in(boss).get("/console/", {"managers": "1"}).content.decode()

    assert everything.count("managers-queue") == 1
    assert f'id="row-{late.pk}"' in managers
    assert f'id="row-{waiting.pk}"' not in managers


def test_a_conversation_is_assigned_from_its_page(op1: User, op2: User) -> None:
    inquiry = inquiry_for()
    page = signed_in(op1).get(f"/console/conversations/{inquiry.pk}/").content.decode()

    response = signed_in(op1).post(
        f"/console/conversations/{inquiry.pk}/assign", {"assignee": "op2"}, follow=True
    )

    assert 'id="assign-conversation-form"' in page
    inquiry.refresh_from_db()
    assert inquiry.human_owner == op2
    assert "Taken over by op2: only they can write to the customer." in page_text(response)


def test_a_conversation_owned_by_another_offers_an_operator_no_assignment(
    op1: User, op2: User, boss: User
) -> None:
    inquiry = inquiry_for()
    signed_in(op1).post(f"/console/conversations/{inquiry.pk}/assign", {"assignee": "op1"})

    others = signed_in(op2).get(f"/console/conversations/{inquiry.pk}/").content.decode()
    managers = signed_in(boss).get(f"/console/conversations/{inquiry.pk}/").content.decode()
    refused = signed_in(op2).post(
        f"/console/conversations/{inquiry.pk}/assign", {"assignee": "op2"}
    )

    assert 'id="assign-conversation-form"' not in others
    assert 'id="assign-conversation-form"' in managers
    assert refused.status_code == 409
    inquiry.refresh_from_db()
    assert inquiry.human_owner == op1


def _url(escalation: Escalation) -> str:
    return f"/console/escalations/{escalation.pk}/"


def test_a_refused_decision_on_the_console_still_keeps_the_claim_active(
    op1: User, escalation: Escalation
) -> None:
    escalation_claim(escalation_id=escalation.pk, user=op1)
    long_ago = timezone.now() - timedelta(hours=1)
    Escalation.objects.filter(pk=escalation.pk).update(claim_active_at=long_ago)

    refused = signed_in(op1).post(
        f"/console/escalations/{escalation.pk}/decide", {"decision": "reject", "reason": ""}
    )

    assert refused.status_code == 422
    escalation.refresh_from_db()
    assert escalation.claim_active_at is not None
    assert escalation.claim_active_at > long_ago
    assert claims_expire() == []
