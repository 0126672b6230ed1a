"""The receipt issued (or reissued), to whom and for how much, and where to download it."""

from __future__ import annotations

from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.writing.reply import Reply, as_dict
from agents.support import catalogue
from agents.support.vocabulary import Skill
from netshop.services.receipt_document import addressee_key


def receipt_paragraphs(reply: Reply, tools: dict[str, Any]) -> list[str]:
    """The receipt the Payment agent issued, if it issued one."""
    receipt = as_dict(as_dict(tools.get(Skill.ISSUE_RECEIPT)).get("receipt"))
    return [_receipt(reply, receipt)] if receipt.get("number") else []


def _receipt(reply: Reply, receipt: dict[str, Any]) -> str:
    # The addressee as the receipt prints it, so the customer sees what they will get.
    name = str(receipt.get("addressee") or "")
    issued = reply.say(
        "receipt_reissued" if receipt.get("reissue") else "receipt_issued",
        order_ref=fmt.order_ref(reply.lang, receipt.get("order_number")),
        number=receipt["number"],
        addressee=catalogue.say(reply.lang, addressee_key(name), name=name),
        amount=fmt.yen(reply.lang, receipt.get("amount")),
    )
    return reply.join([issued, *_less_refunds(reply, receipt), reply.say("receipt_where")])


def _less_refunds(reply: Reply, receipt: dict[str, Any]) -> list[str]:
    """Why the amount is less than was paid, when part of the order was refunded."""
    refunded = int(receipt.get("refunded") or 0)
    if refunded <= 0:
        return []
    paid = fmt.yen(reply.lang, int(receipt.get("amount") or 0) + refunded)
    return [reply.say("receipt_less_refunds", paid=paid, refunded=fmt.yen(reply.lang, refunded))]
