"""What an FAQ entry is about, and what in its answer a customer writing to support needs
not be told.

An entry about one problem (a damaged item, a parcel marked delivered but not received) is
used only for that problem; its answer's "send support your order number" and "contact
support" are cut for a customer who gave the number and is talking to support. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from agents.providers.offline.understanding.claims import says_not_received
from agents.providers.offline.understanding.typos import prepare
from agents.support.vocabulary import Skill

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
    "coupon_not_applied": (
        r"クーポン.{0,12}(?:使えな|使えませ|(?:適用|反映|割引)され(?:てい|て)?(?:な|ませ)"
        r"|エラー|無効)|coupon.{0,40}?(?:n'?t|not|never)\s+(?:be\s+|been\s+|get\s+)?"
        r"(?:work|apply|applied|accepted|valid|go through)|coupon.{0,24}(?:invalid|rejected|error)",
        r"クーポンが使えません|coupon does not work",
    ),
    "missed_delivery": (
        r"不在|再配達|missed (?:the |my )?delivery|redeliver|nobody (?:was )?home",
        r"不在で|missed the delivery",
    ),
}


# What a customer who gave their order number, writing to support, is not asked again.
GIVEN_ORDER: Final = {
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


TO_SUPPORT: Final = {
    "ja": (r"サポートまでご連絡ください。",),
    "en": (r"Please contact support\.",),
}


def problems_in(inquiry: str) -> set[str]:
    """The problems the customer writes about."""
    text = prepare(inquiry).lower()
    found = {name for name, (cue, _) in PROBLEMS.items() if cue and re.search(cue, text)}
    if says_not_received(inquiry):
        found.add("not_received")
    return found


def entry_problem(entry: Mapping[str, Any]) -> str | None:
    question = str(entry.get("question") or "").lower()
    return next((name for name, (_, cue) in PROBLEMS.items() if re.search(cue, question)), None)


# FAQ entries that explain how to ask for an approval-gated action, by the action's kind.
ACTION_ENTRIES = {Skill.CANCEL_ORDER: r"キャンセルしたい|cancel an order"}


# Problems whose conditions the shop's help (the FAQ) keeps: the agent checking the problem
# looks them up there too (``turns.payment.help_lookup``), so the reply states the help's.
HELPED_BY_FAQ: Final = frozenset({"coupon_not_applied"})
