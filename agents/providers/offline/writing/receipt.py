"""The receipt issued (or reissued), and where to download it."""

from __future__ import annotations

from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.writing.reply import Reply, as_dict
from agents.support.vocabulary import Skill


def receipt_paragraphs(reply: Reply, tools: dict[str, Any]) -> list[str]:
    """The receipt the Payment agent issued, if it issued one."""
    receipt = as_dict(as_dict(tools.get(Skill.ISSUE_RECEIPT)).get("receipt"))
    return [_receipt(reply, receipt)] if receipt.get("number") else []


def _receipt(reply: Reply, receipt: dict[str, Any]) -> str:
    issued = reply.say(
        "receipt_reissued" if receipt.get("reissue") else "receipt_issued",
        order_ref=fmt.order_ref(reply.lang, receipt.get("order_number")),
        number=receipt["number"],
        addressee=receipt.get("addressee") or "",
        amount=fmt.yen(reply.lang, receipt.get("amount")),
    )
    return reply.join([issued, reply.say("receipt_where")])
