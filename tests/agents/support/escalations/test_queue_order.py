"""The queue's two orders and the item an operator moves on to (issue 26, triage flow).

Given open escalations with different amounts at risk and deadlines, when the queue is read
by deadline or by amount, then each order pages through every row once with its own cursor
and refuses the other's; and when an operator is done with one, the next item is the next
in the order they use that nobody else holds, wrapping round, and none when none is left.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agents.models import Escalation
from agents.support.escalations.claims import escalation_claim
from agents.support.escalations.selectors import escalation_list, escalation_next
from agents.support.escalations.services import escalation_decide
from netshop.errors import DomainError
from netshop.roles import Role
from tests.operators.api_helpers import refund_escalation, staff_user

pytestmark = pytest.mark.django_db


def waiting(amount: int, minutes: int) -> Escalation:
    """A refund of ``amount`` yen whose deadline is ``minutes`` from now."""
    escalation = refund_escalation(amount)
    escalation.deadline = timezone.now() + timedelta(minutes=minutes)
    escalation.save(update_fields=["deadline"])
    return escalation


@pytest.fixture
def me() -> User:
    return staff_user("me", Role.OPERATOR)


@pytest.fixture
def four(me: User) -> dict[str, Escalation]:
    return {
        "small_soon": waiting(1000, 10),
        "large_late": waiting(20000, 90),
        "middle_soon": waiting(5000, 20),
        "large_soon": waiting(20000, 30),
    }


def ids(escalations: list[Escalation]) -> list[object]:
    return [e.pk for e in escalations]


def test_by_amount_the_largest_comes_first_then_the_soonest_deadline(
    me: User, four: dict[str, Escalation]
) -> None:
    page = escalation_list(user=me, order="amount")

    assert ids(page.items) == ids(
        [four["large_soon"], four["large_late"], four["middle_soon"], four["small_soon"]]
    )
    assert page.next_cursor is None


def test_by_deadline_is_still_the_default(me: User, four: dict[str, Escalation]) -> None:
    page = escalation_list(user=me)

    assert ids(page.items) == ids(
        [four["small_soon"], four["middle_soon"], four["large_soon"], four["large_late"]]
    )


@pytest.mark.parametrize("order", ["deadline", "amount"])
def test_each_order_pages_through_every_row_once_with_its_own_cursor(
    me: User, four: dict[str, Escalation], order: str
) -> None:
    whole = escalation_list(user=me, order=order)  # type: ignore[arg-type]
    seen: list[Escalation] = []
    cursor = None
    for _ in range(4):
        page = escalation_list(user=me, order=order, limit=1, cursor=cursor)  # type: ignore[arg-type]
        seen += page.items
        cursor = page.next_cursor
        if cursor is None:
            break

    assert ids(seen) == ids(whole.items)
    assert cursor is None


def test_a_cursor_of_one_order_is_refused_by_the_other(
    me: User, four: dict[str, Escalation]
) -> None:
    by_amount = escalation_list(user=me, order="amount", limit=1).next_cursor
    by_deadline = escalation_list(user=me, order="deadline", limit=1).next_cursor

    with pytest.raises(DomainError) as wrong_for_deadline:
        escalation_list(user=me, order="deadline", cursor=by_amount)
    with pytest.raises(DomainError) as wrong_for_amount:
        escalation_list(user=me, order="amount", cursor=by_deadline)

    assert wrong_for_deadline.value.code == "invalid_cursor"
    assert wrong_for_amount.value.code == "invalid_cursor"


def test_the_next_item_follows_the_order_in_use(me: User, four: dict[str, Escalation]) -> None:
    after_deadline = escalation_next(user=me, after=four["middle_soon"], order="deadline")
    after_amount = escalation_next(user=me, after=four["middle_soon"], order="amount")

    assert after_deadline == four["large_soon"]
    assert after_amount == four["small_soon"]


def test_the_next_item_skips_one_held_by_someone_else_not_my_own(
    me: User, four: dict[str, Escalation]
) -> None:
    other = staff_user("other", Role.OPERATOR)
    escalation_claim(escalation_id=four["middle_soon"].pk, user=other)
    escalation_claim(escalation_id=four["large_soon"].pk, user=me)

    following = escalation_next(user=me, after=four["small_soon"], order="deadline")

    assert following == four["large_soon"]


def test_the_next_item_wraps_round_to_the_ones_passed_over(
    me: User, four: dict[str, Escalation]
) -> None:
    following = escalation_next(user=me, after=four["large_late"], order="deadline")

    assert following == four["small_soon"]


def test_the_next_item_keeps_the_queues_filters(me: User, four: dict[str, Escalation]) -> None:
    escalation_claim(escalation_id=four["large_late"].pk, user=me)

    following = escalation_next(user=me, after=four["small_soon"], order="deadline", mine=True)

    assert following == four["large_late"]


def test_after_the_last_decision_there_is_no_next_item(me: User) -> None:
    only = waiting(1000, 10)
    held = waiting(2000, 20)
    escalation_claim(escalation_id=held.pk, user=staff_user("other", Role.OPERATOR))
    escalation_decide(escalation_id=only.pk, user=me, decision="approve")

    assert escalation_next(user=me, after=only, order="deadline") is None


def test_a_wait_for_a_managers_second_approval_is_no_next_item_for_an_operator(me: User) -> None:
    current = waiting(1000, 10)
    awaiting = waiting(2000, 20)
    Escalation.objects.filter(pk=awaiting.pk).update(awaits_second_approval=True)
    manager = staff_user("boss", Role.MANAGER)

    assert escalation_next(user=me, after=current, order="deadline") is None
    assert escalation_next(user=manager, after=current, order="deadline") == awaiting
