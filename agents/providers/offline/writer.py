"""The offline model's reply writer: one polite reply, in the customer's language, from the brief.

The brief is what ``agents.team.graph.supervisor.reply_brief`` builds. The reply says only what the
brief supports: a greeting, one paragraph per thing the customer asked about, what is waiting
for a person or was decided, what could not be checked, and a closing line. Pure: no
database, no network, no clock (``today`` comes from the brief).
"""

from __future__ import annotations

from typing import Any

from agents.providers.offline import faq_paragraph as faq
from agents.providers.offline import formatting as fmt
from agents.providers.offline.address_receipt_paragraphs import (
    address_paragraphs,
    payment_record_paragraphs,
)
from agents.providers.offline.approval_paragraphs import action_paragraphs
from agents.providers.offline.labels import (
    AGENT,
    ORDER_STATUS,
    PAYMENT_METHOD,
    SHIPMENT_STATUS,
    word,
)
from agents.providers.offline.questions import handover_sentence
from agents.providers.offline.reply import Reply, as_dict, as_list, refusal_paragraphs, said_once
from agents.support import catalogue
from agents.support.catalogue import Language
from netshop.adapters.place_names import carrier_name

MAX_LISTED_ORDERS = 5


def write_reply(brief: dict[str, Any]) -> str:
    """The customer's reply to ``brief`` (see ``agents.team.graph.supervisor.reply_brief``)."""
    reply = Reply.from_brief(brief)
    answers = _answers(brief)
    body = [
        *_shipping(reply, answers.get("shipping")),
        *_payment(reply, answers.get("payment")),
        *faq.faq_paragraphs(reply, answers.get("faq"), brief),
        *action_paragraphs(reply, brief),
    ]
    body = [*_order(reply, answers.get("order"), quiet=bool(body)), *body]
    if reply.needs_order_number:
        body.append(reply.say("ask_order_number"))
    body += _not_checked(reply, as_list(brief.get("not_checked")))
    body += _escalation(reply, as_dict(brief.get("escalation")))
    if not body:
        body.append(_ask_details(reply))
    return "\n\n".join([reply.say("greeting"), *said_once(body), reply.say("closing")])


def _ask_details(reply: Reply) -> str:
    """Nothing to say yet: ask what they need, never for the order number they gave."""
    if len(reply.named_orders) == 1:
        [number] = reply.named_orders
        return reply.say("ask_details_named", order_ref=fmt.order_ref(reply.lang, number))
    return reply.say("ask_details")


def _answers(brief: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each answering agent's tool results; failed agents are left to "not checked"."""
    answers: dict[str, dict[str, Any]] = {}
    for agent, envelope in as_dict(brief.get("results")).items():
        envelope = as_dict(envelope)
        if envelope.get("status") in ("success", "escalate"):
            data = as_dict(envelope.get("data"))
            answers[agent] = {k: v for k, v in data.items() if k != "pending_action"}
    return answers


# --- Order ---------------------------------------------------------------------------------


def _order(reply: Reply, tools: dict[str, Any] | None, *, quiet: bool) -> list[str]:
    """The order's contents or the order list, when asked for or when nothing else was said."""
    if tools is None:
        return []
    reply.note_missing_order(tools)
    refusals = refusal_paragraphs(reply, tools)
    quiet = quiet or bool(refusals)
    facts = as_dict(as_dict(tools.get("get_order_details")).get("order"))
    orders = as_dict(tools.get("search_orders")).get("orders")
    shown: list[str] = []
    if facts and ("get_order_details" in reply.asked or not quiet):
        shown.append(_order_details(reply, facts))
    wants_list = "search_orders" in reply.asked or not (facts or quiet)
    if isinstance(orders, list) and wants_list:
        shown.append(_order_list(reply, orders))
    return [*shown, *refusals]


def _order_details(reply: Reply, facts: dict[str, Any]) -> str:
    lang = reply.lang
    head = reply.say(
        "order_head",
        order_ref=fmt.order_ref(lang, facts.get("number")),
        placed=fmt.day(lang, facts.get("placed_at"), reply.today),
    )
    lines = [_order_line(reply, as_dict(line)) for line in as_list(facts.get("lines"))]
    status = word(ORDER_STATUS, lang, facts.get("status"))
    tail = [reply.say("order_total", total=fmt.yen(lang, facts.get("total")), status=status)]
    refunded = as_dict(facts.get("payment")).get("refunded")
    if isinstance(refunded, int) and refunded > 0:
        tail.append(reply.say("order_refunded", refunded=fmt.yen(lang, refunded)))
    shipment = as_dict(facts.get("shipment"))
    if shipment and not reply.has_agent("shipping"):
        tail.append(_shipment_line(reply, shipment))
    return "\n".join([head, *lines, reply.join(tail)])


def _order_line(reply: Reply, line: dict[str, Any]) -> str:
    name = line.get("name_en") if reply.lang == "en" and line.get("name_en") else line.get("name")
    quantity = line.get("quantity")
    quantity = quantity if isinstance(quantity, int) else 1
    price = line.get("unit_price")
    subtotal = price * quantity if isinstance(price, int) else None
    return reply.say(
        "order_line",
        name=name or line.get("sku") or "",
        quantity=quantity,
        subtotal=fmt.yen(reply.lang, subtotal),
    ).rstrip(" :　")


def _shipment_line(reply: Reply, shipment: dict[str, Any]) -> str:
    status = word(SHIPMENT_STATUS, reply.lang, shipment.get("status"))
    date = fmt.day(reply.lang, shipment.get("scheduled_date"), reply.today)
    if date and shipment.get("status") not in ("delivered", "absent_returned"):
        return reply.say("order_shipment_dated", status=status, date=date)
    return reply.say("order_shipment", status=status)


def _order_list(reply: Reply, orders: list[Any]) -> str:
    if not orders:
        return reply.say("orders_none")
    lines = [
        reply.say(
            "orders_line",
            number=order.get("number", ""),
            placed=fmt.day(reply.lang, order.get("placed_at"), reply.today),
            total=fmt.yen(reply.lang, order.get("total")),
            status=word(ORDER_STATUS, reply.lang, order.get("status")),
        )
        for order in map(as_dict, orders[:MAX_LISTED_ORDERS])
    ]
    if len(orders) > MAX_LISTED_ORDERS:
        lines.append(reply.say("orders_more", count=len(orders) - MAX_LISTED_ORDERS))
    return "\n".join([reply.say("orders_head"), *lines])


# --- Shipping ------------------------------------------------------------------------------


def _shipping(reply: Reply, tools: dict[str, Any] | None) -> list[str]:
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
    paragraphs += address_paragraphs(reply, tools)
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
    if date and status not in ("delivered", "absent_returned"):
        sentences.append(reply.say("track_scheduled", date=date))
    events = [as_dict(event) for event in as_list(tracking.get("events"))]
    if events:
        sentences.append(_latest_event(reply, events[-1], current=status))
    if status == "absent_returned" and not rebooked:
        sentences.append(reply.say("track_absent"))
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


# --- Payment and FAQ -----------------------------------------------------------------------


def _payment(reply: Reply, tools: dict[str, Any] | None) -> list[str]:
    if tools is None:
        return []
    paragraphs: list[str] = []
    checked = as_dict(tools.get("check_payment_status"))
    if as_dict(checked.get("payment")) or as_dict(checked.get("gateway")):
        paragraphs.append(_payment_status(reply, checked))
    coupon = as_dict(as_dict(tools.get("apply_coupon")).get("coupon"))
    if coupon.get("code"):
        paragraphs.append(_coupon(reply, coupon))
    paragraphs += payment_record_paragraphs(reply, tools)
    if not paragraphs:
        reply.note_missing_order(tools)
    return paragraphs + refusal_paragraphs(reply, tools)


def _coupon(reply: Reply, coupon: dict[str, Any]) -> str:
    expires = fmt.day(reply.lang, coupon.get("expires_at"), reply.today)
    value = fmt.yen(reply.lang, coupon.get("value"))
    return reply.say_from(
        "coupon_issued" if expires else "coupon_issued_open",
        {
            "value": reply.say("coupon_value", value=value) if value else "",
            "code": coupon["code"],
            "expires": expires,
        },
    )


def _payment_status(reply: Reply, checked: dict[str, Any]) -> str:
    """The gateway's view wins over our records: it is where the money is."""
    payment, gateway = as_dict(checked.get("payment")), as_dict(checked.get("gateway"))
    status = str(gateway.get("status") or payment.get("status") or "")
    amounts = {
        name: _amount(gateway.get(f"{name}_amount"), payment.get(name))
        for name in ("authorized", "captured", "refunded")
    }
    key = f"payment_{status}" if status in _PAYMENT_STATES else "payment_unknown"
    if any(amounts[name] is None for name in _PAYMENT_STATES.get(status, ())):
        # Never "refunded in full (¥0)": without the amount read, the sentence names none.
        key = f"{key}_open" if reply.has(f"{key}_open") else "payment_unknown"
    lang = reply.lang
    fields: dict[str, object] = {
        "order_ref": fmt.order_ref(lang, checked.get("order_number")),
        "method": word(PAYMENT_METHOD, lang, payment.get("method"), "method"),
    }
    return reply.say_from(
        key, fields | {name: fmt.yen(lang, amount) for name, amount in amounts.items()}
    )


def _amount(*read: object) -> int | None:
    """The first positive amount read (the gateway's, then the shop's record), else None."""
    return next((value for value in read if isinstance(value, int) and value > 0), None)


# The amounts each payment state's sentence states.
_PAYMENT_STATES: dict[str, tuple[str, ...]] = {
    "authorized": ("authorized",),
    "captured": ("captured",),
    "partially_refunded": ("captured", "refunded"),
    "refunded": ("refunded",),
    "failed": (),
    "voided": (),
}


# --- What could not be done ----------------------------------------------------------------


def _not_checked(reply: Reply, agents: list[Any]) -> list[str]:
    known = [agent for agent in agents if catalogue.has(reply.lang, f"{AGENT}.{agent}")]
    labels = [word(AGENT, reply.lang, agent) for agent in known]
    if not labels:
        return []
    reply.follow_up_promised = True
    return [reply.say("not_checked", labels=fmt.join(reply.lang, labels))]


def _escalation(reply: Reply, escalation: dict[str, Any]) -> list[str]:
    kind = escalation.get("kind")
    reason = handover_sentence(reply.lang, escalation)  # a person follows up, and why
    if reason:
        reply.follow_up_promised = True
        return [reason]
    if kind == "customer_request":
        reply.follow_up_promised = True
        return [reply.say("handover")]
    if kind in ("failure", "follow_up") and not reply.follow_up_promised:
        reply.follow_up_promised = True
        return [reply.say("follow_up")]
    return []
