"""The Shipping agent: tracking, redelivery of returned parcels, date and address changes."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.utils import timezone
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool

from agents.support.audit_trail import agent_actor
from agents.support.escalations.selectors import NOT_ARRIVED_CLAIM, parcel_claim_open
from agents.support.vocabulary import Skill
from agents.team.prompts import SHARED_RULES
from agents.team.run_context import run_context, run_customer, stable_operation_id
from agents.team.specialists.asking import ASKING_RULES, ASKING_TOOLS
from agents.team.specialists.spec import Specialist
from netshop import selectors
from netshop.adapters.carrier import get_carrier
from netshop.addresses import address_validate
from netshop.errors import DomainError
from netshop.services.addresses import address_change_check, shipping_address_change
from netshop.services.shipping import (
    delivery_date_change,
    delivery_date_change_check,
    redelivery_arrange,
)

PROMPT = f"""{SHARED_RULES}
{ASKING_RULES}

You are the Shipping agent. The order's facts are in the context when the Order agent found
them. Track parcels with track_shipment; when its result has open_case, the customer already
told us the parcel never arrived and staff are checking: say so. Arrange a redelivery only
for parcels the driver took back (absent_returned), on a date within the next 7 days and a
time window. Change a delivery date only before the parcel is out for delivery, within 14
days of the original. Change the delivery address with change_shipping_address only to the
address the customer wrote (postal code, prefecture, the rest); when they gave none, ask for
it with ask_customer (slot "address"). A parcel already on its way is refused, whatever the
address."""


def _shipment(config: RunnableConfig, order_number: str | None, tracking_number: str | None) -> Any:
    customer = run_customer(config)
    if tracking_number:
        return selectors.shipment_for_tracking(customer=customer, tracking_number=tracking_number)
    if not order_number:
        raise DomainError("order_number_required")
    return selectors.shipment_for_order(customer=customer, number=order_number)


@tool
def track_shipment(
    config: RunnableConfig, order_number: str | None = None, tracking_number: str | None = None
) -> dict[str, Any]:
    """Track a parcel with the carrier by tracking number or order number.

    When the customer has told us this parcel never arrived and a member of staff is still
    checking, the result carries ``open_case`` (the claim and the day it was opened): say
    that case is open and staff will contact them; never answer only "delivered".

    Args:
        order_number: the order number, e.g. ORD-1002.
        tracking_number: the carrier's tracking number, e.g. 4821-7730-1195.
    """
    shipment = _shipment(config, order_number, tracking_number)
    info = get_carrier().track(shipment.tracking_number)
    return _tracked(config, shipment, info.as_dict())


def track_from_database(args: dict[str, Any], config: RunnableConfig) -> dict[str, Any]:
    """Fallback when the carrier is down: the last status the shop recorded."""
    shipment = _shipment(config, args.get("order_number"), args.get("tracking_number"))
    return _tracked(config, shipment, selectors.shipment_facts(shipment=shipment))


def _tracked(config: RunnableConfig, shipment: Any, tracking: dict[str, Any]) -> dict[str, Any]:
    """The tracking result, with the customer's open "never arrived" case on the order."""
    number = shipment.order.number
    result: dict[str, Any] = {"tracking": tracking, "order_number": number}
    case = parcel_claim_open(customer=run_customer(config), order_number=number)
    if case is not None:
        opened_on = timezone.localdate(case.created_at).isoformat()
        result["open_case"] = {"claim": NOT_ARRIVED_CLAIM, "opened_on": opened_on}
    return result


@tool
def arrange_redelivery(
    order_number: str, slot_date: str, slot_window: str, config: RunnableConfig
) -> dict[str, Any]:
    """Book a redelivery of a parcel the driver took back to the depot (absent_returned).

    Args:
        order_number: the order number, e.g. ORD-1004.
        slot_date: ISO date within the next 7 days.
        slot_window: one of 08-12, 12-14, 14-16, 16-18, 18-21.
    """
    context = run_context(config)
    shipment = _shipment(config, order_number, None)
    redelivery = redelivery_arrange(
        shipment=shipment,
        slot_date=date.fromisoformat(slot_date),
        slot_window=slot_window,
        operation_id=stable_operation_id(context.inquiry_id, "arrange_redelivery", order_number),
        actor=agent_actor("shipping"),
    )
    return {
        "redelivery": {
            "order_number": order_number,
            "slot_date": redelivery.slot_date.isoformat(),
            "slot_window": redelivery.slot_window,
            "booking_id": redelivery.carrier_booking_id,
        }
    }


@tool
def change_delivery_date(
    order_number: str, new_date: str, config: RunnableConfig
) -> dict[str, Any]:
    """Move the delivery of a parcel not yet out for delivery to another date.

    A parcel already out for delivery (or delivered) is refused whatever the date, so the
    customer hears why; an empty ``new_date`` asks only that (and is an error otherwise).

    Args:
        order_number: the order number, e.g. ORD-1002.
        new_date: ISO date, within 14 days of the originally scheduled date.
    """
    context = run_context(config)
    shipment = _shipment(config, order_number, None)
    delivery_date_change_check(shipment=shipment)
    if not new_date:
        raise ValueError("new_date is required: ask the customer for one")
    change = delivery_date_change(
        shipment=shipment,
        new_date=date.fromisoformat(new_date),
        operation_id=stable_operation_id(context.inquiry_id, "change_delivery_date", order_number),
        actor=agent_actor("shipping"),
    )
    return {
        "date_change": {
            "order_number": order_number,
            "previous_date": change.previous_date.isoformat() if change.previous_date else None,
            "new_date": change.new_date.isoformat(),
            "booking_id": change.carrier_booking_id,
        }
    }


@tool
def change_shipping_address(
    order_number: str, postal_code: str, prefecture: str, address_line: str, config: RunnableConfig
) -> dict[str, Any]:
    """Send an order's parcel to a new address in Japan, before it leaves the shop.

    Refused once the carrier has picked the parcel up (on its way or delivered), and for an
    address that is not a complete Japanese one.

    Args:
        order_number: the order number, e.g. ORD-1001.
        postal_code: the new postal code, NNN-NNNN, e.g. 104-0061.
        prefecture: one of the 47 prefectures, e.g. 東京都 (Tokyo).
        address_line: the rest: city, street, number, building, e.g. 中央区銀座1-2-3.
    """
    context = run_context(config)
    order = selectors.order_get_for_customer(customer=run_customer(config), number=order_number)
    address_change_check(order=order)  # a parcel on its way is refused whatever the address
    address = address_validate(
        postal_code=postal_code, prefecture=prefecture, address_line=address_line
    )
    change = shipping_address_change(
        order=order,
        address=address,
        operation_id=stable_operation_id(
            context.inquiry_id, Skill.CHANGE_SHIPPING_ADDRESS, order.number, address.as_dict()
        ),
        actor=agent_actor("shipping"),
    )
    return {
        "address_change": {
            "order_number": order.number,
            **address.as_dict(),
            "booking_id": change.carrier_booking_id,
        }
    }


SPECIALIST = Specialist(
    agent="shipping",
    prompt=PROMPT,
    tools=(
        track_shipment,
        arrange_redelivery,
        change_delivery_date,
        change_shipping_address,
        *ASKING_TOOLS,
    ),
    fallbacks={"track_shipment": track_from_database},
    side_effects=frozenset(
        {"arrange_redelivery", "change_delivery_date", Skill.CHANGE_SHIPPING_ADDRESS}
    ),
)
