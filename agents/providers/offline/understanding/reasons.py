"""The customer's reason for a request, in the shop's words: what tools and questions quote.

"Arrived broken" is a "damaged item", 「二重に請求」 is "charged twice"; a coupon asked for
because one expired is a reissue. Pure.
"""

from __future__ import annotations

import re
from typing import Final

from agents.support.grounding.orders import CHARGED_TWICE

DAMAGED: Final = "damaged item"  # a broken or faulty item


REASONS = (
    (
        r"壊れ|破損|割れ|欠け|傷|不良|故障|破れ|broken|damaged|defect|crack|chipped|torn|ripped",
        DAMAGED,
    ),
    (
        r"届か|届いてな|来ない|紛失|never arrived|not arrived|lost|didn.t arrive",
        "parcel not delivered",
    ),
    (r"違う商品|間違|wrong (item|color|size|product)", "wrong item"),
    (
        r"二重|2重|二回|2回|twice|double|two charges|duplicate charge|more than once",
        CHARGED_TWICE,
    ),
)


def reason(inquiry: str, default: str) -> str:
    """The customer's reason in the shop's words ("damaged item"), for tools and questions."""
    lowered = inquiry.lower()
    return next((reason for pattern, reason in REASONS if re.search(pattern, lowered)), default)


# A coupon asked for because one expired ("my coupon expired", 「期限切れのクーポン」).
_EXPIRED = (
    r"期限(?:が)?切れ|期限を過ぎ|失効|使えなくなった"
    r"|expired|expiry (?:date )?(?:has )?passed|run out"
)


def replaces_expired(text: str) -> bool:
    """Whether a coupon is asked for because one expired (a reissue)."""
    return re.search(_EXPIRED, text, re.IGNORECASE) is not None
