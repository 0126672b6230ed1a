"""The offline reply writer's sentences, in Japanese and English, one table per language.

Templates take named fields that the writer has already formatted (yen, dates, labels), so a
table holds wording only. Every key exists in both languages; a test checks that.
"""

from __future__ import annotations

from typing import Final

from agents.providers.offline.retail_words import PHRASES as RETAIL

Table = dict[str, str]

JA: Final[Table] = {
    "greeting": (
        "お問い合わせいただき、誠にありがとうございます。NetShop カスタマーサポートでございます。"
    ),
    "closing": (
        "ほかにご不明な点がございましたら、お気軽にお問い合わせください。"
        "今後ともNetShopをよろしくお願いいたします。"
    ),
    "order_head": "{order_ref}（{placed}ご注文）の内容は以下のとおりです。",
    "order_line": "・{name} × {quantity}点　{subtotal}",
    "order_total": "合計 {total}、現在のステータスは「{status}」です。",
    "order_refunded": "このうち{refunded}は返金済みです。",
    "order_shipment": "お荷物の状況は「{status}」です。",
    "order_shipment_dated": "お荷物の状況は「{status}」で、お届け予定日は{date}です。",
    "orders_head": "お客様のご注文（新しい順）は以下のとおりです。",
    "orders_line": "・{number}（{placed}ご注文）{total}　{status}",
    "orders_more": "ほか{count}件のご注文がございます。",
    "orders_none": "ご指定の条件に該当するご注文は見つかりませんでした。",
    "ask_order_number": (
        "お調べするご注文を特定できませんでした。お手数ですが、ご注文番号"
        "（例: ORD-1234）をお知らせいただけますでしょうか。"
    ),
    "track_fallback": (
        "現在、配送業者のシステムから最新の情報を取得できないため、当店の記録にある状況をお知らせいたします。"
    ),
    "track_status": (
        "{order_ref}のお荷物（{carrier}、お問い合わせ番号 {tracking}）は、現在「{status}」です。"
    ),
    "track_status_untracked": "{order_ref}のお荷物は、現在「{status}」です。",
    "track_scheduled": "お届け予定日は{date}です。",
    "track_event": "最終更新: {time}{place}。",
    "track_event_status": "最新の状況: 「{status}」（{time}{place}）。",
    "track_absent": (
        "再配達をご希望の場合は、ご希望の日付と時間帯をお知らせいただければ手配いたします。"
    ),
    "redelivery_booked": "{order_ref}のお荷物の再配達を、{date} {window}で手配いたしました。",
    "date_changed": "{order_ref}のお届け日を、{previous}から{date}に変更いたしました。",
    "date_changed_to": "{order_ref}のお届け日を、{date}に変更いたしました。",
    "payment_authorized": (
        "{order_ref}のお支払い（{method}）は、現在{authorized}のお支払い枠の確保（与信）のみで、"
        "請求はまだ確定しておりません。"
    ),
    "payment_captured": "{order_ref}のお支払い（{method}）は、{captured}の決済が完了しております。",
    "payment_partially_refunded": (
        "{order_ref}のお支払い（{method}）{captured}のうち、{refunded}を返金済みです。"
    ),
    "payment_refunded": "{order_ref}のお支払い（{method}）は、{refunded}を全額返金済みです。",
    "payment_refunded_open": "{order_ref}のお支払い（{method}）は、全額返金済みです。",
    "payment_failed": (
        "{order_ref}のお支払い（{method}）は、決済が完了しておりません。"
        "お手数ですが、お支払い方法をご確認ください。"
    ),
    "payment_voided": (
        "{order_ref}のお支払い（{method}）は、お支払い枠の確保（与信）が取り消されており、"
        "請求は発生しておりません。"
    ),
    "payment_unknown": "{order_ref}のお支払い（{method}）の状況を確認いたしました。",
    "coupon_issued": (
        "お詫びのしるしとして、次回のお買い物でご利用いただける{value}クーポンを発行いたしました。"
        "クーポンコード: {code}（有効期限: {expires}まで）"
    ),
    "coupon_issued_open": (
        "お詫びのしるしとして、次回のお買い物でご利用いただける{value}クーポンを発行いたしました。"
        "クーポンコード: {code}"
    ),
    "faq_answer": "{topic}について、ご案内いたします。\n{answer}",
    "faq_none": (
        "申し訳ございませんが、お問い合わせの内容について、すぐにご案内できる情報が見つかりませんでした。"
    ),
    "pending_refund": (
        "{order_ref}の返金（{amount}）のご依頼を承りました。現在、担当スタッフが内容を確認しております。"
        "確認が済み次第、改めてご連絡いたします。"
    ),
    "pending_refund_open": (
        "{order_ref}の返金のご依頼を承りました。現在、担当スタッフが内容を確認しております。"
        "確認が済み次第、改めてご連絡いたします。"
    ),
    "pending_capped": (
        "なお、返金できる金額はお支払いいただいた金額が上限となりますため、{amount}にてご依頼を承っております。"
    ),
    "pending_cancel": (
        "{order_ref}のキャンセルのご依頼を承りました。現在、担当スタッフが内容を確認しております。"
        "確認が済み次第、改めてご連絡いたします。"
    ),
    "refund_done": (
        "{order_ref}について、{amount}の返金手続きが完了いたしました。"
        "お支払い時と同じ方法で返金され、反映までに数日かかる場合がございます。"
    ),
    "refund_done_open": (
        "{order_ref}について、返金手続きが完了いたしました。"
        "お支払い時と同じ方法で返金され、反映までに数日かかる場合がございます。"
    ),
    "cancel_done": "{order_ref}のキャンセルが完了いたしました。",
    "authorization_released": (
        "クレジットカードのお支払い枠の確保（与信）も解除いたしましたので、ご請求は発生いたしません。"
    ),
    "declined": "誠に申し訳ございませんが、{target}はお受けすることができませんでした。",
    "declined_reason": "理由: {reason}",
    "taken_over": "{target}については、担当スタッフが直接対応いたします。",
    "refused_at_execution": (
        "{target}は、お手続きの時点でご注文の状況が変わっていたため、完了できませんでした。"
    ),
    "action_failed": (
        "{target}の処理中に問題が発生したため、お手続きを完了できませんでした。"
        "担当スタッフが確認のうえ、改めてご連絡いたします。"
    ),
    "tool_error": (
        "{tool}は、システムの都合により現在お手続きできませんでした。"
        "恐れ入りますが、しばらくしてから改めてお問い合わせください。"
    ),
    "not_checked": (
        "申し訳ございませんが、現在{labels}を確認することができませんでした。"
        "確認でき次第、改めてご連絡いたします。"
    ),
    "ask_details": (
        "お問い合わせの内容を確認いたしました。恐れ入りますが、ご注文番号など、"
        "もう少し詳しい内容をお知らせいただけますでしょうか。"
    ),
    "ask_details_named": (
        "{order_ref}についてのお問い合わせを確認いたしました。恐れ入りますが、"
        "どのようなご用件か、もう少し詳しくお知らせいただけますでしょうか。"
    ),
    "handover": "担当スタッフにお引き継ぎいたしました。担当者より改めてご連絡いたします。",
    "follow_up": "担当スタッフが内容を確認のうえ、改めてご連絡いたします。",
    "held": "{tool}につきましては、担当スタッフが内容を確認のうえ、改めてご連絡いたします。",
    **RETAIL["ja"],
}

EN: Final[Table] = {
    "greeting": "Hello, and thank you for contacting NetShop customer support.",
    "closing": (
        "If there is anything else we can help with, just reply to this message. "
        "Thank you for shopping with NetShop."
    ),
    "order_head": "Here are the details of {order_ref} (placed {placed}):",
    "order_line": "- {name} × {quantity}: {subtotal}",
    "order_total": "Total: {total}. Current status: {status}.",
    "order_refunded": "{refunded} of this has been refunded.",
    "order_shipment": "Delivery status: {status}.",
    "order_shipment_dated": "Delivery status: {status}, scheduled for {date}.",
    "orders_head": "Here are your orders, newest first:",
    "orders_line": "- {number} (placed {placed}): {total}, {status}",
    "orders_more": "…and {count} more.",
    "orders_none": "We could not find any orders matching your request.",
    "ask_order_number": (
        "We couldn't tell which order you mean. Could you send us the order number "
        "(for example ORD-1234)?"
    ),
    "track_fallback": (
        "We can't reach the carrier's tracking system right now, so this is the latest "
        "status in our own records."
    ),
    "track_status": (
        "Your parcel for {order_ref} ({carrier}, tracking number {tracking}) is currently {status}."
    ),
    "track_status_untracked": "Your parcel for {order_ref} is currently {status}.",
    "track_scheduled": "It is scheduled to arrive on {date}.",
    "track_event": "Last update: {time}{place}.",
    "track_event_status": "Latest update: {status} ({time}{place}).",
    "track_absent": (
        "If you tell us a date and time window that suits you, we will arrange a redelivery."
    ),
    "redelivery_booked": (
        "We have booked a redelivery of your parcel for {order_ref} on {date}, {window}."
    ),
    "date_changed": "We have changed the delivery date of {order_ref} from {previous} to {date}.",
    "date_changed_to": "We have changed the delivery date of {order_ref} to {date}.",
    "payment_authorized": (
        "For {order_ref} ({method}), {authorized} is reserved on your card; "
        "you have not been charged yet."
    ),
    "payment_captured": "Your payment of {captured} for {order_ref} ({method}) is complete.",
    "payment_partially_refunded": (
        "Of your payment of {captured} for {order_ref} ({method}), {refunded} has been refunded."
    ),
    "payment_refunded": (
        "Your payment for {order_ref} ({method}) has been refunded in full ({refunded})."
    ),
    "payment_refunded_open": "Your payment for {order_ref} ({method}) has been refunded in full.",
    "payment_failed": (
        "The payment for {order_ref} ({method}) did not go through. "
        "Could you check your payment method?"
    ),
    "payment_voided": (
        "The reservation on your payment for {order_ref} ({method}) has been released; "
        "you have not been charged."
    ),
    "payment_unknown": "We have checked the payment for {order_ref} ({method}).",
    "coupon_issued": (
        "As an apology, we have issued you a {value}coupon for your next order. "
        "Coupon code: {code} (valid until {expires})."
    ),
    "coupon_issued_open": (
        "As an apology, we have issued you a {value}coupon for your next order. "
        "Coupon code: {code}."
    ),
    "faq_answer": "About {topic}:\n{answer}",
    "faq_none": "I'm sorry, we couldn't find an answer to your question in our help pages.",
    "pending_refund": (
        "We have received your request for a refund of {amount} on {order_ref}. A member of our "
        "staff is reviewing it and will get back to you shortly."
    ),
    "pending_refund_open": (
        "We have received your refund request for {order_ref}. A member of our staff is "
        "reviewing it and will get back to you shortly."
    ),
    "pending_capped": (
        "Please note that a refund can be at most the amount you paid, so the request is for "
        "{amount}."
    ),
    "pending_cancel": (
        "We have received your request to cancel {order_ref}. A member of our staff is "
        "reviewing it and will get back to you shortly."
    ),
    "refund_done": (
        "We have refunded {amount} for {order_ref}. The money goes back to your original "
        "payment method and may take a few days to appear."
    ),
    "refund_done_open": (
        "We have issued the refund for {order_ref}. The money goes back to your original "
        "payment method and may take a few days to appear."
    ),
    "cancel_done": "{order_ref} has been cancelled.",
    "authorization_released": (
        "The hold on your card has been released, so you will not be charged."
    ),
    "declined": "We're sorry, but we were unable to approve {target}.",
    "declined_reason": "Reason: {reason}",
    "taken_over": "A member of our staff will handle {target} personally.",
    "refused_at_execution": (
        "We could not complete {target} because the order had changed by the time we processed it."
    ),
    "action_failed": (
        "A problem occurred while processing {target}, so it could not be completed. "
        "A member of our staff will look into it and contact you."
    ),
    "tool_error": (
        "We couldn't process {tool} right now because of a system problem. "
        "Please try again a little later."
    ),
    "not_checked": (
        "I'm sorry, we couldn't check {labels} right now. We will follow up as soon as we can."
    ),
    "ask_details": (
        "Thank you for your message. Could you tell us a little more, such as the order "
        "number, so that we can look into it?"
    ),
    "ask_details_named": (
        "Thank you for your message about {order_ref}. Could you tell us a little more about "
        "what you need, so that we can look into it?"
    ),
    "handover": (
        "I've passed your inquiry to a member of our staff, who will contact you directly."
    ),
    "follow_up": "A member of our staff will look into this and contact you.",
    "held": "A member of our staff will check {tool} and contact you before going ahead.",
    **RETAIL["en"],
}

PHRASES: Final[dict[str, Table]] = {"ja": JA, "en": EN}


def say(lang: str, key: str, **fields: object) -> str:
    """The sentence ``key`` in ``lang`` with its fields filled in."""
    return fill(lang, PHRASES[lang][key], **fields)


def fill(lang: str, template: str, **fields: object) -> str:
    """``template`` filled in; an English sentence starts with a capital whatever came first."""
    text = template.format(**fields)
    return text[:1].upper() + text[1:] if lang == "en" else text
