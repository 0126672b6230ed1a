"""A manager's change of autonomy reaches a worker that is already running (issue 25, part 2).

Given a real Celery worker process started before the change, when a manager sets the FAQ's
level to draft between two customer messages, then the first answer was sent and the second
waits as a draft: the level is read per turn, no restart.
"""

from __future__ import annotations

import pytest

from agents.models import AutonomyLevel, EscalationKind, Inquiry, InquiryStatus, MessageAuthor
from agents.support.autonomy.levels import autonomy_set
from agents.support.conversations.intake import inquiry_create
from agents.support.vocabulary import Skill
from netshop.roles import Role
from tests.operators.api_helpers import staff_user
from tests.support.scenarios import SupportShop
from tests.support.workers import running_workers, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def finished(inquiry: Inquiry) -> bool:
    status = Inquiry.objects.get(pk=inquiry.pk).status
    return status not in (InquiryStatus.QUEUED, InquiryStatus.RUNNING)


def test_a_level_changed_while_the_worker_runs_applies_to_the_next_message(
    shop: SupportShop,
) -> None:
    customer = shop.emily.customer
    manager = staff_user("mgr", Role.MANAGER)
    with running_workers(1):
        before = inquiry_create(customer=customer, text="What is your return policy?")
        wait_until(lambda: finished(before), timeout=60)
        autonomy_set(intent=Skill.SEARCH_FAQ, level=AutonomyLevel.DRAFT, user=manager)
        after = inquiry_create(customer=customer, text="What is your return policy?")
        wait_until(lambda: finished(after), timeout=60)

    before.refresh_from_db()
    after.refresh_from_db()
    assert before.status == InquiryStatus.RESOLVED
    assert before.messages.filter(author_kind=MessageAuthor.AI).exists()
    assert after.status == InquiryStatus.ESCALATED
    assert after.escalations.get().kind == EscalationKind.DRAFT
    assert not after.messages.filter(author_kind=MessageAuthor.AI).exists()
