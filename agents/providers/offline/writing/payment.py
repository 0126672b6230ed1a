"""The payment's paragraphs: its status (the gateway's view first), an apology coupon, and
the refunds made and receipt issued (``refund_status``, ``receipt``)."""

from __future__ import annotations

from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import PAYMENT_METHOD, word
from agents.providers.offline.writing.receipt import receipt_paragraphs
from agents.providers.offline.writing.refund_status import refund_status_paragraphs
from agents.providers.offline.writing.refusals import refusal_paragraphs
from agents.providers.offline.writing.reply import Reply, as_dict
from netshop.models import PaymentMethod, PaymentStatus


def payment_paragraphs(reply: Reply, tools: dict[str, Any] | None) -> list[str]:
    if tools is None:
        return []
    paragraphs: list[str] = []
    checked = as_dict(tools.get("check_payment_status"))
    if as_dict(checked.get("payment")) or as_dict(checked.get("gateway")):
        paragraphs.append(_payment_status(reply, checked))
    coupon = as_dict(as_dict(tools.get("apply_coupon")).get("coupon"))
    if coupon.get("code"):
        paragraphs.append(_coupon(reply, coupon))
    paragraphs += refund_status_paragraphs(reply, tools) + receipt_paragraphs(reply, tools)
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
    said = reply.say_from(
        key, fields | {name: fmt.yen(lang, amount) for name, amount in amounts.items()}
    )
    return reply.join([said, _failed_card_help(reply, status, payment.get("method"))])


def _failed_card_help(reply: Reply, status: str, method: object) -> str:
    """A declined card is the customer's to fix: "check your payment method" alone leaves them
    where they were, so the steps the shop's help gives come with it (card details, 3-D
    Secure, the card issuer, another method). Other methods fail for other reasons."""
    if status != PaymentStatus.FAILED or method != PaymentMethod.CARD:
        return ""
    return reply.say("payment_failed_card_help")


def _amount(*read: object) -> int | None:
    """The first positive amount read (the gateway's, then the shop's record), else None."""
    return next((value for value in read if isinstance(value, int) and value > 0), None)


# The amounts each payment state's sentence states.
_PAYMENT_STATES: dict[str, tuple[str, ...]] = {
    PaymentStatus.AUTHORIZED: ("authorized",),
    PaymentStatus.CAPTURED: ("captured",),
    PaymentStatus.PARTIALLY_REFUNDED: ("captured", "refunded"),
    PaymentStatus.REFUNDED: ("refunded",),
    PaymentStatus.FAILED: (),
    PaymentStatus.VOIDED: (),
}
