"""What became of the order's refunds: made (when, how much, where the money goes), waiting
for a person, or none (without offering one)."""

from __future__ import annotations

from typing import Any

from agents.providers.offline import formatting as fmt
from agents.providers.offline.writing.reply import Reply, as_dict, as_list
from agents.support.vocabulary import Skill


def refund_status_paragraphs(reply: Reply, tools: dict[str, Any]) -> list[str]:
    """The refund status the Payment agent read, if it read one."""
    status = as_dict(as_dict(tools.get(Skill.REFUND_STATUS)).get("refund_status"))
    return [_refund_status(reply, status)] if status.get("order_number") else []


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
