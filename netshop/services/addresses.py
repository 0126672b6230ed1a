"""Writes on a parcel's destination: the delivery address changed before the parcel leaves.

Allowed while the order is not yet shipped (pending, confirmed) or while the carrier says it
has not picked the parcel up (``preparing``); a parcel on its way or delivered is refused
with the reason. A labelled parcel is relabelled through the carrier adapter.
"""

from __future__ import annotations

from netshop.adapters.carrier import get_carrier
from netshop.addresses import JapaneseAddress
from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.errors import DomainError
from netshop.models import (
    AddressChange,
    Order,
    OrderStatus,
    Shipment,
    ShipmentEvent,
    ShipmentStatus,
)
from netshop.services.idempotency import run_once

# A shipped order counts only while the carrier still says the parcel is being prepared.
CHANGEABLE = (OrderStatus.PENDING, OrderStatus.CONFIRMED, OrderStatus.SHIPPED)


def shipping_address_change(
    *, order: Order, address: JapaneseAddress, operation_id: str, actor: str
) -> AddressChange:
    """Send ``order``'s parcel to ``address`` (already validated: ``address_validate``).

    Runs once per ``operation_id`` (also the carrier's idempotency key): a repeat returns the
    first change and relabels nothing.
    """
    return run_once(
        AddressChange,
        operation_id,
        same=lambda done: (
            (done.order_id, done.postal_code, done.prefecture, done.address_line)
            == (order.pk, address.postal_code, address.prefecture, address.address_line)
        ),
        lock=lambda: Order.objects.select_for_update().get(pk=order.pk),
        perform=lambda locked: _change(locked, address, operation_id, actor),
    )


def _change(order: Order, address: JapaneseAddress, operation_id: str, actor: str) -> AddressChange:
    shipment = Shipment.objects.filter(order=order).first()
    address_change_check(order=order, shipment=shipment)
    booking_id = ""
    if shipment is not None:
        booking_id = get_carrier().change_address(
            tracking_number=shipment.tracking_number, address=address, idempotency_key=operation_id
        )
        ShipmentEvent.objects.create(
            shipment=shipment,
            status=shipment.status,
            description=f"お届け先変更受付 〒{address.postal_code} (delivery address changed)",
        )
    change = AddressChange.objects.create(
        order=order,
        shipment=shipment,
        operation_id=operation_id,
        carrier_booking_id=booking_id,
        **address.as_dict(),
    )
    audit_record(
        action=AuditAction.SIDE_EFFECT_ADDRESS_CHANGE,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": order.number,
            "address_change_id": change.pk,
            # Where, not who lives there: the street stays out of the audit trail.
            "postal_code": address.postal_code,
            "prefecture": address.prefecture,
            "carrier_booking_id": booking_id,
        },
    )
    return change


def address_change_check(*, order: Order, shipment: Shipment | None = None) -> None:
    """Refuse unless the parcel is still with the shop, as the carrier reports it.

    The service checks again under the order's lock; callers check first to refuse a parcel
    on its way before asking anything about the new address.
    """
    shipment = shipment or Shipment.objects.filter(order=order).first()
    status = order.status
    if shipment is not None:
        tracked = get_carrier().track(shipment.tracking_number).status
        if tracked != ShipmentStatus.PREPARING:
            status = tracked
    elif order.status == OrderStatus.SHIPPED:
        status = ShipmentStatus.IN_TRANSIT
    if status not in CHANGEABLE:
        raise DomainError("address_change_not_allowed", order=order.number, status=status)
