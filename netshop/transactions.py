"""The one way side effects leave a transaction: after it commits.

Celery kick-offs, channel-layer sends and run resumptions all go through ``after_commit`` so
that nobody hears of a row that a rollback later erases.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction


def after_commit(callback: Callable[[], object]) -> None:
    """Run ``callback`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(callback, robust=True)
