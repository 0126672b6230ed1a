"""The Shipping agent's turn: tracking, a redelivery, a new delivery date; a change of address
goes on in ``address_change``."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline.turns.address_change import address_change_turn
from agents.providers.offline.turns.calls import Call
from agents.providers.offline.turns.choosing import order_number
from agents.providers.offline.turns.referrals import not_arrived_contradiction
from agents.support.vocabulary import Skill
from netshop.models import ShipmentStatus as S
from netshop.services.policy_checks import DATE_CHANGEABLE


def shipping_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    intent = parcel_intent(context)
    if intent == Skill.CHANGE_SHIPPING_ADDRESS:
        return address_change_turn(context, inquiry, results, tools)
    entities = context.get("entities", {})
    number = order_number(context)
    shift = entities.get("date_shift_days")
    if intent == "change_delivery_date" and shift and number and not entities.get("dates"):
        return _shifted_date(number, int(shift), context, results)
    if results:
        return not_arrived_contradiction(results, inquiry, tools)
    dates = _future_dates(entities.get("dates", []), context.get("today"))
    if number and dates and intent == "arrange_redelivery":
        window = entities.get("time_window") or "08-12"
        return [
            (
                "arrange_redelivery",
                {"order_number": number, "slot_date": dates[0], "slot_window": window},
            )
        ]
    if number and dates and intent == "change_delivery_date":
        return [("change_delivery_date", {"order_number": number, "new_date": dates[0]})]
    if number and intent == "change_delivery_date" and not _date_changeable(context):
        # Out for delivery or delivered: the shop refuses whatever the date, so none is asked.
        return [("change_delivery_date", {"order_number": number, "new_date": ""})]
    if number and intent == "change_delivery_date" and ASK_CUSTOMER in tools:
        # A change with no date to change to: the customer is asked, not shown the tracking.
        return [(ASK_CUSTOMER, {"slot": "date", "why": "missing", "options": [], "about": ""})]
    tracking = next(iter(entities.get("tracking_numbers", [])), None)
    if tracking:
        return [("track_shipment", {"tracking_number": tracking})]
    return [("track_shipment", {"order_number": number})] if number else []


def parcel_intent(context: dict[str, Any]) -> str:
    """The intent as the parcel's state makes it: a new date for a parcel the driver took
    back to the depot is a redelivery (the carrier books it with a time window), never a
    change of a delivery date that has passed."""
    intent = str(context.get("intent", Skill.TRACK_SHIPMENT))
    order = context.get("order") if isinstance(context.get("order"), dict) else {}
    shipment = (order or {}).get("shipment") or {}
    returned = isinstance(shipment, dict) and shipment.get("status") == S.ABSENT_RETURNED
    return Skill.ARRANGE_REDELIVERY if intent == Skill.CHANGE_DELIVERY_DATE and returned else intent


def _date_changeable(context: dict[str, Any]) -> bool:
    """Whether the order's facts leave the parcel's date open to change (unknown: it is)."""
    order = context.get("order") if isinstance(context.get("order"), dict) else {}
    shipment = (order or {}).get("shipment")
    if not isinstance(shipment, dict) or not shipment.get("status"):
        return True
    return shipment["status"] in DATE_CHANGEABLE


def _shifted_date(
    number: str, shift: int, context: dict[str, Any], results: dict[str, Any]
) -> list[Call]:
    """ "Push it back two days": the new date counts from the parcel's scheduled date, read
    from the order's facts or, failing those, from the carrier (tracked first)."""
    if "change_delivery_date" in results:
        return []
    shipment = (context.get("order") or {}).get("shipment") or {}
    tracked = ((results.get("track_shipment") or {}).get("tracking")) or {}
    scheduled = tracked.get("scheduled_date") or shipment.get("scheduled_date")
    if not scheduled:
        return [] if "track_shipment" in results else [("track_shipment", {"order_number": number})]
    new_date = date.fromisoformat(scheduled) + timedelta(days=shift)
    return [("change_delivery_date", {"order_number": number, "new_date": new_date.isoformat()})]


def _future_dates(dates: list[str], today: str | None) -> list[str]:
    """Dates the customer wants something on: "yesterday" explains, it does not ask."""
    return [d for d in dates if today is None or d > today]
