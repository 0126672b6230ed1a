"""The offline model's questions to the customer, and its words for a hand-over with a reason.

A question is answerable in one line: what is missing, the options numbered (order number
and a short description), and how to answer ("reply with the number or the order number").
The brief is what ``agents.team.graph.supervisor.ask`` builds. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from agents.providers.offline import formatting as fmt
from agents.providers.offline.labels import TOOL, word

Table = dict[str, str]

JA: Final[Table] = {
    "thanks": "お問い合わせいただき、ありがとうございます。",
    "which_order": "どちらのご注文についてのお問い合わせでしょうか。",
    "which_order_about": "「{about}」とのこと、どちらのご注文についてでしょうか。",
    "which_item": "どちらの商品についてのお問い合わせでしょうか。",
    "which_date": "ご希望の日付をお知らせください（例: 12月5日）。",
    "which_time_window": (
        "ご希望の時間帯をお知らせください（08-12、12-14、14-16、16-18、18-21）。"
    ),
    "which_address": (
        "新しいお届け先のご住所を、郵便番号（例: 〒104-0061）、都道府県、"
        "市区町村・番地・建物名まで、お知らせいただけますでしょうか。"
    ),
    "which_other": "恐れ入りますが、もう少し詳しくお聞かせいただけますでしょうか。",
    "confirm": (
        "念のため確認させてください。{action}をご希望ということでよろしいでしょうか。"
        "よろしければ「はい」と、違う場合はご用件をもう少し詳しくお聞かせください。"
    ),
    "option": "{index}. {value}（{label}）",
    "option_bare": "{index}. {value}",
    "answer_how_order": "番号（{numbers}）または注文番号でお答えください。",
    "answer_how": "番号（{numbers}）でお答えください。",
    "claim": (
        "{order_ref}は配送業者の記録では配達済みとなっておりますが、お手元に届いていないとのこと、"
        "担当スタッフが配送業者に確認のうえ、改めてご連絡いたします。"
    ),
    "claim:charged_twice": (
        "当店の記録では{order_ref}のご請求は1回分のみとなっておりますが、二重に請求されているとのこと、"
        "担当スタッフが決済会社に確認のうえ、改めてご連絡いたします。"
    ),
    "claim:damaged_not_delivered": (
        "当店の記録では{order_ref}はまだお届け前となっておりますが、商品が破損していたとのこと、"
        "担当スタッフが確認のうえ、改めてご連絡いたします。"
    ),
    "claim:item_not_in_order": (
        "お知らせいただいた商品は{order_ref}のご注文内容に見当たりませんでした。"
        "担当スタッフが確認のうえ、改めてご連絡いたします。"
    ),
    "unsupported:address_change": (
        "お届け先住所の変更は担当スタッフが承ります。内容を確認のうえ、改めてご連絡いたします。"
    ),
    "unsupported:exchange": (
        "商品の交換（サイズ・色の変更）は担当スタッフが承ります。"
        "内容を確認のうえ、改めてご連絡いたします。"
    ),
    "unsupported:return_item": (
        "商品のご返送は担当スタッフがご案内いたします。内容を確認のうえ、改めてご連絡いたします。"
    ),
}

EN: Final[Table] = {
    "thanks": "Thank you for your message.",
    "which_order": "Which order is this about?",
    "which_order_about": "Which order is this about ({about})?",
    "which_item": "Which item is this about?",
    "which_date": "Which date would suit you (for example, Dec 5)?",
    "which_time_window": (
        "Which time window would suit you (08-12, 12-14, 14-16, 16-18 or 18-21)?"
    ),
    "which_address": (
        "Could you send us the new delivery address, with the postal code and prefecture "
        "(for example: 1-2-3 Ginza, Chuo-ku, Tokyo 104-0061)?"
    ),
    "which_other": "Could you tell us a little more about it?",
    "confirm": (
        "Just to be sure we understood: would you like us to go ahead with {action}? "
        'Reply "yes", or tell us a little more about what you need.'
    ),
    "option": "{index}. {value} ({label})",
    "option_bare": "{index}. {value}",
    "answer_how_order": "Please reply with the number ({numbers}) or the order number.",
    "answer_how": "Please reply with the number ({numbers}).",
    "claim": (
        "The carrier's records show {order_ref} as delivered, but you tell us it has not "
        "arrived: a member of our staff will check with the carrier and contact you."
    ),
    "claim:charged_twice": (
        "Our records show a single charge for {order_ref}, but you tell us you were charged "
        "twice: a member of our staff will check with the payment company and contact you."
    ),
    "claim:damaged_not_delivered": (
        "Our records show {order_ref} has not been delivered yet, but you tell us an item "
        "arrived damaged: a member of our staff will look into it and contact you."
    ),
    "claim:item_not_in_order": (
        "We could not find the item you mention in {order_ref}: a member of our staff will "
        "look into it and contact you."
    ),
    "unsupported:address_change": (
        "A member of our staff handles changes of the delivery address: they will look into "
        "it and contact you."
    ),
    "unsupported:exchange": (
        "A member of our staff handles exchanges for another size or colour: they will look "
        "into it and contact you."
    ),
    "unsupported:return_item": (
        "A member of our staff will arrange sending the item back and contact you."
    ),
}

PHRASES: Final[dict[str, Table]] = {"ja": JA, "en": EN}
# What a question may quote of the request ("about"): the offline model's own reasons, and
# their Japanese words (anything else a model wrote there is left out of the question).
ABOUT_JA: Final[Table] = {
    "parcel not delivered": "お荷物が届いていない",
    "damaged item": "商品の破損",
    "wrong item": "商品の間違い",
    "charged twice": "二重請求",
}


def _lang(brief: Mapping[str, Any]) -> str:
    return "en" if brief.get("language") == "en" else "ja"


def write_question(brief: Mapping[str, Any]) -> str:
    """The question to the customer, from the ``<ask>`` brief."""
    lang = _lang(brief)
    phrases = PHRASES[lang]
    slot = str(brief.get("slot") or "other")
    options = [o for o in brief.get("options") or [] if isinstance(o, Mapping) and o.get("value")]
    if slot == "intent":  # an unsure reading of a request to act, put back to the customer
        action = word(TOOL, lang, brief.get("about"), fallback="tool")
        return "\n".join([phrases["thanks"], phrases["confirm"].format(action=action)])
    lines = [phrases["thanks"], _asks(lang, slot, str(brief.get("about") or ""))]
    for index, option in enumerate(options, start=1):
        key = "option" if option.get("label") else "option_bare"
        lines.append(
            phrases[key].format(index=index, value=option["value"], label=option.get("label"))
        )
    if options:
        numbers = _alternatives(lang, [str(i) for i in range(1, len(options) + 1)])
        lines.append(
            phrases["answer_how_order" if slot == "order" else "answer_how"].format(numbers=numbers)
        )
    return "\n".join(lines)


def _alternatives(lang: str, items: list[str]) -> str:
    """["1", "2", "3"] -> "1、2、3" / "1, 2 or 3"."""
    if lang == "ja" or len(items) <= 1:
        return "、".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def _asks(lang: str, slot: str, about: str) -> str:
    phrases = PHRASES[lang]
    if slot == "order":
        known = about if about in ABOUT_JA else ""
        quoted = ABOUT_JA.get(known, "") if lang == "ja" else known
        return (
            phrases["which_order_about"].format(about=quoted) if quoted else phrases["which_order"]
        )
    return phrases.get(f"which_{slot}", phrases["which_other"])


def handover_sentence(lang: str, escalation: Mapping[str, Any]) -> str:
    """Why a person follows up, in the customer's words, for the reasons that have one."""
    phrases = PHRASES["en" if lang == "en" else "ja"]
    detail = escalation.get("detail") or {}
    reason = escalation.get("reason")
    if reason == "claim_contradicts_records":
        claim = phrases.get(f"claim:{detail.get('claim')}", phrases["claim"])
        return claim.format(order_ref=fmt.order_ref(lang, detail.get("order_number")))
    if reason == "unsupported_request":
        return phrases.get(f"unsupported:{detail.get('request')}", "")
    return ""
