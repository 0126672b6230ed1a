"""coupon_cause_find: a coupon's cause comes from the delivery's record, never from the asking.

Pure: facts in, a named cause or a refusal out; no database.
"""

from __future__ import annotations

import datetime as dt

import pytest

from netshop.errors import DomainError
from netshop.services.coupon_causes import (
    Cause,
    CouponCause,
    DeliveryFacts,
    coupon_cause_find,
    delivery_cause,
)

TODAY = dt.date(2026, 12, 1)
SINCE = TODAY - dt.timedelta(days=30)


def day(offset: int) -> dt.date:
    return TODAY + dt.timedelta(days=offset)


def facts(status: str = "delivered", scheduled: int | None = -3, **more: object) -> DeliveryFacts:
    return DeliveryFacts(
        order_number=str(more.pop("number", "ORD-1")),
        status=status,
        scheduled_date=None if scheduled is None else day(scheduled),
        **more,  # type: ignore[arg-type]
    )


def find(*deliveries: DeliveryFacts, **options: object) -> Cause:
    return coupon_cause_find(
        deliveries=list(deliveries),
        today=TODAY,
        since=SINCE,
        compensated=options.get("compensated", {}),  # type: ignore[arg-type]
        has_expired_coupon=bool(options.get("has_expired_coupon", False)),
    )


def refusal(*deliveries: DeliveryFacts, **options: object) -> DomainError:
    with pytest.raises(DomainError) as refused:
        find(*deliveries, **options)
    return refused.value


# --- One delivery ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("delivery", "expected"),
    [
        (facts("delivered", -3, delivered_on=day(-1)), (CouponCause.DELIVERY_LATE, day(-1))),
        (facts("in_transit", -2), (CouponCause.DELIVERY_LATE, TODAY)),
        (facts("out_for_delivery", -1), (CouponCause.DELIVERY_LATE, TODAY)),
        (facts("absent_returned", -1, returned_on=day(-1)), (CouponCause.DELIVERY_MISSED, day(-1))),
        (facts("absent_returned", -2), (CouponCause.DELIVERY_MISSED, day(-2))),
        (
            facts("absent_returned", 1, returned_on=day(-4), redelivery_dates=(day(-2),)),
            (CouponCause.REDELIVERY_MISSED, day(-2)),
        ),
        (
            facts("delivered", -2, delivered_on=day(-1), redelivery_dates=(day(-2),)),
            (CouponCause.REDELIVERY_MISSED, day(-2)),
        ),
    ],
    ids=[
        "delivered-after-its-date",
        "still-in-transit-after-its-date",
        "out-for-delivery-after-its-date",
        "taken-back-to-the-depot",
        "taken-back-no-scan-date",
        "booked-redelivery-passed",
        "redelivered-after-the-booked-slot",
    ],
)
def test_a_delivery_the_shop_got_wrong_names_its_cause(
    delivery: DeliveryFacts, expected: tuple[CouponCause, dt.date]
) -> None:
    assert delivery_cause(delivery, today=TODAY) == Cause(expected[0], "ORD-1", expected[1])


@pytest.mark.parametrize(
    "delivery",
    [
        facts("delivered", -3, delivered_on=day(-3)),
        facts("delivered", -3, delivered_on=day(-4)),
        facts("in_transit", 0),
        facts("in_transit", 2),
        facts("preparing", 3),
        facts("delivered", None, delivered_on=day(-1)),
        facts("absent_returned", 1, returned_on=day(-1), redelivery_dates=(day(1),)),
        facts("delivered", 0, delivered_on=day(0), redelivery_dates=(day(0),)),
    ],
    ids=[
        "on-time",
        "early",
        "due-today",
        "due-later",
        "still-preparing",
        "no-promised-date",
        "redelivery-still-ahead-but-missed-first",
        "redelivered-on-the-slot",
    ],
)
def test_a_delivery_that_went_as_promised_names_no_lateness(delivery: DeliveryFacts) -> None:
    cause = delivery_cause(delivery, today=TODAY)

    # A parcel still at the depot is a missed delivery whatever its new slot; nothing else.
    expected = CouponCause.DELIVERY_MISSED if delivery.status == "absent_returned" else None
    assert (cause.cause if cause else None) == expected


# --- Choosing among orders, and the refusals ------------------------------------------------


def test_the_first_recent_uncompensated_cause_is_chosen() -> None:
    on_time = facts("delivered", -3, delivered_on=day(-3), number="ORD-A")
    compensated = facts("absent_returned", -1, number="ORD-B")
    late = facts("in_transit", -1, number="ORD-C")

    cause = find(on_time, compensated, late, compensated={"ORD-B": False})

    assert cause == Cause(CouponCause.DELIVERY_LATE, "ORD-C", TODAY)


def test_a_cause_older_than_the_window_does_not_count() -> None:
    old = facts("delivered", -40, delivered_on=day(-31))

    assert refusal(old).code == "coupon_no_cause"


def test_a_cause_on_the_first_day_of_the_window_counts() -> None:
    cause = find(facts("delivered", -40, delivered_on=SINCE))

    assert cause.on == SINCE


def test_no_trouble_on_record_is_refused_whatever_the_customer_says() -> None:
    refused = refusal(facts("delivered", -3, delivered_on=day(-3)), facts("in_transit", 2))

    assert (refused.code, refused.message) == (
        "coupon_no_cause",
        "the shop's records show no late, missed or failed delivery to apologise for",
    )


def test_no_orders_at_all_is_refused() -> None:
    assert refusal().code == "coupon_no_cause"


def test_a_cause_already_compensated_is_not_compensated_again() -> None:
    refused = refusal(facts("absent_returned", -1), compensated={"ORD-1": False})

    assert (refused.code, refused.message) == (
        "coupon_cause_compensated",
        "a coupon was already given for ORD-1",
    )


def test_a_coupon_for_a_cause_that_expired_is_not_reissued() -> None:
    refused = refusal(facts("absent_returned", -1), compensated={"ORD-1": True})

    assert refused.code == "coupon_expired_not_reissued"


def test_asking_again_after_a_coupon_expired_without_new_trouble_is_not_a_reissue() -> None:
    refused = refusal(facts("delivered", -3, delivered_on=day(-3)), has_expired_coupon=True)

    assert refused.code == "coupon_expired_not_reissued"


def test_new_trouble_earns_a_coupon_even_after_an_old_one_expired() -> None:
    cause = find(facts("absent_returned", -1), has_expired_coupon=True)

    assert cause.cause == CouponCause.DELIVERY_MISSED
