"""Requests the shop has no skill for: a person handles them, the reply says so and why.

Changing a parcel's delivery address, exchanging an item for another size or colour, and
sending an item back: no specialist can do them, and answering them from the FAQ sends the
customer round in circles. Only requests count: "サイズが合わなかったので交換できますか？" and
"How do I change the email address on my account?" are questions for the FAQ.
Written against prepared text (NFKC, lower-cased).
"""

from __future__ import annotations

import re
from typing import Final

from agents.graph.schemas import Intent, UnsupportedRequest
from agents.offline.understanding.lexicon import FAQ_TOPIC_INTENTS
from agents.vocabulary import Skill

_HOW_TO: Final = re.compile(r"方法|やり方|どうやって|どうすれば|どこで|\bhow (?:do|can|to)\b")
_JA_REQ: Final = (
    r"(?:して(?:ほしい|欲しい|ください|下さい|いただけ|いただき|もらえ|もらいた)"
    r"|したい|を?お願い|を?希望)"
)
_EN_WANT: Final = (
    r"(?:i(?:'d| would)? like to|i want to|i need to|i wish to|please|could you|can you"
    r"|would you)"
)
_ORDER_REF: Final = r"(?:ord[\s\-_#]*\d{3,}|\bmy (?:order|parcel|package|delivery)\b)"

_PATTERNS: Final[tuple[tuple[UnsupportedRequest, re.Pattern[str]], ...]] = (
    (
        "address_change",
        re.compile(
            r"(?:届け先|お届け先|配送先|送り先|宛先|配達先)(?:の)?(?:住所)?(?:を|の|が)?\S{0,6}"
            r"(?:変更|変え|修正|訂正|間違)"
            r"|(?:注文|荷物|ord[\s\-_#]*\d{3,})\S{0,12}住所(?:を|の|が)?\S{0,4}(?:変更|変え|修正|訂正|間違)"
            rf"|{_EN_WANT} (?:change|update|correct|fix|modify)\b.{{0,30}}\b(?:delivery|shipping)"
            r" address\b"
            r"|\b(?:change|update|correct|fix|modify) the (?:delivery |shipping )?address\b.{0,30}"
            rf"{_ORDER_REF}|\bwrong (?:delivery |shipping )?address\b"
            r"|\b(?:send|ship|deliver) (?:it|them|my order|the order|the parcel|the package) to"
            r" (?:a |another |my new |a different )(?:address|place)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "exchange",
        re.compile(
            rf"(?:交換|取り?替え){_JA_REQ}"
            rf"|{_EN_WANT} (?:exchange|swap)\b"
            rf"|\bexchange\b.{{0,40}}{_ORDER_REF}|{_ORDER_REF}.{{0,40}}\bexchange\b",
            re.IGNORECASE,
        ),
    ),
    (
        "return_item",
        re.compile(
            rf"返送{_JA_REQ}|返送(?:方法|先)|送り返(?:したい|す方法|せば)|着払いで(?:返|送り返)"
            r"|\bsend (?:it|them|this|the item|the items) back\b|\breturn (?:shipping )?label\b",
            re.IGNORECASE,
        ),
    ),
)

# The intents a request of each kind would be misread as: answering them goes in circles.
MISREAD_AS: Final[dict[UnsupportedRequest, frozenset[str]]] = {
    "address_change": FAQ_TOPIC_INTENTS | {Skill.CHANGE_DELIVERY_DATE},
    "exchange": FAQ_TOPIC_INTENTS | {Skill.PROCESS_REFUND},
    "return_item": FAQ_TOPIC_INTENTS,
}


# What a person handling it needs looked up first: the order, and where an address change's
# parcel is (read-only steps; the hand-off package carries their findings).
FACTS_FOR: Final[dict[UnsupportedRequest, tuple[Intent, ...]]] = {
    "address_change": ("get_order_details", "track_shipment"),
    "exchange": ("get_order_details",),
    "return_item": ("get_order_details",),
}


def unsupported_request(prepared: str) -> UnsupportedRequest | None:
    """The kind of request the shop cannot do that ``prepared`` makes, if it makes one."""
    for kind, pattern in _PATTERNS:
        match = pattern.search(prepared)
        if match and not (kind != "return_item" and _HOW_TO.search(prepared)):
            return kind
    return None
