"""``retry_conflicts``: a service PostgreSQL rolled back for a deadlock or a serialization
failure runs again, a bounded number of times, and nothing of a failed attempt survives.

The failures are real: PostgreSQL raises them (``RAISE ... USING ERRCODE``), so the test sees
exactly what Django hands the service when the deadlock detector picks it as the victim.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from django.db import IntegrityError, OperationalError, connection, transaction

from netshop import transactions
from netshop.models import Customer
from netshop.transactions import after_commit, retry_conflicts
from tests.factories import CustomerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _raise_in_postgres(errcode: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            f"DO $$ BEGIN RAISE EXCEPTION 'injected' USING ERRCODE = '{errcode}'; END $$"
        )


class FlakyService:
    """A service that writes a row and queues a side effect, then fails ``failures`` times."""

    def __init__(self, failures: int, errcode: str = "40P01") -> None:
        self.failures, self.errcode = failures, errcode
        self.calls = 0
        self.sent: list[int] = []
        self.service: Callable[[], Customer] = retry_conflicts(self._run)

    @transaction.atomic
    def _run(self) -> Customer:
        self.calls += 1
        customer = CustomerFactory.create(code=f"R{self.calls:04d}")
        after_commit(lambda: self.sent.append(customer.pk))
        if self.calls <= self.failures:
            _raise_in_postgres(self.errcode)
        return customer


@pytest.fixture
def delays(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setattr(transactions.time, "sleep", slept.append)
    return slept


@pytest.mark.parametrize("errcode", ["40P01", "40001"], ids=["deadlock", "serialization"])
def test_a_conflict_is_retried_and_only_the_last_attempt_remains(
    errcode: str, delays: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    flaky = FlakyService(failures=2, errcode=errcode)

    with caplog.at_level(logging.WARNING, logger="netshop.transactions"):
        customer = flaky.service()

    assert flaky.calls == 3
    assert list(Customer.objects.values_list("code", flat=True)) == ["R0003"] == [customer.code]
    assert flaky.sent == [customer.pk]  # the failed attempts' side effects never left
    assert len(delays) == 2
    assert all(0 <= d <= transactions.RETRY_MAX_DELAY_S for d in delays)
    assert [r.getMessage().split(":")[0] for r in caplog.records] == [
        "FlakyService._run",
        "FlakyService._run",
    ]


def test_retries_are_bounded(delays: list[float]) -> None:
    flaky = FlakyService(failures=99)

    with pytest.raises(OperationalError) as failed:
        flaky.service()

    assert transactions.is_retryable_conflict(failed.value)
    assert flaky.calls == transactions.RETRY_ATTEMPTS
    assert len(delays) == transactions.RETRY_ATTEMPTS - 1
    assert Customer.objects.count() == 0
    assert flaky.sent == []


def test_other_database_errors_are_not_retried(delays: list[float]) -> None:
    flaky = FlakyService(failures=1, errcode="23505")  # unique_violation: retrying won't help

    with pytest.raises(IntegrityError):
        flaky.service()

    assert (flaky.calls, delays, Customer.objects.count()) == (1, [], 0)


def test_inside_a_callers_transaction_the_error_goes_to_the_caller(delays: list[float]) -> None:
    flaky = FlakyService(failures=1)

    with pytest.raises(OperationalError), transaction.atomic():
        flaky.service()

    assert (flaky.calls, delays, Customer.objects.count()) == (1, [], 0)
