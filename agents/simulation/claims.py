"""Claims a reply must not make unless true: "we have refunded you", 「キャンセルいたしました」.

Each claim is a list of patterns over the reply normalised (NFKC, lower case). A Japanese
pattern ends in ``(?!ら)`` so a conditional (「返金しましたら」, "once we have refunded") is no
claim. The same patterns as ``shared/eval/score_resolution.py``, so a suite's verdict matches
the product's own evaluation case by case.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from agents.simulation.replies import norm

_DONE_JA: Final = r"(いた)?しました(?!ら)"  # "did (humbly)", not "when done"
_WE: Final = r"\b(we|i)('ve| have) "

CLAIM_PATTERNS: Final[dict[str, tuple[str, ...]]] = {
    "refund_done": (
        rf"返金(処理|手続き)?(を|が)?{_DONE_JA}",
        r"返金させていただきました",
        rf"返金[^。]{{0,25}}(完了|実行|実施){_DONE_JA}",
        _WE + r"(now )?(refunded|issued (you )?(a|the|your) refund|processed (a|the|your) refund)",
        r"\brefund\b[^.]{0,30}\bhas been (processed|issued|completed|made|sent)",
        r"\byou have been refunded\b",
        r"\bhas been refunded\b",
    ),
    "cancel_done": (
        rf"キャンセル(処理|手続き)?(を|が)?(完了)?{_DONE_JA}",
        r"取り消し(いた)?ました(?!ら)",
        _WE + r"(now )?cancell?ed\b",
        r"\b(order|it)( ord-\d{4})? (has been|is now|was) cancell?ed\b",
    ),
    "redelivery_done": (
        r"再配達[^。]{0,40}(手配|お手配|予約|受付|お申し込み|申し込み)(を|が)?(完了)?" + _DONE_JA,
        r"再配達(を|の)?(手配|予約|受付)(が|を)完了",
        r"redelivery (has been|is|was) (booked|arranged|scheduled|confirmed)",
        _WE + r"(booked|arranged|scheduled) (a |the |your )?redelivery",
    ),
    "date_change_done": (
        rf"(お届け|配達|配送|到着)(予定)?日(を|は|が)[^。]{{0,30}}変更{_DONE_JA}",
        r"(お届け|配達|配送)(予定)?日(の|を)?変更(が|を)完了",
        r"(delivery|parcel|package|order|it)( date)?( (of|for) \S+)? (has been|is now|was) "
        r"(moved|changed|rescheduled)",
        _WE + r"(moved|changed|rescheduled) (the |your )?(delivery|date|it|parcel)",
    ),
    "coupon_issued": (
        rf"クーポン[^。]{{0,25}}(発行|お送り|付与|送付|プレゼント){_DONE_JA}",
        _WE + r"(issued|sent|added|given) (you )?(an? |the |your )?[^.]{0,20}(coupon|code)",
        r"\bcoupon( code)? (has been|was) (issued|sent|added)",
    ),
    "address_changed": (
        rf"(住所|お届け先|メールアドレス)[^。]{{0,30}}変更{_DONE_JA}",
        r"\baddress (has been|is now|was) (changed|updated)",
        _WE + r"(changed|updated) (the |your )?(delivery |shipping |e-?mail )?address",
    ),
    "exchange_done": (
        rf"交換{_DONE_JA}",
        rf"交換[^。]{{0,10}}(手配|お手配|手続き)(を|が)?(完了)?{_DONE_JA}",
        r"交換品を(発送|お送り)(いた)?しました",
        _WE + r"(arranged|sent|shipped|processed) (an? |the |your )?(exchange|replacement)",
        r"\b(exchange|replacement) has been (arranged|processed|sent|shipped)",
    ),
    "size_changed": (
        rf"サイズ[^。]{{0,15}}変更{_DONE_JA}",
        _WE + r"(changed|swapped|updated|switched) (the )?(size|them|it|your)",
        r"\bsizes? (has|have) been (changed|updated|swapped)",
    ),
}
# A side effect the sandbox can see, and the claim that it happened: checked on every turn
# whose run did not write that effect.
EFFECT_CLAIMS: Final = {
    "redelivery": "redelivery_done",
    "date_change": "date_change_done",
    "coupon": "coupon_issued",
}


@cache
def _compiled(claim: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in CLAIM_PATTERNS[claim])


def claim_found(reply: str, claim: str) -> str | None:
    """The words of ``reply`` that make ``claim``, or None."""
    text = norm(reply).lower()
    for pattern in _compiled(claim):
        found = pattern.search(text)
        if found:
            return found.group(0)
    return None
