"""The building blocks of the offline model's vocabulary.

A cue is a regular expression that, when it matches a sentence, adds its weight to one
intent. Its level says how decisive it is:

- REQUEST: an explicit ask to act ("返金してほしい", "cancel my order");
- ASK: a question or a phrase specific to the intent ("今どこ", "has my refund gone through");
- HINT: a situation or a bare mention that supports an intent ("不在", "broken", "refund");
- VETO: a negative weight for a reading that a cue would otherwise get wrong.

FAQ topics ("返品ポリシー", "payment methods") are ASK cues for the FAQ intents; in a
sentence with a topic and nothing that points at the customer's own order, the
transactional cues are damped: "何日以内なら返品できますか" asks about policy, not a refund.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, get_args

from agents.cards import agent_for_skill, dependencies
from agents.graph.schemas import AGENT_NAMES, AgentName, Intent


class Level(IntEnum):
    VETO = 0
    HINT = 1
    ASK = 2
    REQUEST = 3


@dataclass(frozen=True)
class Cue:
    pattern: re.Pattern[str]
    intent: Intent
    weight: float
    level: Level
    faq_topic: bool = False


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def request(pattern: str, intent: Intent, weight: float = 3.5) -> Cue:
    return Cue(_compile(pattern), intent, weight, Level.REQUEST)


def ask(pattern: str, intent: Intent, weight: float = 3.0) -> Cue:
    return Cue(_compile(pattern), intent, weight, Level.ASK)


def hint(pattern: str, intent: Intent, weight: float = 1.5) -> Cue:
    return Cue(_compile(pattern), intent, weight, Level.HINT)


def veto(pattern: str, intent: Intent, weight: float = 3.0) -> Cue:
    return Cue(_compile(pattern), intent, -weight, Level.VETO)


def topic(pattern: str, intent: Intent, weight: float = 3.0) -> Cue:
    return Cue(_compile(pattern), intent, weight, Level.ASK, faq_topic=True)


FAQ_TOPIC_INTENTS: frozenset[Intent] = frozenset({"search_faq", "answer_general_question"})


def agents_for_intent(intent: Intent) -> tuple[AgentName, ...]:
    """The agents an intent needs, from the cards (SPEC 3.1): an intent is named by the skill
    it needs, the card declaring that skill owns it, and that card's dependencies run first."""
    agent = agent_for_skill(intent)
    if agent is None:
        raise LookupError(f"no agent card declares the skill {intent!r}")
    needed = {*dependencies(agent), agent}
    return tuple(a for a in AGENT_NAMES if a in needed)


AGENTS_BY_INTENT: Final[Mapping[Intent, tuple[AgentName, ...]]] = {
    intent: agents_for_intent(intent) for intent in get_args(Intent)
}

# Words that tie a sentence to the customer's own order, parcel or payment, or that ask
# to act: with one of them a sentence is not a general question even if it names a topic.
ANCHORS: tuple[re.Pattern[str], ...] = tuple(
    _compile(pattern)
    for pattern in (
        r"(?<![a-z])ord[\s\-_#:.]*\d{3,}|(?<!\d)\d{4}-?\d{4}-?\d{4}(?!\d)",
        r"注文した|購入した|買った|頼んだ|届いた|受け取った|(?:私|わたし|僕|うち)の(?:注文|荷物)|(?:この|その|あの)(?:注文|荷物|商品)",
        r"(?:して|を)(?:ほしい|欲しい|ください|下さい|お願い)|して(?:$|[、,!！]|くれ|もらえ|いただ)|希望します"
        r"|(?:キャンセル|返金|返品|再配達|変更|交換|取り消し?|払い戻し?)(?:を)?したい",
        r"\bmy (?:order|orders|package|parcel|delivery|item|items|stuff|shipment|refund|payment"
        r"|card|purchase|money|box|things)\b",
        r"\bi (?:ordered|bought|purchased|received|paid|was charged|got)\b"
        r"|\b(?:this|that) (?:order|package|parcel|item)\b",
        r"\b(?:please|i want|i'd like|i would like"
        r"|i need)\b(?! (?:to )?(?:know|ask|check|understand|find out|tell|let me"
        r" know|explain|advise))",
    )
)

INJECTION: tuple[re.Pattern[str], ...] = tuple(
    _compile(pattern)
    for pattern in (
        r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instructions?|rules?|prompts?"
        r"|guidelines?|polic(?:y|ies)|limits?|restrictions?|everything)\b",
        r"\b(?:i am|i'm|this is|speaking as|as) (?:the |an? |your )?(?:system |site |shop "
        r"|store )?(?:admin|administrator|developer|root|superuser|sysadmin)\b",
        r"\bsystem (?:prompt|message|override|instruction)s?\b|\bdeveloper mode\b|\bjailbreak\b"
        r"|\byou are now\b|\bpretend (?:to be|you are)\b|\bnew instructions?\b|\bbypass\b|\bsudo\b",
        r"\b(?:approve|authori[sz]e) (?:it|this|that|the refund|the cancellation) yourself\b"
        r"|\bi (?:work|am) (?:for|at|with|on) (?:the )?netshop(?: support| staff| team)?\b"
        r"|\bi am (?:a |one of the )?netshop (?:staff|employee|support)\b",
        r"\bwithout (?:any |the )?(?:approval|confirmation|verification|checks?|review)\b"
        r"|\bskip (?:the |any )?(?:approval|verification|checks?|review)\b"
        r"|\bexecute (?:it |this |that )?(?:immediately|right now|now)\b|\bimmediately execute\b",
        r"システム管理者|管理者(?:です|だ|として|権限|の権限|モード)|開発者(?:です|だ|として|モード)|運営(?:者|側)(?:です|の者)",
        r"即時実行|即座に実行|直ちに実行|すぐに?実行|今すぐ実行|強制(?:的に)?(?:実行|返金|処理)",
        r"(?:指示|ルール|命令|設定|制限|制約|プロンプト|ポリシー|規則)(?:を|は)?(?:全て|すべて)?(?:無視|忘れ|解除)"
        r"|承認(?:は|も)?(?:なし|無し|不要|いらない|要らない|をスキップ|を省略|せず|を飛ばし)"
        r"|上限(?:を)?(?:無視|解除)|システムプロンプト|あなたは(?:今から|これから)",
        r"(?:NetShop|ネットショップ|御社|貴社)の?(?:スタッフ|社員|従業員|担当者|サポート(?:担当)?)(?:です|だ|として)",
    )
)

# Cues that read the same in both languages (order numbers are written in Latin letters).
SHARED_CUES: tuple[Cue, ...] = (
    # A named order is looked up, not searched for: "先週注文したORD-1001" is no history query.
    veto(r"(?<![a-z])ord[\s\-_#:.]*\d{3,}", "search_orders", 1.5),
)
