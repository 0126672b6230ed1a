"""Transactions at the service boundary: side effects leave after commit, and a transaction
PostgreSQL rolled back for a deadlock or serialization failure runs again (a few times).

Celery kick-offs, channel-layer sends and run resumptions all go through ``after_commit`` so
that nobody hears of a row that a rollback later erases.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import DatabaseError, connection, transaction

P = ParamSpec("P")
R = TypeVar("R")

logger = logging.getLogger(__name__)


def after_commit(callback: Callable[[], object]) -> None:
    """Run ``callback`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(callback, robust=True)


# SQLSTATEs after which PostgreSQL has rolled the whole transaction back and running it again
# may succeed: deadlock_detected and serialization_failure.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})
RETRY_ATTEMPTS = 4
RETRY_BASE_DELAY_S = 0.02
RETRY_MAX_DELAY_S = 0.5


def is_retryable_conflict(exc: BaseException) -> bool:
    """Whether ``exc`` is a deadlock or serialization failure (Django wraps psycopg's error)."""
    seen: BaseException | None = exc
    while seen is not None:
        if getattr(seen, "sqlstate", None) in RETRYABLE_SQLSTATES:
            return True
        seen = seen.__cause__
    return False


def retry_conflicts(function: Callable[P, R]) -> Callable[P, R]:
    """Run a service again when PostgreSQL rolled it back for a deadlock or serialization
    failure: a bounded number of attempts, jittered exponential back-off, each retry logged.

    For the outermost transaction only (the service boundary): inside a caller's atomic block
    the whole transaction is lost, so the error goes up to whoever owns it. Safe because
    nothing of the failed attempt survived: its rows are rolled back, its ``after_commit``
    callbacks dropped, and external calls carry the operation id as idempotency key.
    """

    @functools.wraps(function)
    def attempt(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.in_atomic_block:
            return function(*args, **kwargs)
        for tries in range(1, RETRY_ATTEMPTS + 1):
            try:
                return function(*args, **kwargs)
            except DatabaseError as exc:
                if tries == RETRY_ATTEMPTS or not is_retryable_conflict(exc):
                    raise
                delay = random.uniform(0, min(RETRY_MAX_DELAY_S, RETRY_BASE_DELAY_S * 2**tries))  # noqa: S311
                logger.warning(
                    "%s: %s, attempt %d of %d; again in %.3fs",
                    function.__qualname__,
                    str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                    tries,
                    RETRY_ATTEMPTS,
                    delay,
                )
                time.sleep(delay)
        raise AssertionError("unreachable")  # the loop returns or raises

    return attempt
