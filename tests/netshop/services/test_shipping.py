"""redelivery_arrange and delivery_date_change: the carrier's rules, once per operation id."""

from __future__ import annotations

import datetime as dt

import pytest

from netshop.adapters.carrier import get_carrier
from netshop.errors import DomainError, ExternalServiceError
from netshop.models import (
    CarrierBooking,
    DeliveryDateChange,
    Redelivery,
    Shipment,
    ShipmentStatus,
)
from netshop.services.shipping import (
    delivery_date_change,
    delivery_date_change_check,
    redelivery_arrange,
)
from netshop.shop_time import shop_today
from tests.factories import (
    ShipmentFactory,
    absent_returned_order,
    in_transit_order,
    out_for_delivery_order,
)

pytestmark = pytest.mark.django_db


def days(n: int) -> dt.date:
    return shop_today() + dt.timedelta(days=n)


def _redeliver(
    shipment: Shipment, slot_date: dt.date, window: str = "14-16", operation_id: str = "op-1"
) -> Redelivery:
    return redelivery_arrange(
        shipment=shipment,
        slot_date=slot_date,
        slot_window=window,
        operation_id=operation_id,
        actor="agent:shipping",
    )


def _change(shipment: Shipment, new_date: dt.date, operation_id: str = "op-1"):
    return delivery_date_change(
        shipment=shipment, new_date=new_date, operation_id=operation_id, actor="agent:shipping"
    )


def _state(shipment: Shipment) -> tuple[str, dt.date | None, int, int, int]:
    """Status, scheduled date, redeliveries, date changes, carrier bookings."""
    shipment.refresh_from_db()
    return (
        shipment.status,
        shipment.scheduled_date,
        Redelivery.objects.count(),
        DeliveryDateChange.objects.count(),
        CarrierBooking.objects.count(),
    )


# --- Redelivery -------------------------------------------------------------------------------


def test_redelivery_is_booked_with_the_carrier() -> None:
    shipment = absent_returned_order().shipment

    redelivery = _redeliver(shipment, days(1), "18-21")

    assert (redelivery.slot_date, redelivery.slot_window) == (days(1), "18-21")
    assert get_carrier().has_booking(redelivery.carrier_booking_id) is True
    assert _state(shipment) == (ShipmentStatus.ABSENT_RETURNED, days(1), 1, 0, 1)
    descriptions = [event.description for event in shipment.events.all()]
    assert descriptions[-1] == f"再配達受付 {days(1):%m/%d} 18-21 (redelivery booked)"


def test_redelivery_on_the_last_day_of_the_window() -> None:
    shipment = absent_returned_order().shipment

    redelivery = _redeliver(shipment, days(7))

    assert redelivery.slot_date == days(7)


@pytest.mark.parametrize("offset", [8, 0, -1])
def test_redelivery_outside_the_next_seven_days_is_refused(offset: int) -> None:
    shipment = absent_returned_order().shipment

    with pytest.raises(DomainError) as refused:
        _redeliver(shipment, days(offset))

    assert refused.value.code == "slot_out_of_range"
    assert refused.value.message == (
        f"slot date {days(offset)} must be between {days(1)} and {days(7)}"
    )
    assert _state(shipment) == (ShipmentStatus.ABSENT_RETURNED, days(-1), 0, 0, 0)


@pytest.mark.parametrize("window", ["10-12", "", "evening"])
def test_redelivery_in_an_unknown_time_window_is_refused(window: str) -> None:
    shipment = absent_returned_order().shipment

    with pytest.raises(DomainError) as refused:
        _redeliver(shipment, days(2), window)

    assert refused.value.code == "invalid_slot_window"
    assert _state(shipment) == (ShipmentStatus.ABSENT_RETURNED, days(-1), 0, 0, 0)


def test_redelivery_of_a_parcel_not_taken_back_is_refused() -> None:
    shipment = in_transit_order(scheduled_in_days=2).shipment

    with pytest.raises(DomainError) as refused:
        _redeliver(shipment, days(3))

    assert refused.value.code == "redelivery_not_allowed"
    assert "in_transit" in refused.value.message
    assert _state(shipment) == (ShipmentStatus.IN_TRANSIT, days(2), 0, 0, 0)


def test_same_operation_id_twice_books_one_redelivery() -> None:
    shipment = absent_returned_order().shipment

    first = _redeliver(shipment, days(2))
    second = _redeliver(shipment, days(2))

    assert second.pk == first.pk
    assert _state(shipment) == (ShipmentStatus.ABSENT_RETURNED, days(2), 1, 0, 1)


def test_carrier_failure_books_no_redelivery(faults) -> None:
    shipment = absent_returned_order().shipment
    faults.set(carrier={"fault_rate": 1, "kinds": ["timeout"]})

    with pytest.raises(ExternalServiceError) as failed:
        _redeliver(shipment, days(2))

    assert (failed.value.service, failed.value.kind) == ("carrier", "timeout")
    assert _state(shipment) == (ShipmentStatus.ABSENT_RETURNED, days(-1), 0, 0, 0)


# --- Delivery date change -----------------------------------------------------------------------


def test_date_change_moves_the_delivery_and_keeps_the_original_date() -> None:
    shipment = in_transit_order(scheduled_in_days=2).shipment

    change = _change(shipment, days(16))

    assert (change.previous_date, change.new_date) == (days(2), days(16))
    assert get_carrier().has_booking(change.carrier_booking_id) is True
    assert _state(shipment) == (ShipmentStatus.IN_TRANSIT, days(16), 0, 1, 1)
    assert shipment.original_scheduled_date == days(2)


def test_date_change_while_preparing_without_a_recorded_original_date() -> None:
    shipment = ShipmentFactory.create(
        status=ShipmentStatus.PREPARING, scheduled_date=days(3), original_scheduled_date=None
    )

    _change(shipment, days(5))

    shipment.refresh_from_db()
    assert (shipment.scheduled_date, shipment.original_scheduled_date) == (days(5), days(3))


def test_date_change_once_out_for_delivery_is_refused() -> None:
    shipment = out_for_delivery_order().shipment

    with pytest.raises(DomainError) as refused:
        _change(shipment, days(2))

    assert refused.value.code == "date_change_not_allowed"
    assert "out_for_delivery" in refused.value.message
    assert _state(shipment) == (ShipmentStatus.OUT_FOR_DELIVERY, days(0), 0, 0, 0)


@pytest.mark.parametrize("make", [out_for_delivery_order, absent_returned_order])
def test_a_parcel_past_its_date_change_is_refused_before_any_date(make) -> None:
    shipment = make().shipment

    with pytest.raises(DomainError) as refused:
        delivery_date_change_check(shipment=shipment)

    assert refused.value.code == "date_change_not_allowed"
    assert f"is {shipment.status}" in refused.value.message


def test_a_parcel_on_its_way_passes_the_date_change_check() -> None:
    delivery_date_change_check(shipment=in_transit_order(scheduled_in_days=2).shipment)


@pytest.mark.parametrize("offset", [17, -1])
def test_date_change_beyond_fourteen_days_or_into_the_past_is_refused(offset: int) -> None:
    shipment = in_transit_order(scheduled_in_days=2).shipment

    with pytest.raises(DomainError) as refused:
        _change(shipment, days(offset))

    assert refused.value.code == "date_out_of_range"
    assert refused.value.message == (
        f"new date {days(offset)} must be between {days(0)} and {days(16)} "
        f"(original date {days(2)})"
    )
    assert _state(shipment) == (ShipmentStatus.IN_TRANSIT, days(2), 0, 0, 0)


def test_repeated_changes_stay_within_fourteen_days_of_the_original_date() -> None:
    shipment = in_transit_order(scheduled_in_days=2).shipment
    _change(shipment, days(12), "op-1")

    with pytest.raises(DomainError) as refused:
        _change(shipment, days(20), "op-2")

    assert refused.value.code == "date_out_of_range"
    assert _state(shipment) == (ShipmentStatus.IN_TRANSIT, days(12), 0, 1, 1)


def test_date_change_to_the_same_date_is_refused() -> None:
    shipment = in_transit_order(scheduled_in_days=2).shipment

    with pytest.raises(DomainError) as refused:
        _change(shipment, days(2))

    assert refused.value.code == "date_unchanged"
    assert _state(shipment) == (ShipmentStatus.IN_TRANSIT, days(2), 0, 0, 0)


def test_same_operation_id_twice_changes_the_date_once() -> None:
    shipment = in_transit_order(scheduled_in_days=2).shipment

    first = _change(shipment, days(4))
    second = _change(shipment, days(4))

    assert second.pk == first.pk
    assert _state(shipment) == (ShipmentStatus.IN_TRANSIT, days(4), 0, 1, 1)
