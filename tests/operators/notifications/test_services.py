"""Staff mail about escalations, against a real SMTP server: who gets what, exactly once."""

from __future__ import annotations

import threading
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from agents.models import Escalation
from agents.support.escalations.claims import escalation_claim
from operators.models import Notification, NotificationKind
from operators.notifications.preferences import notification_preference_set
from operators.notifications.services import notification_send, notifications_sweep
from operators.preferences import staff_preference_set
from tests.operators.api_helpers import escalation_for
from tests.support.smtp_server import SmtpServer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("inline_worker")]


def subject(mail: EmailMessage) -> str:
    """The decoded subject (a folded non-ASCII header decodes with its fold's space)."""
    return str(mail["Subject"]).strip()


def overdue(escalation: Escalation, *, by: timedelta = timedelta(minutes=5)) -> Escalation:
    Escalation.objects.filter(pk=escalation.pk).update(deadline=timezone.now() - by)
    escalation.refresh_from_db()
    return escalation


def prefer(user: User, **choices: bool) -> None:
    defaults = {
        "email_large_approval": False,
        "email_deadline_soon": False,
        "email_overdue": False,
        "browser_alerts": False,
    }
    notification_preference_set(user=user, **(defaults | choices))


def test_an_overdue_approval_is_mailed_to_the_managers_with_a_link(
    smtp: SmtpServer, manager: User, operator: User
) -> None:
    escalation = overdue(escalation_for())

    notifications_sweep()

    [mail] = smtp.messages
    assert mail["To"] == "lead@netshop.example"
    assert subject(mail) == "[NetShop] Approval overdue: Refund ¥12,800 on ORD-4003"
    body = mail.get_content()
    assert f"https://console.example.test/console/escalations/{escalation.pk}/" in body
    assert "¥12,800" in body
    assert smtp.to("op1@netshop.example") == []  # overdue mail is the managers'


def test_a_second_sweep_sends_nothing_more(smtp: SmtpServer, manager: User) -> None:
    overdue(escalation_for())
    notifications_sweep()

    notifications_sweep()

    assert len(smtp.messages) == 1
    assert Notification.objects.get().sent_at is not None


def test_two_sweeps_at_once_mail_each_manager_once(smtp: SmtpServer, manager: User) -> None:
    overdue(escalation_for())
    overdue(escalation_for())
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def sweep() -> None:
        try:
            start.wait()
            notifications_sweep()
        except BaseException as exc:  # reported below, in the main thread
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert failures == []
    assert len(smtp.messages) == 2  # one per escalation, not one per sweep
    assert Notification.objects.filter(sent_at__isnull=False).count() == 2


def test_a_task_delivered_twice_sends_once(smtp: SmtpServer, manager: User) -> None:
    overdue(escalation_for())
    notifications_sweep()
    row = Notification.objects.get()

    assert notification_send(notification_id=row.pk) is False
    assert len(smtp.messages) == 1


def test_a_manager_who_opted_out_gets_no_overdue_mail(smtp: SmtpServer, manager: User) -> None:
    prefer(manager, email_overdue=False, email_deadline_soon=True)
    overdue(escalation_for())

    notifications_sweep()

    assert smtp.messages == []
    assert not Notification.objects.exists()


def test_an_operator_cannot_opt_into_overdue_mail(smtp: SmtpServer, operator: User) -> None:
    prefer(operator, email_overdue=True)
    overdue(escalation_for())

    notifications_sweep()

    assert smtp.messages == []


def test_a_wait_near_its_deadline_is_mailed_to_whoever_holds_it(
    smtp: SmtpServer, settings: Any, manager: User, operator: User
) -> None:
    settings.NETSHOP_NOTIFY_DEADLINE_MINUTES = 30
    escalation = escalation_for()
    escalation_claim(escalation_id=escalation.pk, user=operator)
    Escalation.objects.filter(pk=escalation.pk).update(
        deadline=timezone.now() + timedelta(minutes=10)
    )

    notifications_sweep()

    [mail] = smtp.messages
    assert mail["To"] == "op1@netshop.example"
    assert subject(mail) == "[NetShop] Deadline near: Refund ¥12,800 on ORD-4003"


def test_a_wait_far_from_its_deadline_is_not_mailed(smtp: SmtpServer, operator: User) -> None:
    escalation_for()  # its deadline is hours away

    notifications_sweep()

    assert smtp.messages == []


def test_a_large_new_approval_is_mailed_when_it_opens(
    smtp: SmtpServer, settings: Any, manager: User, operator: User
) -> None:
    settings.NETSHOP_NOTIFY_APPROVAL_YEN = 12800

    escalation_for()  # a refund of ¥12,800: the event path, after commit

    [mail] = smtp.messages
    assert mail["To"] == "lead@netshop.example"  # operators have it off by default
    assert subject(mail) == "[NetShop] New approval of ¥12,800: Refund ¥12,800 on ORD-4003"
    notifications_sweep()
    assert len(smtp.messages) == 1


def test_an_approval_below_the_amount_is_not_mailed(
    smtp: SmtpServer, settings: Any, manager: User
) -> None:
    settings.NETSHOP_NOTIFY_APPROVAL_YEN = 12801

    escalation_for()
    notifications_sweep()

    assert smtp.messages == []


def test_an_operator_who_opted_in_gets_large_approvals(
    smtp: SmtpServer, settings: Any, operator: User
) -> None:
    settings.NETSHOP_NOTIFY_APPROVAL_YEN = 10000
    prefer(operator, email_large_approval=True)

    escalation_for()

    assert [m["To"] for m in smtp.messages] == ["op1@netshop.example"]


def test_mail_is_in_the_recipients_console_language(smtp: SmtpServer, manager: User) -> None:
    staff_preference_set(user=manager, language="ja", time_zone="Asia/Tokyo")
    overdue(escalation_for())

    notifications_sweep()

    [mail] = smtp.messages
    assert subject(mail) == "[NetShop] 期限切れの承認: ORD-4003 の ¥12,800 返金"
    assert mail["Content-Language"] == "ja"
    assert "12,800円" in mail.get_content()


def test_a_decided_escalation_is_not_mailed_about_its_deadline(
    smtp: SmtpServer, manager: User
) -> None:
    escalation = overdue(escalation_for())
    notifications_sweep()  # claimed and sent
    Notification.objects.all().delete()
    Escalation.objects.filter(pk=escalation.pk).update(status="decided")

    notifications_sweep()

    assert len(smtp.messages) == 1
    assert Notification.objects.filter(kind=NotificationKind.OVERDUE).count() == 0
