"""The delivery carrier: an interface a real provider can implement, and the built-in simulator.

The simulator answers tracking from the shop's ``Shipment`` rows and keeps its bookings
(redeliveries, date changes and address changes) in ``CarrierBooking`` rows, one per
idempotency key: a key it has seen returns the first booking and books nothing new, as a
real carrier API would.
Like the gateway simulator, its rows share the caller's transaction (see ``gateway``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from typing import Any, NamedTuple, Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from netshop.adapters.faults import FaultInjector, configured_adapter
from netshop.adapters.place_names import place_name_en
from netshop.addresses import JapaneseAddress
from netshop.errors import ExternalServiceError
from netshop.models import CarrierBooking, Shipment, ShipmentStatus

SERVICE = "carrier"


class TrackingEvent(NamedTuple):
    """One scan: when, the status it moved the parcel to, where (and the place's English
    name, ``""`` if it has none), and the carrier's wording."""

    time: dt.datetime
    status: str
    location: str
    description: str
    location_en: str = ""


@dataclasses.dataclass(frozen=True)
class TrackingInfo:
    """A parcel's tracking as the carrier reports it; events oldest first."""

    tracking_number: str
    carrier: str
    status: str
    scheduled_date: dt.date | None
    events: list[TrackingEvent]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-safe form, for agent tools and API answers."""
        return {
            "tracking_number": self.tracking_number,
            "carrier": self.carrier,
            "status": self.status,
            "scheduled_date": self.scheduled_date.isoformat() if self.scheduled_date else None,
            "events": [
                {**event._asdict(), "time": event.time.isoformat()} for event in self.events
            ],
        }


class ParcelBooking(NamedTuple):
    """A parcel the carrier will pick up: its booking and the number it is tracked by."""

    booking_id: str
    tracking_number: str


class Carrier(Protocol):
    """Tracking, redelivery, date and address change: what support needs from a carrier."""

    def track(self, tracking_number: str) -> TrackingInfo: ...

    def book_redelivery(
        self, *, tracking_number: str, slot_date: dt.date, slot_window: str, idempotency_key: str
    ) -> str: ...

    def change_delivery_date(
        self, *, tracking_number: str, new_date: dt.date, idempotency_key: str
    ) -> str: ...

    def change_address(
        self, *, tracking_number: str, address: JapaneseAddress, idempotency_key: str
    ) -> str: ...

    def has_booking(self, booking_id: str) -> bool: ...

    def ship_parcel(self, *, order_number: str, idempotency_key: str) -> ParcelBooking: ...


class CarrierSimulator:
    """A database-backed carrier with latency, faults and idempotency keys."""

    def __init__(self, faults: FaultInjector | None = None) -> None:
        self._faults = faults or FaultInjector(SERVICE)

    def track(self, tracking_number: str) -> TrackingInfo:
        """Where the parcel is, its scans, and the day it is due."""
        self._faults.before("track")
        shipment = _shipment(tracking_number)
        events = [
            TrackingEvent(
                e.occurred_at, e.status, e.location, e.description, place_name_en(e.location)
            )
            for e in shipment.events.all()
        ]
        return TrackingInfo(
            tracking_number=shipment.tracking_number,
            carrier=shipment.carrier,
            status=shipment.status,
            scheduled_date=shipment.scheduled_date,
            events=events,
        )

    def book_redelivery(
        self, *, tracking_number: str, slot_date: dt.date, slot_window: str, idempotency_key: str
    ) -> str:
        """Book a new delivery slot for a parcel taken back to the depot; returns the booking id."""
        self._faults.before("book_redelivery")
        return self._book(
            kind=CarrierBooking.Kind.REDELIVERY,
            tracking_number=tracking_number,
            delivery_date=slot_date,
            slot_window=slot_window,
            idempotency_key=idempotency_key,
        )

    def change_delivery_date(
        self, *, tracking_number: str, new_date: dt.date, idempotency_key: str
    ) -> str:
        """Move a parcel's delivery to ``new_date``; returns the booking id."""
        self._faults.before("change_delivery_date")
        return self._book(
            kind=CarrierBooking.Kind.DATE_CHANGE,
            tracking_number=tracking_number,
            delivery_date=new_date,
            slot_window="",
            idempotency_key=idempotency_key,
        )

    def change_address(
        self, *, tracking_number: str, address: JapaneseAddress, idempotency_key: str
    ) -> str:
        """Relabel a parcel not yet picked up for ``address``; returns the booking id.

        A parcel already picked up is refused (``not_allowed``), as a carrier would.
        """
        self._faults.before("change_address")
        seen = CarrierBooking.objects.filter(idempotency_key=idempotency_key).first()
        if seen is None and _shipment(tracking_number).status != ShipmentStatus.PREPARING:
            raise ExternalServiceError(SERVICE, "not_allowed", f"{tracking_number} was picked up")
        return self._book(
            kind=CarrierBooking.Kind.ADDRESS_CHANGE,
            tracking_number=tracking_number,
            delivery_date=None,
            slot_window="",
            idempotency_key=idempotency_key,
        )

    def has_booking(self, booking_id: str) -> bool:
        """Whether the carrier holds this booking (what outcome checks ask)."""
        self._faults.before("has_booking")
        return CarrierBooking.objects.filter(booking_id=booking_id).exists()

    def ship_parcel(self, *, order_number: str, idempotency_key: str) -> ParcelBooking:
        """Book a new parcel for an order (an exchange's replacement). A seen key returns
        the first parcel."""
        self._faults.before("ship_parcel")
        seen = CarrierBooking.objects.filter(idempotency_key=idempotency_key).first()
        if seen is not None:
            return ParcelBooking(seen.booking_id, seen.tracking_number)
        digits = f"{uuid.uuid4().int % 10**12:012d}"
        try:
            with transaction.atomic():
                row = CarrierBooking.objects.create(
                    idempotency_key=idempotency_key,
                    kind=CarrierBooking.Kind.SHIPMENT,
                    tracking_number=f"{digits[:4]}-{digits[4:8]}-{digits[8:]}",
                    delivery_date=timezone.localdate() + dt.timedelta(days=2),
                    booking_id=f"bk_{uuid.uuid4().hex[:24]}",
                )
        except IntegrityError:
            row = CarrierBooking.objects.get(idempotency_key=idempotency_key)
        return ParcelBooking(row.booking_id, row.tracking_number)

    def _book(
        self,
        *,
        kind: str,
        tracking_number: str,
        delivery_date: dt.date | None,
        slot_window: str,
        idempotency_key: str,
    ) -> str:
        seen = CarrierBooking.objects.filter(idempotency_key=idempotency_key).first()
        if seen is not None:
            return seen.booking_id
        if not Shipment.objects.filter(tracking_number=tracking_number).exists():
            raise _unknown_parcel(tracking_number)
        try:
            with transaction.atomic():
                row = CarrierBooking.objects.create(
                    idempotency_key=idempotency_key,
                    kind=kind,
                    tracking_number=tracking_number,
                    delivery_date=delivery_date,
                    slot_window=slot_window,
                    booking_id=f"bk_{uuid.uuid4().hex[:24]}",
                )
        except IntegrityError:
            # Two requests with one key raced; the first booking is everyone's answer.
            return CarrierBooking.objects.get(idempotency_key=idempotency_key).booking_id
        return row.booking_id


def _shipment(tracking_number: str) -> Shipment:
    try:
        return Shipment.objects.prefetch_related("events").get(tracking_number=tracking_number)
    except Shipment.DoesNotExist:
        raise _unknown_parcel(tracking_number) from None


def _unknown_parcel(tracking_number: str) -> ExternalServiceError:
    return ExternalServiceError(SERVICE, "not_found", f"no parcel {tracking_number}")


def get_carrier() -> Carrier:
    """The configured carrier: the simulator, or ``NETSHOP_CARRIER["backend"]`` (a class path)."""
    carrier: Carrier = configured_adapter(SERVICE, settings.NETSHOP_CARRIER, CarrierSimulator)
    return carrier
