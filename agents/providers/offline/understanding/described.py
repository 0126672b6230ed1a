"""What the customer says about the order they mean, when they give no order number.

"It says out for delivery", "the towel arrived damaged", 「扇風機が壊れて届きました」: the
state they see the order in and the item they name are facts to match against their orders
(``agents.support.grounding``), so an order that does not fit the description is never taken for
it; and which order numbers a clause asking for a refund or a cancellation names. Pure.
"""

from __future__ import annotations

import re
from typing import Final

from agents.providers.offline.understanding.claims import claims_not_arrived
from agents.providers.offline.understanding.entities import amounts, order_numbers
from agents.providers.offline.understanding.typos import prepare
from agents.support.grounding.described import (
    GENERIC_WORDS,
    JA_NOUN,
    DescribedState,
    OrderReference,
)

_BROKEN_EN: Final = (
    r"(?:broken|damaged|cracked|defective|chipped|torn|faulty|scratched|dented|smashed"
    r"|shattered|ripped|stained|leaking|not working)"
)


_BROKEN_JA: Final = r"(?:壊れ|こわれ|破損|割れ|欠け|傷|キズ|不良|故障|動かな|汚れ|破れ)"


# The state the customer sees their order in, by the words they use for it.
_STATES: Final = (
    (
        DescribedState.DELIVERED,
        rf"\b(?:says|shows?|showing|marked(?: as)?|listed as|status (?:is|says)|tracking says)"
        rf" (?:it(?:'s| was| is| has been)? )?(?:as )?delivered\b"
        rf"|\b(?:arrived|came|delivered|showed up) {_BROKEN_EN}|\b{_BROKEN_EN} (?:on arrival|when"
        rf" it arrived)|配達(?:済み|完了)|配達済|届きました|届いた|受け取(?:った|りました)"
        rf"|{_BROKEN_JA}\S{{0,6}}(?:届|到着)",
    ),
    (
        DescribedState.ON_ITS_WAY,
        r"\bout for delivery\b|\bon (?:its|the) way\b|\bin transit\b|\bwas shipped\b"
        r"|\b(?:due|arriving|coming|expected|supposed to (?:arrive|come)) (?:today|tomorrow)\b"
        r"|(?:今日|本日|明日)(?:届く|到着|配達|着く)(?:予定)?"
        r"|\bhas shipped\b|\bhas been shipped\b|配達中|配送中|発送済|輸送中"
        r"|(?:発送|出荷)され(?:た|まし)",
    ),
    (
        DescribedState.NOT_SHIPPED,
        r"\b(?:hasn't|has not|not yet|not|never|still not) (?:been )?shipped\b"
        r"|(?:発送|出荷)(?:されて(?:い)?ない|されていません|前)|まだ(?:発送|出荷)",
    ),
    (DescribedState.CHARGED, r"\bcharged\b|\bcharges?\b|\bbilled\b|請求|引き落と|決済され"),
    (
        DescribedState.PAYMENT_FAILED,
        r"\bpayment (?:has )?(?:failed|was declined|didn't go through|did not go through)"
        r"|\bcard (?:was |got |is being )?(?:declined|rejected|refused)|checkout (?:error|failed)"
        r"|決済(?:が|に)?(?:でき(?:ない|ません)|失敗|エラー|通らな)|カードが(?:使えな|通らな)",
    ),
)


# "Was delivered yesterday": a delivery the customer reports, unless they say it has not come.
_REPORTED_DELIVERED: Final = (
    r"\b(?:was|got|been) delivered\b|\bi (?:received|got) (?:it|my|the)\b"
    r"|\barrived (?:yesterday|today|this morning|on)\b"
)


# The item a complaint names: "my fan arrived broken", "the broken mug", 「扇風機が壊れて」.
_ITEM_EN: Final = (
    re.compile(
        rf"\b(?:my|the|a|an|one|this|that) ((?:[a-z\-]+ ){{0,2}}?[a-z\-]+) (?:arrived|came|is"
        rf"|was|got|has been|showed up|looks)(?: (?:totally|completely|all|badly))? {_BROKEN_EN}"
    ),
    re.compile(rf"\b{_BROKEN_EN} ([a-z\-]+)\b"),
)


_ITEM_JA: Final = re.compile(rf"([^\s、。！？!?]{{1,16}}?)(?:が|は|も|の)\S{{0,3}}{_BROKEN_JA}")


# A number standing alone ("cancel 3022", 「5101の扇子」, "#3082"): perhaps an order's number
# without its prefix, perhaps an amount; never a price (円, yen, ¥), a date or a tracking number.
# A comma or full stop after it ends the clause ("cancel 3022, please"); before a digit it is
# part of the number ("1,200").
_BARE_NUMBER: Final = re.compile(
    r"(?<![\d\-/:.,¥￥$])(\d{3,6})(?![\d\-/:]|[.,]\d|\s*(?:円|yen|jpy))"
)


def describe(text: str) -> OrderReference:
    """What ``text`` says about the order it is about (nothing, for most texts)."""
    prepared = prepare(text)
    lowered = prepared.lower()
    states = {state for state, cue in _STATES if re.search(cue, lowered)}
    if re.search(_REPORTED_DELIVERED, lowered) and not claims_not_arrived(lowered):
        states.add(DescribedState.DELIVERED)
    if DescribedState.PAYMENT_FAILED in states:
        states.discard(DescribedState.CHARGED)
    if DescribedState.NOT_SHIPPED in states:
        states -= {DescribedState.ON_ITS_WAY, DescribedState.DELIVERED}
    return OrderReference(
        states=frozenset(states),
        item=_named_item(lowered),
        words=lowered,
        numbers=frozenset(int(n) for n in _BARE_NUMBER.findall(lowered)),
        amounts=frozenset(amounts(prepared)),
    )


def _named_item(lowered: str) -> str:
    for pattern in _ITEM_EN:
        for match in pattern.finditer(lowered):
            words = [w for w in match.group(1).split() if w not in GENERIC_WORDS]
            if words:
                return " ".join(words)
    for match in _ITEM_JA.finditer(lowered):
        nouns = [str(n) for n in JA_NOUN.findall(match.group(1)) if n not in GENERIC_WORDS]
        if nouns:
            return nouns[-1]
    return ""


# Where one request ends and the next begins: "ORD-1002 の荷物はどこ？あと ORD-1003 の返金も".
_CLAUSE = re.compile(
    r"[。！？!?\n;；]|、?(?:あと|それと|それから|ついでに)"
    r"|\b(?:and also|also|plus|and then)\b|,\s*and\b"
)


REFUND_CUE: Final = r"返金|払い戻|払戻|refund|money back|reimburs"


CANCEL_CUE: Final = r"キャンセル|取り消|取消|cancel"


PAYMENT_CUE: Final = r"支払|決済|請求|payment|charge|paid|billed"


def orders_named_for(text: str, cue: str) -> list[str]:
    """The order numbers named in the parts of ``text`` that ask for ``cue`` (the refund in
    "where is ORD-1002? also refund ORD-1003" -> ["ORD-1003"]); [] when no part does."""
    named: list[str] = []
    for clause in _CLAUSE.split(prepare(text)):
        if re.search(cue, clause, re.IGNORECASE):
            named += [number for number in order_numbers(clause) if number not in named]
    return named
