"""Tolerance for English typos: a misspelt key word is read as the key word.

Only words that matter to routing or to entities are targets, so a correction can only
help a cue match. A token is corrected to the one target with the same first letter that is nearest
to it, if that is within one edit (two for long words); common words that sit one edit away from a
target ("older", "chance", "match") are protected.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agents.support.text import normalize

TARGETS: frozenset[str] = frozenset(
    word
    for line in (
        "refund refunds refunded refunding cancel cancels cancelled canceled cancelling canceling",
        "cancellation deliver delivers delivered delivering delivery deliveries redeliver",
        "redelivery redelivered package packages parcel parcels receive received receiving arrive",
        "arrived arrives arriving arrival track tracking tracked shipment shipments shipping",
        "shipped coupon coupons voucher vouchers compensation compensate payment payments charge",
        "charged charges change changed changes reschedule rescheduled postpone password account",
        "address exchange return returns returned history details detail order orders ordered",
        "human person people representative operator someone somebody broken damaged defective",
        "missing money where where's yesterday tomorrow today monday tuesday wednesday thursday",
        "friday saturday sunday january february march april august september october november",
        "december morning afternoon evening tonight please already instead policy method methods",
        "wrapping invoice receipt discount status confirmation email purchase purchased twice",
        "double billed transaction courier driver doorstep missed stuff staff items available",
        "supervisor manager",
    )
    for word in line.split()
)

PROTECTED: frozenset[str] = frozenset(
    word
    for line in (
        "were older other there three these those whole while white store share start state still",
        "stall spend spent speed trick trace truck chance charm cheap check chose under until",
        "wonder board border drive drove dried month mouth refuse refused record recent recover",
        "rather ready reply really range price prize prime paper party passed pasted prison piece",
        "place plate plane pleased phone photo chart cards carts court cover color colour handle",
        "humor hours house horse empty relay decay retail derail delight dealer dinner doing",
        "extra exact excuse except expect export expert skipped slipped shopping shopped skipping",
        "slipping police match matches matched marches messing stiff decayed monkey honey either",
        "taken token emails",
    )
    for word in line.split()
)

SLANG: dict[str, str] = {
    "u": "you",
    "ur": "your",
    "pls": "please",
    "plz": "please",
    "pkg": "package",
    "pkgs": "packages",
    "cant": "can't",
    "dont": "don't",
    "wont": "won't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "hasnt": "hasn't",
    "havent": "haven't",
    "isnt": "isn't",
    "wasnt": "wasn't",
    "im": "i'm",
    "ive": "i've",
    "rcvd": "received",
    "acct": "account",
    "addr": "address",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "thx": "thanks",
}

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def correct_typos(text: str) -> str:
    """Lower-case the text and replace misspelt key words; other text is left alone."""
    return _WORD.sub(lambda match: correct_word(match.group()), text.lower())


@lru_cache(maxsize=4096)
def correct_word(word: str) -> str:
    if word in SLANG:
        return SLANG[word]
    if len(word) < 4 or word in TARGETS or word in PROTECTED:
        return word
    limit = 1 if len(word) <= 7 else 2
    distances = {
        target: edit_distance(word, target)
        for target in TARGETS
        if len(target) >= 5 and target[0] == word[0] and abs(len(target) - len(word)) <= limit
    }
    best = min(distances.values(), default=limit + 1)
    closest = [target for target, distance in distances.items() if distance == best]
    return closest[0] if best <= limit and len(closest) == 1 else word


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, swaps."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, start=1):
            cost = 0 if char_a == char_b else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


@lru_cache(maxsize=256)
def prepare(text: str) -> str:
    """The form the cues read: normalised, lower-cased, common English typos corrected.

    Cached: one message is prepared by every reader of it (the classifier, the descriptions,
    the requests, the specialists' turns), and a pure function of a string needs doing once."""
    return correct_typos(normalize(text))
