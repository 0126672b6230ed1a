"""The reply's paragraphs for an address change, a refund status and a receipt, in ja and en.

The writer calls these with the Shipping and Payment agents' tool results. They state only
what the tools returned: the address the carrier now has, the refunds made (or that there is
none, without offering one), the receipt issued and where to download it. Pure.
"""

from __future__ import annotations

from typing import Any, Final

from agents.providers.offline import formatting as fmt
from agents.providers.offline.phrases import fill
from agents.providers.offline.reply import Reply, as_dict, as_list
from agents.support.vocabulary import Skill
from netshop.addresses import PREFECTURES

Table = dict[str, str]

JA: Final[Table] = {
    "address_changed": (
        "{order_ref}のお届け先を、「〒{postal_code} {prefecture}{address_line}」に"
        "変更いたしました。"
    ),
    "refund_made": "{order_ref}について、{date}に{amount}の返金手続きが完了しております。",
    "refund_made_more": "{order_ref}について、次の返金手続きが完了しております。",
    "refund_line": "・{date}　{amount}",
    "refund_where": (
        "返金はお支払い時と同じ方法で行われ、ご利用のカード会社などにより、"
        "反映までに日数がかかる場合がございます。"
    ),
    "refund_none": "{order_ref}について、現在のところ返金のお手続きの記録はございません。",
    "refund_waiting": (
        "{order_ref}の返金（{amount}）のご依頼は、現在担当スタッフが確認しております。"
        "確認が済み次第、改めてご連絡いたします。"
    ),
    "receipt_issued": (
        "{order_ref}の領収書（領収書番号 {number}、宛名: {addressee} 様、金額 {amount}）を"
        "発行いたしました。"
    ),
    "receipt_reissued": (
        "{order_ref}の領収書を再発行いたしました（領収書番号は前回と同じ {number}、"
        "宛名: {addressee} 様、金額 {amount}。「再発行」と記載しております）。"
    ),
    "receipt_where": (
        "ヘルプページのこのお問い合わせに表示される「領収書（PDF）」のリンクから"
        "ダウンロードいただけます。"
    ),
}

EN: Final[Table] = {
    "address_changed": (
        "We have changed the delivery address of {order_ref} to {address_line}, {prefecture} "
        "{postal_code}."
    ),
    "refund_made": "A refund of {amount} for {order_ref} was completed on {date}.",
    "refund_made_more": "These refunds for {order_ref} have been completed:",
    "refund_line": "- {date}: {amount}",
    "refund_where": (
        "Refunds go back to the original payment method; depending on your card company it "
        "may take a few days for them to appear."
    ),
    "refund_none": "There is no refund on record for {order_ref} so far.",
    "refund_waiting": (
        "Your request for a refund of {amount} on {order_ref} is being reviewed by a member of "
        "our staff, who will contact you once it is decided."
    ),
    "receipt_issued": (
        "We have issued the receipt for {order_ref} (receipt number {number}, addressed to "
        "{addressee}, {amount})."
    ),
    "receipt_reissued": (
        "We have reissued the receipt for {order_ref} (the same receipt number, {number}, "
        "addressed to {addressee}, {amount}, marked as a reissue)."
    ),
    "receipt_where": (
        "You can download it as a PDF from the “Receipt (PDF)” link shown with this "
        "conversation on our help page."
    ),
}

PHRASES: Final[dict[str, Table]] = {"ja": JA, "en": EN}
PREFECTURE_EN: Final = dict(PREFECTURES)


def _say(reply: Reply, key: str, **fields: object) -> str:
    return fill(reply.lang, PHRASES[reply.lang][key], **fields)


def address_paragraphs(reply: Reply, tools: dict[str, Any]) -> list[str]:
    """The new delivery address, as the shop recorded it."""
    change = as_dict(as_dict(tools.get(Skill.CHANGE_SHIPPING_ADDRESS)).get("address_change"))
    if not change.get("postal_code"):
        return []
    prefecture = str(change.get("prefecture") or "")
    return [
        _say(
            reply,
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
        _say(
            reply,
            "refund_waiting",
            order_ref=order_ref,
            amount=fmt.yen(reply.lang, w.get("amount")),
        )
        for w in map(as_dict, as_list(status.get("awaiting_approval")))
    ]
    if not refunds:
        waiting = list(dict.fromkeys(waiting))  # one sentence per amount asked for
        return reply.join(waiting) if waiting else _say(reply, "refund_none", order_ref=order_ref)
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
        head = [_say(reply, "refund_made", order_ref=order_ref, date=date, amount=amount)]
    else:
        head = [_say(reply, "refund_made_more", order_ref=order_ref)]
        head += [_say(reply, "refund_line", date=date, amount=amount) for date, amount in lines]
    where = _say(reply, "refund_where")
    if len(lines) == 1:
        return reply.join([head[0], where])
    return "\n".join([*head, where])


def _receipt(reply: Reply, receipt: dict[str, Any]) -> str:
    issued = _say(
        reply,
        "receipt_reissued" if receipt.get("reissue") else "receipt_issued",
        order_ref=fmt.order_ref(reply.lang, receipt.get("order_number")),
        number=receipt["number"],
        addressee=receipt.get("addressee") or "",
        amount=fmt.yen(reply.lang, receipt.get("amount")),
    )
    return reply.join([issued, _say(reply, "receipt_where")])
