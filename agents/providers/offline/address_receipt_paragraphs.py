"""The reply's paragraphs for an address change, a refund status and a receipt, in ja and en.

The writer calls these with the Shipping and Payment agents' tool results. They state only
what the tools returned: the address the carrier now has, the refunds made (or that there is
none, without offering one), the receipt issued and where to download it. Pure.
"""

from __future__ import annotations

from typing import Any, Final

from agents.providers.offline import formatting as fmt
from agents.providers.offline.reply import Reply, as_dict, as_list
from agents.support.vocabulary import Skill
from netshop.addresses import PREFECTURES

PREFECTURE_EN: Final = dict(PREFECTURES)


def address_paragraphs(reply: Reply, tools: dict[str, Any]) -> list[str]:
    """The new delivery address, as the shop recorded it."""
    change = as_dict(as_dict(tools.get(Skill.CHANGE_SHIPPING_ADDRESS)).get("address_change"))
    if not change.get("postal_code"):
        return []
    prefecture = str(change.get("prefecture") or "")
    return [
        reply.say(
            "address_changed",
            order_ref=fmt.order_ref(reply.lang, change.get("order_number")),
            postal_code=change["postal_code"],
            prefecture=PREFECTURE_EN.get(prefecture, prefecture)
            if reply.lang == "en"
            else prefecture,
            address_line=change.get("address_line") or "",
        )
    ]


def payment_record_paragraphs(reply: Reply, tools: dict[str, Any]) -> list[str]:
    """What became of the order's refunds, and the receipt issued."""
    paragraphs: list[str] = []
    status = as_dict(as_dict(tools.get(Skill.REFUND_STATUS)).get("refund_status"))
    if status.get("order_number"):
        paragraphs.append(_refund_status(reply, status))
    receipt = as_dict(as_dict(tools.get(Skill.ISSUE_RECEIPT)).get("receipt"))
    if receipt.get("number"):
        paragraphs.append(_receipt(reply, receipt))
    return paragraphs


def _refund_status(reply: Reply, status: dict[str, Any]) -> str:
    order_ref = fmt.order_ref(reply.lang, status.get("order_number"))
    refunds = [as_dict(refund) for refund in as_list(status.get("refunds"))]
    waiting = [
        reply.say(
            "refund_waiting",
            order_ref=order_ref,
            amount=fmt.yen(reply.lang, w.get("amount")),
        )
        for w in map(as_dict, as_list(status.get("awaiting_approval")))
    ]
    if not refunds:
        waiting = list(dict.fromkeys(waiting))  # one sentence per amount asked for
        return reply.join(waiting) if waiting else reply.say("refund_none", order_ref=order_ref)
    return "\n".join([_refunds_made(reply, order_ref, refunds), *waiting])


def _refunds_made(reply: Reply, order_ref: str, refunds: list[dict[str, Any]]) -> str:
    lines = [
        (
            fmt.day(reply.lang, r.get("refunded_at"), reply.today),
            fmt.yen(reply.lang, r.get("amount")),
        )
        for r in refunds
    ]
    if len(lines) == 1:
        date, amount = lines[0]
        head = [reply.say("refund_made", order_ref=order_ref, date=date, amount=amount)]
    else:
        head = [reply.say("refund_made_more", order_ref=order_ref)]
        head += [reply.say("refund_line", date=date, amount=amount) for date, amount in lines]
    where = reply.say("refund_where")
    if len(lines) == 1:
        return reply.join([head[0], where])
    return "\n".join([*head, where])


def _receipt(reply: Reply, receipt: dict[str, Any]) -> str:
    issued = reply.say(
        "receipt_reissued" if receipt.get("reissue") else "receipt_issued",
        order_ref=fmt.order_ref(reply.lang, receipt.get("order_number")),
        number=receipt["number"],
        addressee=receipt.get("addressee") or "",
        amount=fmt.yen(reply.lang, receipt.get("amount")),
    )
    return reply.join([issued, reply.say("receipt_where")])
