"""Outcome verifiers (seed 002): a side effect counts only if the system of record shows it.

Given orders, refunds and carrier bookings made through the real services and simulators
(factories from tests/factories.py, real PostgreSQL), when ``outcome_checks`` is called
directly on a run's state, then each claimed side effect gets exactly one check: True when
the record shows it, False when it does not, None when the record could not be asked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from agents.team.handoffs.verifiers import outcome_checks
from netshop.adapters.carrier import get_carrier
from netshop.models import Order
from netshop.services.orders import order_cancel
from netshop.services.refunds import refund_create
from netshop.shop_time import shop_today
from tests.factories import absent_returned_order, cancelled_order, delivered_order, pending_order

pytestmark = pytest.mark.django_db

CHECKED_AT = dt.datetime(2026, 5, 13, 10, 30, tzinfo=dt.UTC)


def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the verifier looked is part of its answer; the clock is outside the product."""
    monkeypatch.setattr(timezone, "now", lambda: CHECKED_AT)


def check(verifier: str, result: bool | None) -> dict[str, Any]:
    return {"verifier": verifier, "result": result, "checked_at": "2026-05-13T10:30:00+00:00"}


def executed(kind: str, action_id: str, **params: Any) -> dict[str, Any]:
    return {"action_id": action_id, "kind": kind, "outcome": "executed", "params": params}


def refunded(order: Order, operation_id: str) -> None:
    refund_create(
        order=order, amount=1000, reason="damaged", operation_id=operation_id, actor="op1"
    )


def booked(order: Order, operation_id: str) -> str:
    return get_carrier().book_redelivery(
        tracking_number=order.shipment.tracking_number,
        slot_date=shop_today() + dt.timedelta(days=1),
        slot_window="14-16",
        idempotency_key=operation_id,
    )


# --- refunds and cancellations the run executed ---------------------------------------------

Setup = Callable[[Order], None]


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (lambda o: refunded(o, "op-r1"), True),
        (lambda o: None, False),  # claimed, but the gateway has no such refund
        (lambda o: refunded(o, "op-other"), False),  # a refund, but not this operation's
    ],
)
def test_a_refund_counts_only_if_the_gateway_has_it(
    monkeypatch: pytest.MonkeyPatch, record: Setup, expected: bool
) -> None:
    order = delivered_order()
    record(order)
    frozen_clock(monkeypatch)
    state = {"action_results": [executed("process_refund", "op-r1", order_number=order.number)]}

    checks = outcome_checks(state, customer_id=order.customer.code)

    assert checks == {"payment": [check("gateway_refund", expected)]}


def test_another_gateway_transaction_under_the_id_is_not_a_refund(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order = pending_order()
    order_cancel(order=order, operation_id="op-r1", actor="op1", reason="ordered twice")  # a void
    frozen_clock(monkeypatch)
    state = {"action_results": [executed("process_refund", "op-r1", order_number=order.number)]}

    checks = outcome_checks(state, customer_id=order.customer.code)

    assert checks == {"payment": [check("gateway_refund", False)]}


@pytest.mark.parametrize(
    ("make_order", "expected"),
    [(cancelled_order, True), (pending_order, False), (delivered_order, False)],
)
def test_a_cancellation_counts_only_if_the_order_is_cancelled(
    monkeypatch: pytest.MonkeyPatch, make_order: Callable[[], Order], expected: bool
) -> None:
    order = make_order()
    frozen_clock(monkeypatch)
    state = {"action_results": [executed("cancel_order", "op-c1", order_number=order.number)]}

    checks = outcome_checks(state, customer_id=order.customer.code)

    assert checks == {"order": [check("order_cancelled", expected)]}


def test_another_customers_cancelled_order_proves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    theirs, mine = cancelled_order(), pending_order()
    frozen_clock(monkeypatch)
    state = {"action_results": [executed("cancel_order", "op-c1", order_number=theirs.number)]}

    checks = outcome_checks(state, customer_id=mine.customer.code)

    assert checks == {"order": [check("order_cancelled", False)]}


@pytest.mark.parametrize("outcome", ["declined", "refused", "failed"])
def test_actions_that_did_not_execute_are_not_checked(outcome: str) -> None:
    result = {**executed("process_refund", "op-r1", order_number="ORD-1"), "outcome": outcome}

    assert outcome_checks({"action_results": [result]}, customer_id="C0001") == {}


def test_a_gateway_that_cannot_be_asked_gives_no_verdict(
    monkeypatch: pytest.MonkeyPatch, faults: Any
) -> None:
    order = delivered_order()
    refunded(order, "op-r1")
    faults.set(gateway={"fault_rate": 1, "kinds": ["timeout"], "operations": ["find_transaction"]})
    frozen_clock(monkeypatch)
    state = {"action_results": [executed("process_refund", "op-r1", order_number=order.number)]}

    checks = outcome_checks(state, customer_id=order.customer.code)

    assert checks == {"payment": [check("gateway_refund", None)]}


# --- carrier bookings the shipping agent reported -------------------------------------------


def shipping_reported(tool: str, key: str, booking_id: str) -> dict[str, Any]:
    data = {tool: {key: {"booking_id": booking_id}}}
    return {"envelopes": {"shipping": {"status": "success", "data": data}}}


@pytest.mark.parametrize(
    ("tool", "key"),
    [("arrange_redelivery", "redelivery"), ("change_delivery_date", "date_change")],
)
@pytest.mark.parametrize(("which", "expected"), [("the booking", True), ("another", False)])
def test_a_booking_counts_only_if_the_carrier_holds_it(
    monkeypatch: pytest.MonkeyPatch, tool: str, key: str, which: str, expected: bool
) -> None:
    order = absent_returned_order()
    booking_id = booked(order, "op-b1")
    frozen_clock(monkeypatch)
    reported = booking_id if which == "the booking" else f"{booking_id}-x"

    checks = outcome_checks(shipping_reported(tool, key, reported), customer_id="C0001")

    assert checks == {"shipping": [check(f"carrier_{tool}", expected)]}


def test_a_carrier_that_cannot_be_asked_gives_no_verdict(
    monkeypatch: pytest.MonkeyPatch, faults: Any
) -> None:
    faults.set(carrier={"fault_rate": 1, "kinds": ["server_error"], "operations": ["has_booking"]})
    frozen_clock(monkeypatch)
    state = shipping_reported("arrange_redelivery", "redelivery", "bk_1")

    checks = outcome_checks(state, customer_id="C0001")

    assert checks == {"shipping": [check("carrier_arrange_redelivery", None)]}


@pytest.mark.parametrize(
    "state",
    [
        {},
        {"envelopes": {"shipping": {"status": "success", "data": {"track_shipment": {}}}}},
        {"envelopes": {"shipping": {"status": "error"}}},
        shipping_reported("arrange_redelivery", "date_change", "bk_1"),  # the wrong key: no claim
    ],
)
def test_a_run_that_claims_no_side_effect_has_nothing_to_check(state: dict[str, Any]) -> None:
    assert outcome_checks(state, customer_id="C0001") == {}


def test_every_claim_of_a_run_is_checked_by_the_agent_that_owns_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    refunded_order, cancelled, parcel = (
        delivered_order(),
        cancelled_order(),
        absent_returned_order(),
    )
    refunded(refunded_order, "op-r1")
    booking_id = booked(parcel, "op-b1")
    frozen_clock(monkeypatch)
    state = {
        "action_results": [
            executed("process_refund", "op-r1", order_number=refunded_order.number),
            executed("cancel_order", "op-c1", order_number=cancelled.number),
        ],
        **shipping_reported("arrange_redelivery", "redelivery", booking_id),
    }

    # the refund and the booking are looked up by operation and booking id, the cancellation
    # by the customer's order: only the order's customer can be given
    checks = outcome_checks(state, customer_id=cancelled.customer.code)

    assert checks == {
        "payment": [check("gateway_refund", True)],
        "order": [check("order_cancelled", True)],
        "shipping": [check("carrier_arrange_redelivery", True)],
    }


# --- returns, exchanges and item changes ----------------------------------------------------


def test_a_return_counts_only_if_the_gateway_has_its_refund(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order = delivered_order()
    refunded(order, "op-ret1")
    frozen_clock(monkeypatch)
    state = {
        "action_results": [
            executed("return_items", "op-ret1", order_number=order.number),
            executed("return_items", "op-ret2", order_number=order.number),
        ]
    }

    checks = outcome_checks(state, customer_id=order.customer.code)

    assert checks == {"order": [check("gateway_refund", True), check("gateway_refund", False)]}


def test_an_exchange_counts_only_if_the_carrier_has_the_replacement_parcel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order = delivered_order()
    parcel = get_carrier().ship_parcel(order_number=order.number, idempotency_key="op-x1")
    frozen_clock(monkeypatch)
    shipped = executed("exchange_items", "op-x1", order_number=order.number)
    state = {
        "action_results": [
            shipped | {"booking_id": parcel.booking_id},
            shipped | {"booking_id": "bk_unknown"},
        ]
    }

    checks = outcome_checks(state, customer_id=order.customer.code)

    expected = [check("carrier_replacement", True), check("carrier_replacement", False)]
    assert checks == {"order": expected}


def test_an_item_change_counts_by_the_lowered_authorization_or_else_the_orders_total(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order = pending_order(authorized=3980)
    frozen_clock(monkeypatch)
    changed = executed("modify_order_items", "op-m1", order_number=order.number)
    state = {
        "action_results": [
            changed | {"authorization_adjusted": True, "new_total": 1980},
            changed | {"authorization_adjusted": False, "new_total": 3980},
        ]
    }

    checks = outcome_checks(state, customer_id=order.customer.code)

    assert checks == {
        "order": [
            check("gateway_authorization_adjusted", False),
            check("order_total_changed", True),
        ]
    }
