"""Reads for the operator console and its API: inquiries, escalations and console events.

Selectors return model instances; views decide how they are shown. Unknown and malformed
ids are the same "not found", so a bad id never becomes a 500.
"""

from __future__ import annotations

import base64
import binascii
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypedDict, Unpack

from django.db.models import Q, QuerySet
from django.utils import timezone

from agents.models import ConsoleEvent, Escalation, EscalationKind, EscalationStatus
from agents.support.conversations.selectors import uuid_or_none
from agents.support.vocabulary import Skill
from netshop.errors import DomainError
from netshop.models import Customer
from netshop.roles import Role, user_has_role

StatusFilter = Literal["open", "decided", "all"]
# The queue's orders: soonest deadline first, or the most yen at risk first (then deadline).
QueueOrder = Literal["deadline", "amount"]
QUEUE_ORDERS: tuple[QueueOrder, ...] = ("deadline", "amount")
_ORDER_BY: dict[str, tuple[str, ...]] = {
    "deadline": ("deadline", "created_at", "id"),
    "amount": ("-amount_at_risk", "deadline", "created_at", "id"),
}


class QueueFilters(TypedDict, total=False):
    """The queue's filters, named once for every read of the queue (the list, one row's
    live check, the next item): a kind, a reason, overdue or not, mine, nobody's, the
    managers' queue. ``_filtered`` applies them; an absent one filters nothing."""

    kind: str | None
    reason: str | None
    overdue: bool | None
    mine: bool
    unclaimed: bool
    managers: bool


@dataclass(frozen=True)
class EscalationSlice:
    items: list[Escalation]
    next_cursor: str | None


def escalation_get(*, escalation_id: object) -> Escalation:
    pk = uuid_or_none(escalation_id)
    queryset = Escalation.objects.select_related("claimed_by", "decided_by")
    escalation = queryset.filter(pk=pk).first() if pk else None
    if escalation is None:
        raise DomainError("escalation_not_found", variant="by_id", id=escalation_id)
    return escalation


def escalation_id_parse(value: object) -> uuid.UUID:
    """``value`` as an escalation id, or "not found" (the services expect a well-formed id)."""
    pk = uuid_or_none(value)
    if pk is None:
        raise DomainError("escalation_not_found", variant="by_id", id=value)
    return pk


def escalation_list(
    *,
    user: Any,
    status: StatusFilter = "open",
    order: QueueOrder = "deadline",
    limit: int = 50,
    cursor: str | None = None,
    **filters: Unpack[QueueFilters],
) -> EscalationSlice:
    """Escalations in ``order`` (by deadline, then age; or by amount at risk, largest first,
    then deadline and age); ``cursor`` continues after a previous slice of the same order."""
    queryset = _filtered(user=user, status=status, **filters).order_by(*_ORDER_BY[order])
    if cursor:
        queryset = queryset.filter(_after(cursor, order=order))
    rows = list(queryset[: limit + 1])
    items = rows[:limit]
    more = len(rows) > limit
    last = _cursor_of(items[-1], order=order) if more else None
    return EscalationSlice(items=items, next_cursor=last)


def escalation_next(
    *,
    user: Any,
    after: Escalation,
    order: QueueOrder = "deadline",
    **filters: Unpack[QueueFilters],
) -> Escalation | None:
    """The item an operator moves on to from ``after``: the next open escalation in the
    queue as they view it (its filters and ``order``) that nobody else holds, wrapping
    round to the top for the ones they passed over; ``None`` when none is left.

    A wait for a manager's second approval is left to managers: an operator cannot give it.
    """
    queryset = _filtered(user=user, status="open", **filters).filter(
        Q(claimed_by__isnull=True) | Q(claimed_by=user.pk)
    )
    queryset = queryset.exclude(pk=after.pk).order_by(*_ORDER_BY[order])
    if not user_has_role(user, Role.MANAGER):
        queryset = queryset.exclude(awaits_second_approval=True)
    following = queryset.filter(_after(_cursor_of(after, order=order), order=order)).first()
    return following or queryset.first()


def escalation_in_queue(
    *, escalation_id: object, user: Any, **filters: Unpack[QueueFilters]
) -> Escalation | None:
    """The escalation if the open queue, shown with these filters, holds it; else ``None``.

    A live update asks whether its row still belongs on a filtered page: the answer comes
    from the very filters ``escalation_list`` applies, in one query, so the two cannot drift.
    """
    pk = uuid_or_none(escalation_id)
    if pk is None:
        return None
    return _filtered(user=user, status="open", **filters).filter(pk=pk).first()


def _filtered(
    *,
    user: Any,
    status: StatusFilter,
    kind: str | None = None,
    reason: str | None = None,
    overdue: bool | None = None,
    mine: bool = False,
    unclaimed: bool = False,
    managers: bool = False,
) -> QuerySet[Escalation]:
    # The list shows neither actions nor package; they can be large, so they stay behind.
    queryset = (
        Escalation.objects.select_related("claimed_by", "decided_by")
        .defer("actions", "package")
        .order_by(*_ORDER_BY["deadline"])
    )
    if status != "all":
        queryset = queryset.filter(status=status)
    if kind:
        queryset = queryset.filter(kind=kind)
    if reason:
        queryset = queryset.filter(reason=reason)
    if overdue is not None:
        late = Q(status=EscalationStatus.OPEN, deadline__lt=timezone.now())
        queryset = queryset.filter(late if overdue else ~late)
    if mine:
        queryset = queryset.filter(claimed_by=user)
    if unclaimed:
        queryset = queryset.filter(claimed_by__isnull=True)
    if managers:  # past the deadline (whoever has taken it since), or four eyes waiting
        queryset = queryset.filter(Q(overdue_at__isnull=False) | Q(awaits_second_approval=True))
    return queryset


def _cursor_of(escalation: Escalation, *, order: QueueOrder = "deadline") -> str:
    """Where a slice in ``order`` ended; a cursor names its order unless it is by deadline
    (the first order, whose cursors stay as they were)."""
    key: list[Any] = [
        escalation.deadline.isoformat(),
        escalation.created_at.isoformat(),
        str(escalation.pk),
    ]
    if order == "amount":
        key = ["amount", escalation.amount_at_risk, *key]
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode().rstrip("=")


def _after(cursor: str, *, order: QueueOrder = "deadline") -> Q:
    """The rows after ``cursor`` in ``order``; a cursor of another order is refused."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        key = json.loads(raw)
        amount = None
        if order == "amount":
            named, amount, *key = key
            if named != "amount" or not isinstance(amount, int) or isinstance(amount, bool):
                raise ValueError("not an amount cursor")
        deadline, created_at, pk = key
        deadline, created_at = datetime.fromisoformat(deadline), datetime.fromisoformat(created_at)
        pk = uuid.UUID(pk)
        if deadline.tzinfo is None or created_at.tzinfo is None:
            raise ValueError("naive timestamp")
    except (binascii.Error, UnicodeDecodeError, TypeError, ValueError):
        raise DomainError("invalid_cursor") from None
    later = (
        Q(deadline__gt=deadline)
        | Q(deadline=deadline, created_at__gt=created_at)
        | Q(deadline=deadline, created_at=created_at, pk__gt=pk)
    )
    if amount is None:
        return later
    return Q(amount_at_risk__lt=amount) | (Q(amount_at_risk=amount) & later)


def console_events_after(*, after: int, limit: int = 200) -> list[ConsoleEvent]:
    """The live events numbered after ``after``, oldest first: what a console missed."""
    return list(ConsoleEvent.objects.filter(pk__gt=after).order_by("pk")[:limit])


def refunds_awaiting_approval(*, customer_code: str, order_number: str) -> list[dict[str, Any]]:
    """Refunds of ``order_number`` a person has not yet decided on, for the customer's own
    conversations: what "has my refund been processed?" hears besides the refunds made."""
    waiting = Escalation.objects.filter(
        status=EscalationStatus.OPEN,
        kind=EscalationKind.APPROVAL,
        inquiry__customer__code=customer_code,
    ).order_by("created_at", "id")
    found: list[dict[str, Any]] = []
    for escalation in waiting:
        for action in escalation.actions or []:
            params = action.get("params") or {}
            if action.get("kind") != Skill.PROCESS_REFUND:
                continue
            if params.get("order_number") == order_number:
                found.append(
                    {
                        "amount": params.get("amount"),
                        "requested_at": escalation.created_at.isoformat(),
                    }
                )
    return found


def review_next(*, user: Any, after: uuid.UUID | str | None = None) -> Escalation | None:
    """The next open review escalation for ``user`` (a reviewer's "save and next"): soonest
    deadline first, none held by someone else, not the one just reviewed."""
    queue = Escalation.objects.filter(
        Q(claimed_by__isnull=True) | Q(claimed_by=user.pk),
        kind=EscalationKind.REVIEW,
        status=EscalationStatus.OPEN,
    )
    if after is not None:
        queue = queue.exclude(pk=after)
    return queue.order_by("deadline", "created_at").first()


# The claim a follow-up records when a customer says a parcel never arrived
# (``refer_to_person``'s ``claim``, kept in the package's ``escalation.detail``).
NOT_ARRIVED_CLAIM = "not_arrived"


def parcel_claim_open(*, customer: Customer, order_number: str) -> Escalation | None:
    """The customer's open "never arrived" case on ``order_number`` (the oldest), or None.

    A person is checking with the carrier until the follow-up is decided: an answer about
    the parcel tells the customer so, never a bare "delivered" that ignores what they said.
    """
    detail = "package__escalation__detail__"
    claims = Escalation.objects.filter(
        status=EscalationStatus.OPEN,
        inquiry__customer=customer,
        **{f"{detail}order_number": order_number, f"{detail}claim": NOT_ARRIVED_CLAIM},
    )
    return claims.order_by("created_at").first()
