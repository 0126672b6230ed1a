"""The order's paragraph: its contents, total, status and parcel, or the customer's orders."""

from __future__ import annotations

from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import ORDER_STATUS, SHIPMENT_STATUS, word
from agents.providers.offline.writing.refusals import refusal_paragraphs
from agents.providers.offline.writing.reply import Reply, as_dict, as_list
from agents.providers.offline.writing.shipping import ARRIVED
from agents.support.vocabulary import Skill

MAX_LISTED_ORDERS = 5


def order_paragraphs(reply: Reply, tools: dict[str, Any] | None, *, quiet: bool) -> list[str]:
    """The order's contents or the order list, when asked for or when nothing else was said."""
    if tools is None:
        return []
    if Skill.APPLY_COUPON not in reply.asked:  # a coupon's cause is looked for in every order
        reply.note_missing_order(tools)
    refusals = refusal_paragraphs(reply, tools)
    quiet = quiet or bool(refusals)
    facts = as_dict(as_dict(tools.get("get_order_details")).get("order"))
    orders = as_dict(tools.get("search_orders")).get("orders")
    shown: list[str] = []
    if facts and (_details_asked(reply, refusals) or not quiet):
        shown.append(_order_details(reply, facts))
    wants_list = "search_orders" in reply.asked or not (facts or quiet)
    if isinstance(orders, list) and wants_list:
        shown.append(_order_list(reply, orders))
    return [*shown, *refusals]


def _details_asked(reply: Reply, refusals: list[str]) -> bool:
    """Whether the customer asked for the order's contents. A message read as a look-up alone
    that still led to a request the shop refused (an item added to the order) is answered by
    the refusal: the contents are not what the customer wanted."""
    if "get_order_details" not in reply.asked:
        return False
    return not refusals or reply.asked != {"get_order_details"}


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
    if date and shipment.get("status") not in ARRIVED:
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
