"""Whether a customer's reply to an AI answer says it missed the point (issue 25, part 3).

"That's not what I asked", 「そういうことではなく」, 「質問の答えになっていません」: the
customer tells us the answer was about something else. Such a reply counts as "not solved",
as the button does. The cues are narrow on purpose: a reply about a different problem
("that's not what I ordered", 「注文したものと違います」), or one that only uses the same
words ("I haven't heard from the carrier", 「まだ何も聞いていません」), must not pull a person
in. Only applied to a reply that follows an AI answer
(``agents.support.escalations.customer_feedback``).
"""

from __future__ import annotations

import re

from agents.support.text import normalize

# English, on the lower-cased NFKC text with ASCII apostrophes. "asked for" is left out: "that's
# not what I asked for" is as often about an item as about an answer.
_THAT = r"(?:that|this|it|which)(?:'s| is| was)?"
_ENGLISH = re.compile(
    "|".join(
        (
            r"\bnot what i(?:'m| am| was)? (?:asked|asking|meant|mean|said|wrote)\b(?! for)",
            r"\bnot what i (?:wanted|want|need|needed) to know\b",
            r"\bnot (?:my|the) question\b",
            r"\b(?:you|u) (?:didn't|did not|don't|do not|haven't|have not|never|aren't|are not|"
            r"didnt|dont|havent|arent) (?:even )?(?:answer(?:ed|ing)?|address(?:ed|ing)?|"
            r"read(?:ing)?|understand|underst[oa]od|get|got) (?:my|the|what i) "
            r"(?:question|point|message|asked|problem)",
            rf"\b{_THAT} (?:doesn't|does not|didn't|did not|doesnt|didnt) answer (?:my|the) "
            r"question",
            r"\b(?:you|u) (?:misunderstood|misread|missed the point)",
            r"\bmiss(?:ed|ing|es) the point\b",
            rf"\b{_THAT} (?:irrelevant|off[- ]topic|beside the point)\b",
            r"\bi (?:didn't|did not|never|didnt) ask (?:about|that|this)\b",
            r"\bread my (?:question|message) again\b",
            r"\bthat wasn't my question\b",
        )
    )
)

# Japanese, on the NFKC text. 聞く is also "to hear": "I haven't heard" (まだ聞いていません) is no
# complaint about the answer, so "I didn't ask that" needs its object (それは / そんなこと).
_JAPANESE = re.compile(
    "|".join(
        (
            r"(?:そういう|そうゆう|そんな)(?:こと|事|意味|話)(?:では|じゃ|でわ)(?:なく|ない|ありません)",
            r"(?:^|[、。！？\s])そう(?:では|じゃ)(?:なく(?!て?(?:良|よ)かった)|ない(?:です)?(?:[、。！？\s]|$))",
            r"(?:答え|回答|返答|返事)になって(?:い)?(?:ない|ません|なく)",
            r"質問に(?:答えて|回答して|お答えいただけて)(?:い)?(?:ない|ません|もらえて(?:い)?ない)",
            r"(?:質問|聞いたこと|聞いている(?:こと|の)|尋ねたこと)(?:と|から)(?:違|ちが|ずれ|外れ)",
            r"(?:それ|そんなこと|そんな事|そこ)(?:は|を)?(?:聞いて|尋ねて|質問して)(?:い)?(?:ない|ません)",
            r"(?:的外れ|見当違い|見当ちがい|ピント(?:が)?ずれ|論点(?:が)?ずれ)",
            r"話が(?:かみ合|噛み合)って(?:い)?(?:ない|ません)",
            r"(?:質問|メッセージ)を(?:ちゃんと|よく|もう一度)?読んで",
        )
    )
)


def missed_the_point(text: str) -> bool:
    """Whether ``text`` tells the shop its answer was not about what the customer asked."""
    plain = normalize(text)
    return bool(_JAPANESE.search(plain) or _ENGLISH.search(plain.lower()))
