"""shipping_address_change: before the parcel leaves, through the carrier, once per operation."""

from __future__ import annotations

import pytest

from netshop.addresses import JapaneseAddress
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.models import AddressChange, CarrierBooking, OrderStatus, ShipmentStatus
from netshop.services.addresses import shipping_address_change
from tests.factories import (
    ShipmentFactory,
    confirmed_order,
    delivered_order,
    in_transit_order,
    pending_order,
)

pytestmark = pytest.mark.django_db

GINZA = JapaneseAddress("104-0061", "東京都", "中央区銀座1-2-3")
UMEDA = JapaneseAddress("530-0001", "大阪府", "大阪市北区梅田1-1")


def _change(order, address=GINZA, operation_id="inq:change_shipping_address:1"):
    return shipping_address_change(
        order=order, address=address, operation_id=operation_id, actor="agent:shipping"
    )


def test_a_labelled_parcel_not_picked_up_is_relabelled_through_the_carrier() -> None:
    order = confirmed_order()
    shipment = ShipmentFactory.create(order=order, status=ShipmentStatus.PREPARING)

    change = _change(order)

    assert (change.postal_code, change.prefecture, change.address_line) == (
        "104-0061",
        "東京都",
        "中央区銀座1-2-3",
    )
    booking = CarrierBooking.objects.get()
    assert (booking.kind, booking.tracking_number) == ("address_change", shipment.tracking_number)
    assert change.carrier_booking_id == booking.booking_id
    descriptions = [event.description for event in shipment.events.all()]
    assert descriptions[-1] == "お届け先変更受付 〒104-0061 (delivery address changed)"
    audit = AuditEntry.objects.get(action="side_effect.address_change")
    assert audit.data["postal_code"] == "104-0061"
    assert "中央区銀座1-2-3" not in str(audit.data)  # the street stays out of the audit trail


def test_a_pending_order_without_a_parcel_changes_without_the_carrier() -> None:
    order = pending_order()

    change = _change(order)

    assert change.shipment is None
    assert change.carrier_booking_id == ""
    assert CarrierBooking.objects.count() == 0


def test_the_same_operation_twice_changes_once() -> None:
    order = confirmed_order()
    ShipmentFactory.create(order=order, status=ShipmentStatus.PREPARING)

    first = _change(order)
    second = _change(order)

    assert first.pk == second.pk
    assert (AddressChange.objects.count(), CarrierBooking.objects.count()) == (1, 1)


def test_an_operation_id_reused_for_another_address_is_refused() -> None:
    order = pending_order()
    _change(order)

    with pytest.raises(DomainError) as refused:
        _change(order, UMEDA)

    assert refused.value.code == "operation_id_conflict"
    assert AddressChange.objects.count() == 1


@pytest.mark.parametrize("make", [in_transit_order, delivered_order])
def test_a_parcel_on_its_way_or_delivered_is_refused_and_nothing_changes(make) -> None:
    order = make()

    with pytest.raises(DomainError) as refused:
        _change(order)

    assert refused.value.code == "address_change_not_allowed"
    assert order.number in refused.value.message
    assert (AddressChange.objects.count(), CarrierBooking.objects.count()) == (0, 0)


def test_a_cancelled_order_is_refused() -> None:
    order = pending_order(status=OrderStatus.CANCELLED)

    with pytest.raises(DomainError) as refused:
        _change(order)

    assert "is cancelled" in refused.value.message
    assert AddressChange.objects.count() == 0
