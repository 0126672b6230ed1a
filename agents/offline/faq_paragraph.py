"""The FAQ's part of a reply: the entry that fits the problem, told, not quoted, and trimmed.

Three failures this prevents: a broken item answered with the "marked delivered but not
received" entry (an entry about one problem is used only for that problem); the entry's
title quoted back ("「注文をキャンセルしたい。」について..."; the topic is named in the
shop's own words instead); and FAQ text that asks for what the customer already gave
("send support your order number") or to contact the support the customer is talking to.
What is left of the answer is shown only if it still says something. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from agents.offline.choosing import claims_not_arrived
from agents.offline.understanding.text import prepare

# Problems an FAQ entry may be about: (the customer's words for it, the entry's words for it).
PROBLEMS: Final = {
    "damaged": (
        r"壊れ|破損|割れ|欠け|傷|不良|故障|broken|damaged|defective|cracked|chipped|faulty|torn",
        r"破損|不良|damaged|defective",
    ),
    "not_received": (None, r"配達完了になっているのに|says delivered but"),
    "double_charge": (
        r"二重|2重|二回|2回|twice|two charges|double|duplicate",
        r"二重|two charges",
    ),
    "payment_failed": (
        r"決済(?:が)?(?:でき|通ら|失敗|エラー)|カード(?:が)?(?:使え|通ら)|declined|payment failed"
        r"|card (?:was )?(?:rejected|refused)|checkout error",
        r"決済ができない|payment failed",
    ),
    "missed_delivery": (
        r"不在|再配達|missed (?:the |my )?delivery|redeliver|nobody (?:was )?home",
        r"不在で|missed the delivery",
    ),
}
TOPIC: Final = {
    "ja": {
        "returns": "返品・交換・返金",
        "delivery": "配送",
        "payment": "お支払い",
        "account": "アカウント",
        "coupons": "クーポン",
        "orders": "ご注文",
        "other": "お問い合わせの件",
    },
    "en": {
        "returns": "returns, exchanges and refunds",
        "delivery": "delivery",
        "payment": "payment",
        "account": "your account",
        "coupons": "coupons",
        "orders": "orders",
        "other": "your question",
    },
}
# What a customer who gave their order number, writing to support, is not asked again.
_GIVEN_ORDER: Final = {
    "ja": (
        (r"注文番号と", ""),
        (r"注文番号を添えて", ""),
        (r"サポートまで注文番号をお知らせください。", ""),
    ),
    "en": (
        (r"with your order number and ", "with "),
        (r" with the order number", ""),
        (r"send support your order number and ", ""),
    ),
}
_TO_SUPPORT: Final = {
    "ja": (r"サポートまでご連絡ください。",),
    "en": (r"Please contact support\.",),
}
_SENTENCE: Final = re.compile(r"[^。.!?！？]+[。.!?！？]?")


def problems_in(inquiry: str) -> set[str]:
    """The problems the customer writes about."""
    text = prepare(inquiry).lower()
    found = {name for name, (cue, _) in PROBLEMS.items() if cue and re.search(cue, text)}
    if claims_not_arrived(inquiry):
        found.add("not_received")
    return found


def entry_problem(entry: Mapping[str, Any]) -> str | None:
    question = str(entry.get("question") or "").lower()
    return next((name for name, (_, cue) in PROBLEMS.items() if re.search(cue, question)), None)


def choose_entry(entries: Sequence[Mapping[str, Any]], inquiry: str) -> Mapping[str, Any] | None:
    """The entry for the customer's problem if there is one, else the best entry about no
    particular problem; never an entry about another problem than theirs."""
    problems = problems_in(inquiry)
    usable = [e for e in entries if e.get("answer") and entry_problem(e) in (problems | {None})]
    for_problem = [e for e in usable if entry_problem(e) in problems]
    best = for_problem or usable
    return best[0] if best else None


def faq_text(lang: str, entry: Mapping[str, Any], *, order_known: bool) -> str:
    """The entry's answer without what the customer needs not be asked ("" if nothing is left)."""
    answer = str(entry.get("answer") or "")
    rules = [(cue, "") for cue in _TO_SUPPORT[lang]]
    if order_known:
        rules = [*_GIVEN_ORDER[lang], *rules]
    for cue, replacement in rules:
        answer = re.sub(cue, replacement, answer)
    sentences = [s.strip() for s in _SENTENCE.findall(answer) if s.strip(" 　。.")]
    return ("" if lang == "ja" else " ").join(sentences)


def topic(lang: str, entry: Mapping[str, Any]) -> str:
    return TOPIC[lang].get(str(entry.get("category") or ""), TOPIC[lang]["other"])
