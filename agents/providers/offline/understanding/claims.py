"""A customer's claim that a parcel has not arrived, in either language.

The offline model weighs it when choosing which order a message is about (a parcel on its
way) and when the carrier's record says the opposite (a person looks). Written against
prepared text (NFKC, lower-cased).
"""

from __future__ import annotations

import re
from typing import Final

from agents.providers.offline.understanding.typos import prepare

NOT_ARRIVED_JA: Final = (
    r"(?:届|とど)(?:か(?:ない|なかった|ず)|きません|いてない|いていない|いてません|いていません|いてなく)|まだ(?:届|とど|来|き|こ)"
    r"|(?:着|つ)いて(?:い)?ない|到着して(?:い)?ない"
    r"|(?:荷物|商品|注文|品物|小包|宅配|配達|配送)\S{0,5}(?:来|こ|き)(?:ない|てない|ていない|ません)"
)

NOT_ARRIVED_EN: Final = (
    r"\b(?:hasn't|has not|haven't|have not|didn't|did not|never|not yet|still not|isn't|is not"
    r"|aren't|not) (?:yet )?(?:arrived?|come|came|received?|got(?:ten)?|been delivered|delivered"
    r"|shown up|showed up|show up|here|turned up)\b|\bstill waiting\b"
    r"|\bnothing (?:has )?(?:came|come|arrived|showed up|turned up)\b"
    r"|\b(?:still )?no (?:sign of )?(?:my |the |a )?(?:package|parcel|order|delivery|shipment)\b"
)

_NOT_ARRIVED: Final = re.compile(f"{NOT_ARRIVED_JA}|{NOT_ARRIVED_EN}", re.IGNORECASE)


def claims_not_arrived(prepared: str) -> bool:
    """Whether the text says something has not arrived."""
    return bool(_NOT_ARRIVED.search(prepared))


# "Says delivered but I don't have it": not-received wordings the router's cues lack.
_NOT_RECEIVED_EN = (
    r"\b(?:don't|do not|didn't|did not|never) (?:have|got|get|receive[d]?|see) (?:it|them|my|the"
    r"|anything)\b|\bcan't find (?:it|them|my|the)\b|\bnowhere to be (?:found|seen)\b"
)
_NOT_RECEIVED_JA = (
    r"見当たら|受け取って(?:い)?ない|受け取れて(?:い)?ない|手元に(?:ない|無い|ありません)"
)


def says_not_received(text: str) -> bool:
    """Whether the customer says their parcel has not arrived (a claim to check)."""
    prepared = prepare(text)
    return claims_not_arrived(prepared) or any(
        re.search(cue, prepared, re.IGNORECASE) for cue in (_NOT_RECEIVED_JA, _NOT_RECEIVED_EN)
    )
