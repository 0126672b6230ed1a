"""Words for the shop's codes (statuses, methods, tools) and sentences for its refusals.

A code missing from a table falls back to a neutral word, never to the code itself: the
customer must not see internal identifiers.
"""

from __future__ import annotations

from typing import Final

from agents.providers.offline import retail_words
from agents.support.vocabulary import Skill

Words = dict[str, dict[str, str]]

ORDER_STATUS: Final[Words] = {
    "ja": {
        "pending": "ご注文受付",
        "confirmed": "ご注文確定",
        "shipped": "発送済み",
        "delivered": "お届け済み",
        "cancelled": "キャンセル済み",
    },
    "en": {
        "pending": "received",
        "confirmed": "confirmed",
        "shipped": "shipped",
        "delivered": "delivered",
        "cancelled": "cancelled",
    },
}

SHIPMENT_STATUS: Final[Words] = {
    "ja": {
        "preparing": "出荷準備中",
        "in_transit": "配送中",
        "out_for_delivery": "配達中",
        "delivered": "配達完了",
        "absent_returned": "ご不在のため持ち戻り",
    },
    "en": {
        "preparing": "being prepared for shipment",
        "in_transit": "in transit",
        "out_for_delivery": "out for delivery",
        "delivered": "delivered",
        "absent_returned": "back at the depot (nobody was home)",
    },
}

PAYMENT_METHOD: Final[Words] = {
    "ja": {
        "card": "クレジットカード",
        "konbini": "コンビニ払い",
        "bank_transfer": "銀行振込",
        "cod": "代金引換",
    },
    "en": {
        "card": "credit card",
        "konbini": "convenience store payment",
        "bank_transfer": "bank transfer",
        "cod": "cash on delivery",
    },
}


# What could not be checked, for the honest "not checked" sentence (one per agent).
AGENT: Final[Words] = {
    "ja": {
        "order": "ご注文情報",
        "shipping": "配送状況",
        "payment": "決済状況",
        "faq": "よくあるご質問（FAQ）",
    },
    "en": {
        "order": "your order details",
        "shipping": "the delivery status",
        "payment": "the payment status",
        "faq": "our FAQ",
    },
}

TOOL: Final[Words] = {
    "ja": {
        "search_orders": "ご注文の検索",
        "get_order_details": "ご注文内容の確認",
        Skill.CANCEL_ORDER: "ご注文のキャンセル",
        "track_shipment": "配送状況の確認",
        "arrange_redelivery": "再配達のお手続き",
        "change_delivery_date": "お届け日の変更",
        Skill.PROCESS_REFUND: "返金のお手続き",
        "check_payment_status": "お支払い状況の確認",
        "apply_coupon": "クーポンの発行",
        "change_shipping_address": "お届け先の変更",
        "refund_status": "返金状況の確認",
        "issue_receipt": "領収書の発行",
        "search_faq": "ご質問への回答",
        "answer_general_question": "ご質問への回答",
        **retail_words.TOOL["ja"],
        Skill.CHANGE_SHIPPING_ADDRESS: "お届け先の変更",
        Skill.REFUND_STATUS: "返金状況の確認",
        Skill.ISSUE_RECEIPT: "領収書の発行",
    },
    "en": {
        "search_orders": "the order search",
        "get_order_details": "the order lookup",
        Skill.CANCEL_ORDER: "the cancellation",
        "track_shipment": "the tracking check",
        "arrange_redelivery": "the redelivery",
        "change_delivery_date": "the delivery date change",
        Skill.PROCESS_REFUND: "the refund",
        "check_payment_status": "the payment check",
        "apply_coupon": "the coupon",
        "change_shipping_address": "the change of delivery address",
        "refund_status": "the refund check",
        "issue_receipt": "the receipt",
        "search_faq": "your question",
        "answer_general_question": "your question",
        **retail_words.TOOL["en"],
        Skill.CHANGE_SHIPPING_ADDRESS: "the change of delivery address",
        Skill.REFUND_STATUS: "the refund check",
        Skill.ISSUE_RECEIPT: "the receipt",
    },
}

# An approval-gated action, as the object of a sentence ("{target} is being reviewed").
ACTION_TARGET: Final[Words] = {
    "ja": {
        Skill.PROCESS_REFUND: "{order_ref}の返金",
        Skill.CANCEL_ORDER: "{order_ref}のキャンセル",
        **retail_words.ACTION_TARGET["ja"],
    },
    "en": {
        Skill.PROCESS_REFUND: "the refund for {order_ref}",
        Skill.CANCEL_ORDER: "the cancellation of {order_ref}",
        **retail_words.ACTION_TARGET["en"],
    },
}

FALLBACK: Final[Words] = {
    "ja": {"status": "確認中", "method": "ご指定の方法", "carrier": "配送業者", "tool": "お手続き"},
    "en": {
        "status": "being checked",
        "method": "your payment method",
        "carrier": "carrier",
        "tool": "your request",
    },
}

# Check names and codes the shop uses for the same refusal, folded into one key.
REFUSAL_ALIASES: Final[dict[str, str]] = {
    "order_cancellable": "order_not_cancellable",
    "payment_captured": "payment_not_captured",
    "within_refundable": "refund_exceeds_captured",
    "amount_positive": "nothing_to_refund",
    "invalid_amount": "nothing_to_refund",
    "parcel_at_depot": "redelivery_not_allowed",
    "redelivery_not_available": "redelivery_not_allowed",
    "slot_date_in_range": "slot_out_of_range",
    "slot_window_valid": "invalid_slot_window",
    "not_out_for_delivery": "date_change_not_allowed",
    "date_change_too_late": "date_change_not_allowed",
    "date_in_range": "date_out_of_range",
    "date_differs": "date_unchanged",
    "first_for_inquiry": "coupon_already_issued",
    "within_customer_limit": "coupon_limit_reached",
    **retail_words.REFUSAL_ALIASES,
}

REFUSAL: Final[Words] = {
    "ja": {
        "order_not_found": (
            "{order_ref}が見つかりませんでした。お手数ですが、ご注文番号をご確認のうえ、"
            "改めてお知らせください。"
        ),
        "order_not_cancellable": (
            "{order_ref}は現在キャンセルを承ることができない状態です。"
            "キャンセルは発送前のご注文に限り承っております。"
        ),
        "order_not_cancellable:cancelled": (
            "{order_ref}はすでにキャンセル済みとなっておりますので、"
            "改めてキャンセルのお手続きをいただく必要はございません。"
        ),
        "order_not_cancellable:shipped": (
            "{order_ref}はすでに発送済みのため、キャンセルを承ることができません。"
            "お届け後の返品をご希望の場合は、お知らせください。"
        ),
        "order_not_cancellable:delivered": (
            "{order_ref}はすでにお届け済みのため、キャンセルを承ることができません。"
            "返品をご希望の場合は、お知らせください。"
        ),
        "payment_not_captured": (
            "{order_ref}はお支払いが確定していないため、返金の対象となる金額がございません。"
        ),
        "refund_exceeds_captured": (
            "返金できる金額は、お支払いいただいた金額（返金済みの分を除く）が上限となります。"
        ),
        "nothing_to_refund": "{order_ref}には、返金できる金額が残っておりません。",
        "no_payment": "{order_ref}には、お支払いの記録がございません。",
        "no_shipment": (
            "{order_ref}はまだ発送前のため、お問い合わせ番号と配送状況はまだございません。"
        ),
        "shipment_not_found": (
            "ご指定のお問い合わせ番号のお荷物が見つかりませんでした。"
            "お手数ですが、番号をご確認ください。"
        ),
        "redelivery_not_allowed": (
            "再配達は、ご不在のため持ち戻りとなったお荷物に限り承っております。"
            "{order_ref}のお荷物は現在その状態ではないため、再配達を手配できませんでした。"
        ),
        "slot_out_of_range": (
            "ご希望の日付は再配達をお受けできる期間外のため、手配できませんでした。"
            "お手数ですが、より近い日付でお知らせください。"
        ),
        "invalid_slot_window": (
            "ご希望の時間帯は指定できませんでした。午前中(8〜12時)、12〜14時、14〜16時、"
            "16〜18時、18〜21時の中からお選びください。"
        ),
        "date_change_not_allowed": (
            "{order_ref}のお荷物はすでに配達の段階に入っているため、お届け日を変更できませんでした。"
        ),
        "date_out_of_range": (
            "ご希望の日付はお届け日を変更できる期間外のため、変更できませんでした。"
            "当初のお届け予定日に近い日付でお知らせください。"
        ),
        "date_unchanged": "ご希望の日付は、現在のお届け予定日と同じです。",
        "coupon_already_issued": "今回のお問い合わせについては、すでにクーポンを発行しております。",
        "coupon_limit_reached": (
            "お詫びクーポンは、お一人様につき一定の期間内にお送りできる枚数を定めております。"
            "すでにその枚数をお送りしているため、今回はクーポンを発行いたしかねます。"
        ),
        "coupon_no_cause": (
            "お詫びクーポンは、配送の遅れや再配達の不履行など、当店側の不手際でご迷惑をおかけした"
            "場合にお送りしております。今回はそのような事象が確認できなかったため、"
            "クーポンの発行は見送らせていただきます。"
        ),
        "coupon_expired_not_reissued": (
            "誠に恐れ入りますが、有効期限の切れたクーポンの再発行は承っておりません。"
        ),
        "coupon_cause_compensated": (
            "この件につきましては、すでにお詫びのクーポンをお送りしております。"
        ),
        "address_change_not_allowed": (
            "{order_ref}のお荷物はすでに配送業者にお渡ししているため、お届け先を変更できませんでした。"
            "お届け先の変更は、出荷前のお荷物に限り承っております。"
        ),
        "address_change_not_allowed:delivered": (
            "{order_ref}はすでにお届け済みのため、お届け先を変更することはできません。"
        ),
        "address_change_not_allowed:cancelled": (
            "{order_ref}はキャンセル済みのため、お届け先の変更は承れません。"
        ),
        "invalid_address": (
            "いただいたご住所を確認できませんでした。お手数ですが、郵便番号（例: 〒104-0061）、"
            "都道府県、市区町村・番地まで含めて、改めてお知らせください。"
        ),
        "receipt_not_paid": (
            "{order_ref}はお支払いが確定していないため、領収書を発行できませんでした。"
            "お支払いの確定後に、改めてお申し付けください。"
        ),
        "generic": "{tool}については、現在の状況ではお手続きを承ることができませんでした。",
        **retail_words.REFUSAL["ja"],
    },
    "en": {
        "order_not_found": (
            "We couldn't find {order_ref} on your account. Could you double-check the order number?"
        ),
        "order_not_cancellable": (
            "{order_ref} can no longer be cancelled: we can only cancel orders that have not "
            "shipped yet."
        ),
        "order_not_cancellable:cancelled": (
            "{order_ref} has already been cancelled, so there is nothing more you need to do."
        ),
        "order_not_cancellable:shipped": (
            "{order_ref} has already shipped, so it can no longer be cancelled. If you would "
            "like to return it once it arrives, just let us know."
        ),
        "order_not_cancellable:delivered": (
            "{order_ref} has already been delivered, so it can no longer be cancelled. If you "
            "would like to return it, just let us know."
        ),
        "payment_not_captured": (
            "The payment for {order_ref} has not been completed, so there is nothing to refund."
        ),
        "refund_exceeds_captured": (
            "A refund can be at most the amount you paid, less anything already refunded."
        ),
        "nothing_to_refund": "There is no amount left to refund on {order_ref}.",
        "no_payment": "We have no payment on record for {order_ref}.",
        "no_shipment": (
            "{order_ref} has not shipped yet, so there is no tracking information so far."
        ),
        "shipment_not_found": (
            "We couldn't find a parcel with that tracking number on your account. "
            "Could you double-check it?"
        ),
        "redelivery_not_allowed": (
            "Redelivery can only be arranged for parcels taken back to the depot because nobody "
            "was home; the parcel for {order_ref} is not in that state, so we could not book one."
        ),
        "slot_out_of_range": (
            "The date you asked for is outside the period in which we can book a redelivery. "
            "Could you choose a sooner date?"
        ),
        "invalid_slot_window": (
            "That time window is not available. Please choose one of: morning (8am-12pm), "
            "12-2pm, 2-4pm, 4-6pm or 6-9pm."
        ),
        "date_change_not_allowed": (
            "The parcel for {order_ref} is already out for delivery, so its delivery date can no "
            "longer be changed."
        ),
        "date_out_of_range": (
            "The date you asked for is outside the period to which a delivery can be moved. "
            "Could you choose a date closer to the original one?"
        ),
        "date_unchanged": "The date you asked for is already the scheduled delivery date.",
        "coupon_already_issued": "We have already issued a coupon for this inquiry.",
        "coupon_limit_reached": (
            "Apology coupons are limited to a set number per customer within a given period, "
            "and that limit has been reached, so we cannot issue another coupon now."
        ),
        "coupon_no_cause": (
            "We send apology coupons when something went wrong on our side, such as a late "
            "delivery or a missed redelivery. We could not find anything like that on your "
            "orders, so we are unable to issue a coupon this time."
        ),
        "coupon_expired_not_reissued": (
            "We're sorry, but coupons that have expired cannot be reissued."
        ),
        "coupon_cause_compensated": (
            "We have already sent you an apology coupon for this, so we cannot issue another."
        ),
        "address_change_not_allowed": (
            "The parcel for {order_ref} has already been handed to the carrier, so its delivery "
            "address can no longer be changed: we can only change the address before a parcel "
            "leaves us."
        ),
        "address_change_not_allowed:delivered": (
            "{order_ref} has already been delivered, so its delivery address can no longer be "
            "changed."
        ),
        "address_change_not_allowed:cancelled": (
            "{order_ref} has been cancelled, so there is no delivery address to change."
        ),
        "invalid_address": (
            "We couldn't read that as a complete address in Japan. Could you send it again with "
            "the postal code, prefecture, city and street (for example: 1-2-3 Ginza, Chuo-ku, "
            "Tokyo 104-0061)?"
        ),
        "receipt_not_paid": (
            "The payment for {order_ref} has not been completed yet, so we cannot issue a "
            "receipt for it. Please ask again once it is paid."
        ),
        "generic": "We were unable to process {tool} in the current situation.",
        **retail_words.REFUSAL["en"],
    },
}


def word(table: Words, lang: str, code: object, fallback: str = "status") -> str:
    """``code``'s word in ``lang``; a neutral word (never the code) if the table lacks it."""
    return table[lang].get(str(code or "").lower(), FALLBACK[lang][fallback])


def refusal_key(code: str, order_status: str | None) -> str:
    """The REFUSAL entry for ``code``, refined by the order's status where that matters."""
    key = REFUSAL_ALIASES.get(code, code)
    refined = f"{key}:{order_status}"
    if refined in REFUSAL["ja"]:
        return refined
    return key if key in REFUSAL["ja"] else "generic"
