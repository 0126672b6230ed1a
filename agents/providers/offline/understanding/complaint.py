"""Text that complains about the shop itself: dissatisfaction, anger, a threat to leave.

Not a classifier of requests: a complaint may ask for something (a refund, a date) or for
nothing at all, and it is routed by what it asks like any message. The flag says only that a
person should read the answer before the customer does (``agents.support.autonomy``), so it
leans to recall: a false alarm costs an operator one click, a missed one costs a customer.
Written against prepared text (NFKC, lower-cased).
"""

from __future__ import annotations

import re

COMPLAINT: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        # what the customer thinks of the shop
        r"\b(?:ridiculous|unacceptable|outrageous|appalling|disgraceful|disgusting|pathetic"
        r"|shameful|incompetent|useless|unbelievable|absurd|a disgrace|a scam|rip-?off)\b"
        r"|\b(?:is|'s|are|what) a joke\b",
        r"\b(?:terrible|awful|horrible|worst|dreadful|poor|lousy|bad)\s+(?:customer\s+)?"
        r"(?:service|support|experience|company|shop|store|treatment|handling)\b",
        r"\b(?:service|support|experience|company|shop|store|staff|team|handling)\s+"
        r"(?:is|was|has been|are|were)\s+(?:so |really |very |absolutely |just )?"
        r"(?:terrible|awful|horrible|dreadful|poor|lousy|bad|appalling|useless)\b",
        # how they feel
        r"\b(?:fed up|sick (?:and tired )?of|furious|livid|outraged|so angry|very angry"
        r"|really angry|fuming|had enough|beyond frustrat\w*|extremely frustrat\w*"
        r"|very disappointed|so disappointed|deeply disappointed|extremely disappointed)\b",
        # what they say of the relation
        r"\b(?:complain(?:t|ts|ing)?|grievance)\b",
        r"\b(?:never|won'?t|will not) (?:ever )?(?:order|buy|shop|purchase)\w*"
        r" (?:from|with|here|at)\b",
        r"\bnothing (?:ever )?works\b|\byou people\b|\bwaste of (?:my )?time\b"
        r"|\bhow many (?:more )?times (?:do|must|have|should|will|did) (?:i|we)\b"
        r"|\bstill (?:no|not) (?:answer|reply|response)\b",
        r"\b(?:speak|talk) to (?:your |a )?(?:manager|supervisor)\b",
        # Japanese
        # 「ひどい」 of the shop, not of the weather: the word ends a sentence or names a
        # handling ("ひどい対応", "ひどいです"), never "ひどい雨"
        r"(?:ひど|酷)(?:い|すぎ)(?:です|でした|ね|よ|な|対応|話|扱い|サービス|[!！。]|$)|最悪|ふざけ|いい加減に|いいかげんに|許せない|信じられない|ありえない|あり得ない",
        r"クレーム|苦情|不満|腹が立|腹立たし|頭にき|怒って|憤|がっかり|失望|うんざり",
        r"二度と(?:利用|注文|買|購入|頼)|対応が(?:悪|遅|ひど|最悪|雑)|誠意が|責任者を|上の者を|上司を",
        r"何度(?:も|目)(?:言|連絡|問い合わせ|お願い|電話)",
    )
)


def complaint_suspected(prepared: str) -> bool:
    """Whether the text complains about the shop (its service, its people, the experience)."""
    return any(pattern.search(prepared) for pattern in COMPLAINT)
