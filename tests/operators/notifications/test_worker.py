"""The production path of a mail: beat's sweep hands it to a Celery worker, which sends it.

Given a real worker on the test Redis and a local SMTP server, when an approval is overdue
and the sweep runs (twice, as two beats would), then the manager's mail arrives once, from the
worker, with the escalation's link.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agents.models import Escalation
from operators.models import Notification
from operators.notifications.services import notifications_sweep
from tests.operators.api_helpers import escalation_for
from tests.support.smtp_server import SmtpServer
from tests.support.workers import Worker, running_workers, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def mailing_worker(smtp: SmtpServer) -> Iterator[Worker]:
    env = {
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp.port),
        "EMAIL_USE_TLS": "0",
        "NETSHOP_CONSOLE_URL": "https://console.example.test",
    }
    with running_workers(1, env=env) as [started]:
        yield started


def test_an_overdue_approval_is_mailed_by_the_worker_once(
    smtp: SmtpServer, manager: User, mailing_worker: Worker
) -> None:
    escalation = escalation_for()
    Escalation.objects.filter(pk=escalation.pk).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )

    notifications_sweep()
    notifications_sweep()

    wait_until(lambda: Notification.objects.filter(sent_at__isnull=False).exists(), timeout=60)
    wait_until(lambda: len(smtp.messages) >= 1, timeout=10)
    [mail] = smtp.messages
    assert mail["To"] == "lead@netshop.example"
    assert f"https://console.example.test/console/escalations/{escalation.pk}/" in (
        mail.get_content()
    )
