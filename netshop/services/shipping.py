"""Writes on shipments: redelivery after an absent-returned attempt, and date changes."""

from __future__ import annotations

import datetime as dt

from netshop.adapters.carrier import get_carrier
from netshop.audit import AuditAction, audit_record, inquiry_id_from_ref
from netshop.models import DeliveryDateChange, Redelivery, Shipment, ShipmentEvent
from netshop.services.idempotency import run_once
from netshop.services.policy_checks import (
    date_change_checks,
    date_changeable_check,
    raise_first_failure,
    redelivery_checks,
)


def redelivery_arrange(
    *, shipment: Shipment, slot_date: dt.date, slot_window: str, operation_id: str, actor: str
) -> Redelivery:
    """Book a redelivery slot for a parcel the driver took back to the depot.

    Runs once per ``operation_id`` (also the carrier's idempotency key). The shipment keeps
    its ``absent_returned`` status, as it is still at the depot; its scheduled date moves.
    """
    return run_once(
        Redelivery,
        operation_id,
        same=lambda done: (
            (done.shipment_id, done.slot_date, done.slot_window)
            == (shipment.pk, slot_date, slot_window)
        ),
        lock=lambda: _lock(shipment),
        perform=lambda locked: _redeliver(locked, slot_date, slot_window, operation_id, actor),
    )


def delivery_date_change(
    *, shipment: Shipment, new_date: dt.date, operation_id: str, actor: str
) -> DeliveryDateChange:
    """Move a delivery that is not yet out for delivery to a date near the original one.

    Runs once per ``operation_id`` (also the carrier's idempotency key). The first promised
    date is kept in ``original_scheduled_date`` so repeated changes cannot drift away from it.
    """
    return run_once(
        DeliveryDateChange,
        operation_id,
        same=lambda done: (done.shipment_id, done.new_date) == (shipment.pk, new_date),
        lock=lambda: _lock(shipment),
        perform=lambda locked: _change_date(locked, new_date, operation_id, actor),
    )


def delivery_date_change_check(*, shipment: Shipment) -> None:
    """Refuse unless the parcel's date can still change, before any date is weighed.

    The service checks again under the shipment's lock; callers check first so that a parcel
    already out for delivery is refused with the reason, not met with a question for a date.
    """
    raise_first_failure([date_changeable_check(shipment=shipment)])


def _lock(shipment: Shipment) -> Shipment:
    return Shipment.objects.select_for_update().get(pk=shipment.pk)


def _redeliver(
    shipment: Shipment, slot_date: dt.date, slot_window: str, operation_id: str, actor: str
) -> Redelivery:
    checks = redelivery_checks(shipment=shipment, slot_date=slot_date, slot_window=slot_window)
    raise_first_failure(checks)
    booking_id = get_carrier().book_redelivery(
        tracking_number=shipment.tracking_number,
        slot_date=slot_date,
        slot_window=slot_window,
        idempotency_key=operation_id,
    )
    shipment.scheduled_date = slot_date
    shipment.save(update_fields=["scheduled_date"])
    ShipmentEvent.objects.create(
        shipment=shipment,
        status=shipment.status,
        description=f"再配達受付 {slot_date:%m/%d} {slot_window} (redelivery booked)",
    )
    redelivery = Redelivery.objects.create(
        shipment=shipment,
        operation_id=operation_id,
        slot_date=slot_date,
        slot_window=slot_window,
        carrier_booking_id=booking_id,
    )
    audit_record(
        action=AuditAction.SIDE_EFFECT_REDELIVERY,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": shipment.order.number,
            "redelivery_id": redelivery.pk,
            "tracking_number": shipment.tracking_number,
            "slot_date": slot_date,
            "slot_window": slot_window,
            "carrier_booking_id": booking_id,
        },
    )
    return redelivery


def _change_date(
    shipment: Shipment, new_date: dt.date, operation_id: str, actor: str
) -> DeliveryDateChange:
    raise_first_failure(date_change_checks(shipment=shipment, new_date=new_date))
    booking_id = get_carrier().change_delivery_date(
        tracking_number=shipment.tracking_number, new_date=new_date, idempotency_key=operation_id
    )
    previous_date = shipment.scheduled_date
    shipment.original_scheduled_date = shipment.original_scheduled_date or previous_date
    shipment.scheduled_date = new_date
    shipment.save(update_fields=["scheduled_date", "original_scheduled_date"])
    change = DeliveryDateChange.objects.create(
        shipment=shipment,
        operation_id=operation_id,
        previous_date=previous_date,
        new_date=new_date,
        carrier_booking_id=booking_id,
    )
    audit_record(
        action=AuditAction.SIDE_EFFECT_DATE_CHANGE,
        actor=actor,
        inquiry_id=inquiry_id_from_ref(operation_id),
        operation_id=operation_id,
        data={
            "order": shipment.order.number,
            "date_change_id": change.pk,
            "tracking_number": shipment.tracking_number,
            "previous_date": previous_date,
            "new_date": new_date,
            "carrier_booking_id": booking_id,
        },
    )
    return change
