"""The offline writer's words for returns, exchanges and item changes, in Japanese and English.

Kept apart from ``phrases`` and ``labels`` (which merge these tables in) so the retail skills'
wording is one module: the sentences for a request waiting for a person and for its
outcome, the tools' and actions' names, and the sentence for each rule that refuses one.
"""

from __future__ import annotations

from typing import Final

from agents.support.vocabulary import Skill

Words = dict[str, dict[str, str]]

_REVIEWING_JA = (
    "現在、担当スタッフが内容を確認しております。確認が済み次第、改めてご連絡いたします。"
)
_REVIEWING_EN = "A member of our staff is reviewing it and will get back to you shortly."

PHRASES: Final[Words] = {
    "ja": {
        "pending_return": (
            "{order_ref}の{items}の返品のご依頼を承りました（返金予定額 {amount}）。"
            + _REVIEWING_JA
        ),
        "pending_exchange": (
            "{order_ref}の{item}を{variant}へ交換するご依頼を承りました。" + _REVIEWING_JA
        ),
        "pending_item_change": (
            "{order_ref}のご注文内容の変更（{changes}）のご依頼を承りました"
            "（変更後の合計 {total}）。" + _REVIEWING_JA
        ),
        "return_done": (
            "{order_ref}の{items}の返品を承り、{amount}の返金手続きが完了いたしました。"
            "お支払い時と同じ方法で返金され、反映までに数日かかる場合がございます。"
        ),
        "send_back": "お手数ですが、お手元の商品を当店までご返送ください。",
        "exchange_done": (
            "{order_ref}の{item}について、{variant}への交換を承り、交換品を発送いたしました"
            "（お問い合わせ番号 {tracking}）。"
        ),
        "item_change_done": (
            "{order_ref}のご注文内容を変更いたしました（{changes}）。変更後の合計は{total}です。"
        ),
        "authorization_lowered": (
            "クレジットカードのお支払い枠の確保（与信）も、変更後の金額に合わせて減額いたしました。"
        ),
        "change_removed": "{name}を取り消し",
        "change_lowered": "{name}を{quantity}点に変更",
    },
    "en": {
        "pending_return": (
            "We have received your request to return {items} from {order_ref}, with a refund "
            "of {amount}. " + _REVIEWING_EN
        ),
        "pending_exchange": (
            "We have received your request to exchange {item} from {order_ref} for {variant}. "
            + _REVIEWING_EN
        ),
        "pending_item_change": (
            "We have received your request to change {order_ref} ({changes}), for a new total "
            "of {total}. " + _REVIEWING_EN
        ),
        "return_done": (
            "We have accepted the return of {items} from {order_ref} and refunded {amount}. The "
            "money goes back to your original payment method and may take a few days to appear."
        ),
        "send_back": "Please send the item back to us.",
        "exchange_done": (
            "We have accepted the exchange of {item} from {order_ref} for {variant} and shipped "
            "the replacement (tracking number {tracking})."
        ),
        "item_change_done": ("We have changed {order_ref} ({changes}); the new total is {total}."),
        "authorization_lowered": (
            "The hold on your card has been lowered to the new total as well."
        ),
        "change_removed": "{name} removed",
        "change_lowered": "{name} reduced to {quantity}",
    },
}

TOOL: Final[Words] = {
    "ja": {
        Skill.RETURN_ITEMS: "返品のお手続き",
        Skill.EXCHANGE_ITEMS: "商品交換のお手続き",
        Skill.MODIFY_ORDER_ITEMS: "ご注文内容の変更",
    },
    "en": {
        Skill.RETURN_ITEMS: "the return",
        Skill.EXCHANGE_ITEMS: "the exchange",
        Skill.MODIFY_ORDER_ITEMS: "the order change",
    },
}

ACTION_TARGET: Final[Words] = {
    "ja": {
        Skill.RETURN_ITEMS: "{order_ref}の返品",
        Skill.EXCHANGE_ITEMS: "{order_ref}の商品交換",
        Skill.MODIFY_ORDER_ITEMS: "{order_ref}のご注文内容の変更",
    },
    "en": {
        Skill.RETURN_ITEMS: "the return for {order_ref}",
        Skill.EXCHANGE_ITEMS: "the exchange for {order_ref}",
        Skill.MODIFY_ORDER_ITEMS: "the change to {order_ref}",
    },
}

REFUSAL_ALIASES: Final[dict[str, str]] = {
    "order_delivered": "order_not_delivered",
    "within_return_window": "return_window_passed",
    "not_already_returned": "already_returned",
    "item_returnable": "item_not_returnable",
    "amount_within_items": "return_amount_exceeds_items",
    "within_exchange_window": "exchange_window_passed",
    "first_exchange": "already_exchanged",
    "variant_in_stock": "variant_out_of_stock",
    "order_modifiable": "order_not_modifiable",
    "quantity_lowered": "quantity_not_lowered",
    "items_remain": "order_would_be_empty",
}

REFUSAL: Final[Words] = {
    "ja": {
        "order_not_delivered": (
            "{order_ref}はまだお届け前のため、返品・交換を承ることができません。"
            "商品がお手元に届いてから改めてお知らせください。"
        ),
        "return_window_passed": (
            "誠に恐れ入りますが、返品は商品到着後{return_days}日以内に限り承っており、"
            "{order_ref}はその期間を過ぎているため、返品をお受けできません。"
        ),
        "already_returned": "ご指定の商品は、すでに返品を承っております。",
        "item_not_returnable": (
            "誠に恐れ入りますが、食品・名入れなどのオーダー商品は、"
            "不良品を除き返品をお受けできません。"
        ),
        "return_amount_exceeds_items": "返金額は、返品される商品の金額が上限となります。",
        "item_not_in_order": (
            "ご指定の商品が{order_ref}の中に見つかりませんでした。お手数ですが、商品名をご確認ください。"
        ),
        "items_required": "恐れ入りますが、対象の商品をお知らせいただけますでしょうか。",
        "exchange_window_passed": (
            "誠に恐れ入りますが、サイズ交換は商品到着後{exchange_days}日以内に限り承っており、"
            "{order_ref}はその期間を過ぎているため、交換をお受けできません。"
        ),
        "no_such_variant": "ご希望のサイズ・色は、この商品の取り扱いがございません。",
        "variant_out_of_stock": (
            "誠に恐れ入りますが、ご希望のサイズ・色は現在在庫がございません。"
            "在庫がない場合は返金にて対応いたしますので、ご希望の際はお知らせください。"
        ),
        "already_exchanged": (
            "サイズ交換は1商品につき1回までとなっており、この商品はすでに交換済みです。"
        ),
        "order_not_modifiable": (
            "ご注文確定後の商品の変更は承っておりません。{order_ref}はすでに確定しているため、"
            "内容を変更できませんでした。"
        ),
        "quantity_not_lowered": (
            "ご注文後の商品の追加・数量の増加は承っておりません。恐れ入りますが、"
            "追加の商品は新しくご注文ください。"
        ),
        "order_would_be_empty": (
            "すべての商品を取り消す場合は、ご注文のキャンセルとなります。"
            "キャンセルをご希望の際はお知らせください。"
        ),
    },
    "en": {
        "order_not_delivered": (
            "{order_ref} has not been delivered yet, so it cannot be returned or exchanged. "
            "Please let us know once it has arrived."
        ),
        "return_window_passed": (
            "We're sorry, but items can only be returned within {return_days} days of "
            "delivery, and that period has passed for {order_ref}."
        ),
        "already_returned": "The return of that item has already been accepted.",
        "item_not_returnable": (
            "We're sorry, but food and personalised items cannot be returned unless they are "
            "defective."
        ),
        "return_amount_exceeds_items": (
            "A return refunds at most the value of the items sent back."
        ),
        "item_not_in_order": (
            "We couldn't find that item in {order_ref}. Could you check the item's name?"
        ),
        "items_required": "Could you tell us which item you mean?",
        "exchange_window_passed": (
            "We're sorry, but items can only be exchanged within {exchange_days} days of "
            "delivery, and that period has passed for {order_ref}."
        ),
        "no_such_variant": "That size or colour is not available for this item.",
        "variant_out_of_stock": (
            "We're sorry, but that size or colour is out of stock. When it is, we refund the "
            "item instead: just let us know if you would like that."
        ),
        "already_exchanged": (
            "An item can be exchanged once, and this one has already been exchanged."
        ),
        "order_not_modifiable": (
            "Items cannot be changed once an order is confirmed, and {order_ref} already is."
        ),
        "quantity_not_lowered": (
            "Items cannot be added to an order after it was placed; please place a new order "
            "for anything extra."
        ),
        "order_would_be_empty": (
            "Removing every item would cancel the order; let us know if you would like to "
            "cancel it."
        ),
    },
}
