"""Four eyes that reach the managers: a first approval waiting for a second is mailed.

Given a refund at the four-eyes amount, when the first approval is recorded, then every
manager who has not approved it is mailed once that it waits for their second approval, and
the first approver is not; once decided, nothing more goes out.
"""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

import pytest
from django.contrib.auth.models import User

from agents.support.escalations.services import escalation_decide
from netshop.roles import Role
from operators.notifications.services import notifications_sweep
from tests.operators.api_helpers import escalation_for, staff_user
from tests.support.smtp_server import SmtpServer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("inline_worker")]

SUBJECT = "[NetShop] Second approval needed for ¥12,800: Refund ¥12,800 on ORD-4003"


@pytest.fixture(autouse=True)
def four_eyes_at_the_refund(settings: Any) -> None:
    settings.NETSHOP_FOUR_EYES_YEN = 12800
    settings.NETSHOP_NOTIFY_APPROVAL_YEN = 10**9  # the large-approval mail stays out of it


def subjects(smtp: SmtpServer, address: str) -> list[str]:
    return [str(mail["Subject"]).strip() for mail in smtp.to(address)]


def test_the_first_approval_mails_the_managers_once(
    smtp: SmtpServer, manager: User, operator: User
) -> None:
    escalation = escalation_for()

    escalation_decide(escalation_id=escalation.pk, user=operator, decision="approve")
    notifications_sweep()

    assert subjects(smtp, "lead@netshop.example") == [SUBJECT]
    assert subjects(smtp, "op1@netshop.example") == []
    mail: EmailMessage = smtp.to("lead@netshop.example")[0]
    assert f"/console/escalations/{escalation.pk}/" in mail.get_content()


def test_a_manager_who_gave_the_first_approval_is_not_asked_for_the_second(
    smtp: SmtpServer, manager: User
) -> None:
    other = staff_user("mgr2", Role.MANAGER)
    other.email = "mgr2@netshop.example"
    other.save(update_fields=["email"])
    escalation = escalation_for()

    escalation_decide(escalation_id=escalation.pk, user=manager, decision="approve")

    assert subjects(smtp, "lead@netshop.example") == []
    assert subjects(smtp, "mgr2@netshop.example") == [SUBJECT]


def test_once_the_second_approval_is_given_the_sweep_mails_nothing_more(
    smtp: SmtpServer, manager: User, operator: User
) -> None:
    escalation = escalation_for()
    escalation_decide(escalation_id=escalation.pk, user=operator, decision="approve")
    escalation_decide(escalation_id=escalation.pk, user=manager, decision="approve")
    sent = len(smtp.messages)

    notifications_sweep()

    assert sent == 1
    assert len(smtp.messages) == 1
