"""The audit lock is taken last: a writer never holds it while it waits for a business row.

Given a transaction that holds a business row and will audit next (as ``coupon_issue`` locks
the customer, then appends its entry), when another transaction writes a row that refers to
the same customer and audits too (an intake), then the second one waits for the customer
*before* it takes the audit lock, so the first gets the audit lock at once and both commit.
Before this order was kept, the intake held the audit lock and only needed the customer at
commit (the deferred foreign-key check): PostgreSQL found a deadlock and one of them failed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

from agents.models import Inquiry
from agents.support.conversations.intake import inquiry_create
from netshop.audit import audit_verify
from netshop.audit.services import ADVISORY_LOCK_KEY
from netshop.models import Customer
from tests.factories import CustomerFactory
from tests.support.workers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def other_session() -> Iterator[psycopg.Connection[Any]]:
    """A second database session, as another web or worker process would have."""
    db = connection.settings_dict
    with psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"] or "postgres",
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
    ) as session:
        yield session


def _waiting_backends(exclude: int) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> %s",
            [exclude],
        )
        return [row[0] for row in cursor.fetchall()]


def _audit_lock_holders() -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            # This database's only: advisory keys are per database, and other test runs on the
            # same server take the same key in theirs.
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND ((classid::bigint << 32) | objid::bigint) = %s",
            [ADVISORY_LOCK_KEY],
        )
        return [row[0] for row in cursor.fetchall()]


def test_an_intake_waits_for_a_locked_customer_before_it_takes_the_audit_lock(
    other_session: psycopg.Connection[Any],
) -> None:
    customer = CustomerFactory.create()
    table = Customer._meta.db_table
    other_session.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR UPDATE", [customer.pk])  # noqa: S608
    other_pid = other_session.info.backend_pid
    outcome: dict[str, Any] = {}

    def intake() -> None:
        try:
            outcome["inquiry"] = inquiry_create(
                customer=customer, text="届いていません", start=False
            )
        except BaseException as exc:  # reported to the test's thread
            outcome["error"] = exc
        finally:
            connection.close()

    writer = threading.Thread(target=intake)
    writer.start()
    wait_until(lambda: _waiting_backends(exclude=other_pid), timeout=30)

    held_while_waiting = _audit_lock_holders()
    other_session.execute("SELECT pg_advisory_xact_lock(%s)", [ADVISORY_LOCK_KEY])
    other_session.commit()
    writer.join(timeout=60)

    assert held_while_waiting == []
    assert "error" not in outcome
    assert Inquiry.objects.filter(pk=outcome["inquiry"].pk, customer=customer).exists()
    report = audit_verify()
    assert (report.ok, report.entries) == (True, 2)  # received, and its first message
