"""The parcel's paragraphs: where it is, a redelivery booked, a new delivery date (and a new
address, from ``address_change``)."""

from __future__ import annotations

from typing import Any, Final

from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import SHIPMENT_STATUS, word
from agents.providers.offline.writing.address_change import address_change_paragraphs
from agents.providers.offline.writing.refusals import refusal_paragraphs
from agents.providers.offline.writing.reply import Reply, as_dict, as_list
from agents.support import catalogue
from agents.support.catalogue import Language
from netshop.adapters.place_names import carrier_name
from netshop.models import ShipmentStatus

# A parcel that has arrived, or come back: its scheduled date is past news.
ARRIVED: Final = frozenset({ShipmentStatus.DELIVERED, ShipmentStatus.ABSENT_RETURNED})


def shipping_paragraphs(reply: Reply, tools: dict[str, Any] | None) -> list[str]:
    if tools is None:
        return []
    reply.note_missing_order(tools)
    paragraphs: list[str] = []
    booking = as_dict(as_dict(tools.get("arrange_redelivery")).get("redelivery"))
    tracked = as_dict(tools.get("track_shipment"))
    if as_dict(tracked.get("tracking")):
        paragraphs.append(_tracking(reply, tracked, rebooked=bool(booking)))
    if booking:
        paragraphs.append(
            reply.say(
                "redelivery_booked",
                order_ref=fmt.order_ref(reply.lang, booking.get("order_number")),
                date=fmt.day(reply.lang, booking.get("slot_date"), reply.today),
                window=fmt.window(reply.lang, booking.get("slot_window")),
            )
        )
    change = as_dict(as_dict(tools.get("change_delivery_date")).get("date_change"))
    if fmt.day_of(change.get("new_date")):
        paragraphs.append(_date_change(reply, change))
    paragraphs += address_change_paragraphs(reply, tools)
    return paragraphs + refusal_paragraphs(reply, tools)


def _tracking(reply: Reply, tracked: dict[str, Any], *, rebooked: bool) -> str:
    lang = reply.lang
    tracking = as_dict(tracked.get("tracking"))
    status = str(tracking.get("status") or "")
    sentences = [reply.say("track_fallback")] if tracked.get("fallback") else []
    sentences.append(
        reply.say_from(
            "track_status" if tracking.get("tracking_number") else "track_status_untracked",
            {
                "order_ref": fmt.order_ref(lang, tracked.get("order_number")),
                "carrier": _carrier(lang, str(tracking.get("carrier") or "")),
                "tracking": tracking.get("tracking_number"),
                "status": word(SHIPMENT_STATUS, lang, status),
            },
        )
    )
    date = fmt.day(lang, tracking.get("scheduled_date"), reply.today)
    if date and status not in ARRIVED:
        sentences.append(reply.say("track_scheduled", date=date))
    events = [as_dict(event) for event in as_list(tracking.get("events"))]
    if events:
        sentences.append(_latest_event(reply, events[-1], current=status))
    if status == ShipmentStatus.ABSENT_RETURNED and not rebooked:
        sentences.append(reply.say("track_absent"))
    case = as_dict(tracked.get("open_case"))
    if case:  # they told us it never arrived: never a bare "delivered" beside that
        sentences.append(
            reply.say("track_open_case", date=fmt.day(lang, case.get("opened_on"), reply.today))
        )
    return reply.join(sentences)


def _carrier(lang: Language, name: str) -> str:
    """A carrier's name as customers know it in ``lang``; an unknown carrier's own name is
    shown as is, unless it is Japanese in an English reply ("the carrier" then)."""
    known = carrier_name(name, lang)
    if known:
        return known
    if name and (lang == "ja" or not fmt.has_japanese(name)):
        return name
    return catalogue.say(lang, "fallback.carrier")


def _latest_event(reply: Reply, event: dict[str, Any], *, current: str) -> str:
    """The last scan: when and where, and its status only when it says something new."""
    location = _place(reply.lang, event)
    place = reply.say("track_place", place=location) if location else ""
    time = fmt.moment(reply.lang, event.get("time"), reply.today)
    if event.get("status") == current or not event.get("status"):
        return reply.say("track_event", time=time, place=place) if time else ""
    status = word(SHIPMENT_STATUS, reply.lang, event.get("status"))
    return reply.say("track_event_status", status=status, time=time, place=place)


def _place(lang: Language, event: dict[str, Any]) -> str:
    """Where a scan was, in the reply's language: never a Japanese name in English."""
    location = str(event.get("location") or "")
    if lang == "ja" or not fmt.has_japanese(location):
        return location
    return str(event.get("location_en") or "")


def _date_change(reply: Reply, change: dict[str, Any]) -> str:
    previous = fmt.day(reply.lang, change.get("previous_date"), reply.today)
    return reply.say_from(
        "date_changed" if previous else "date_changed_to",
        {
            "order_ref": fmt.order_ref(reply.lang, change.get("order_number")),
            "previous": previous,
            "date": fmt.day(reply.lang, change.get("new_date"), reply.today),
        },
    )
