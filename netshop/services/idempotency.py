"""Run a support action at most once per operation id.

The unique constraint on ``operation_id`` is the guarantee; the lookups here only turn a
repeat into the first call's answer instead of an error. A repeat that waited on the row
lock sees the first call's committed row; one that slipped past the lock (another row was
locked) trips the constraint and is answered the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, models, transaction

from netshop.errors import DomainError
from netshop.transactions import retry_conflicts

M = TypeVar("M", bound=models.Model)
L = TypeVar("L")


def find_done(model: type[M], operation_id: str, *, same: Callable[[M], bool]) -> M | None:
    """The row an earlier call with ``operation_id`` made, refusing one made for other things."""
    row = model._default_manager.filter(operation_id=operation_id).first()
    if row is not None and not same(row):
        raise DomainError(
            "operation_id_conflict",
            operation_id=operation_id,
            kind=model._meta.verbose_name,
            row=row,
        )
    return row


@retry_conflicts
def run_once(
    model: type[M],
    operation_id: str,
    *,
    same: Callable[[M], bool],
    lock: Callable[[], L],
    perform: Callable[[L], M],
) -> M:
    """``perform`` on the locked row inside one transaction, unless it already happened.

    The service boundary of every side effect (coupon, refund, cancellation, redelivery, date
    change): a deadlock or serialization failure runs it again, with the same operation id.
    """
    if not operation_id.strip():
        raise DomainError("operation_id_required")
    done = find_done(model, operation_id, same=same)
    if done is not None:
        return done
    try:
        with transaction.atomic():
            locked = lock()
            done = find_done(model, operation_id, same=same)
            return done if done is not None else perform(locked)
    except IntegrityError:
        done = find_done(model, operation_id, same=same)
        if done is None:
            raise
        return done
