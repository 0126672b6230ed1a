"""What a help article is about, and what in its text a customer writing to support needs
not be told.

An article about one problem (a damaged item, a parcel marked delivered but not received) is
used only for that problem: the article says which by its topic tags, never by its wording,
so a manager may reword it freely. Its "send support your order number" and "contact
support" are cut for a customer who gave the number and is talking to support. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from agents.providers.offline.understanding.claims import says_not_received
from agents.providers.offline.understanding.typos import prepare
from agents.support.vocabulary import Skill
from netshop.knowledge.tags import ACTION_TAGS, PROBLEM_TAGS

# The problems a customer may write about, by the topic tag an article about it carries
# (``netshop.knowledge.tags.PROBLEM_TAGS``): the customer's words for each.
PROBLEMS: Final = {
    "damaged": (
        r"壊れ|破損|割れ|欠け|傷|不良|故障|broken|damaged|defective|cracked|chipped|faulty|torn"
    ),
    "double_charge": r"二重|2重|二回|2回|twice|two charges|double|duplicate",
    "payment_failed": (
        r"決済(?:が)?(?:でき|通ら|失敗|エラー)|カード(?:が)?(?:使え|通ら)|declined|payment failed"
        r"|card (?:was )?(?:rejected|refused)|checkout error"
    ),
    "coupon_not_applied": (
        r"クーポン.{0,12}(?:使えな|使えませ|(?:適用|反映|割引)され(?:てい|て)?(?:な|ませ)"
        r"|エラー|無効)|coupon.{0,40}?(?:n'?t|not|never)\s+(?:be\s+|been\s+|get\s+)?"
        r"(?:work|apply|applied|accepted|valid|go through)|coupon.{0,24}(?:invalid|rejected|error)"
    ),
    "missed_delivery": r"不在|再配達|missed (?:the |my )?delivery|redeliver|nobody (?:was )?home",
}
# "not_received" is read by ``claims.says_not_received`` (a claim, not a word list).


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
    found = {name for name, cue in PROBLEMS.items() if re.search(cue, text)}
    if says_not_received(inquiry):
        found.add("not_received")
    return found


def entry_problem(entry: Mapping[str, Any]) -> str | None:
    """The problem an article is about, by its topic tags; None for an article about no
    particular problem."""
    tags = entry.get("tags") or []
    return next((tag for tag in tags if tag in PROBLEM_TAGS), None)


# The topic tag of the article explaining how to ask for each action support carries out.
ARTICLE_OF_ACTION: Final[dict[str, str]] = {Skill.CANCEL_ORDER: "order_cancellation"}


def explains_action(entry: Mapping[str, Any], kinds: set[str]) -> bool:
    """Whether the article explains how to ask for one of the actions ``kinds`` (by its
    tags: the cancellation article carries ``order_cancellation``)."""
    tags = set(entry.get("tags") or []) & set(ACTION_TAGS)
    return any(ARTICLE_OF_ACTION.get(kind) in tags for kind in kinds)


# Problems whose conditions the shop's help (the FAQ) keeps: the agent checking the problem
# looks them up there too (``turns.payment.help_lookup``), so the reply states the help's.
HELPED_BY_FAQ: Final = frozenset({"coupon_not_applied"})
