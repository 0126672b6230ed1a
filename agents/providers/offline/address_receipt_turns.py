"""The offline model's turns for the address change, the refund status and the receipt.

Kept out of ``brain`` so that it stays a short table of who does what. Each turn acts only on
what the customer gave and the facts at hand: the address change goes ahead with a complete
address the customer wrote, asks for it when none was given, and lets the shop refuse a
parcel already on its way (so the customer hears why, without being asked for an address
first); the refund status only reads; the receipt goes to the name the customer asked for.
"""

from __future__ import annotations

import re
from typing import Any, Final

from agents.contract.tools import ASK_CUSTOMER
from agents.providers.offline.understanding.address import find_address
from agents.support.text import normalize
from agents.support.vocabulary import Skill

Call = tuple[str, dict[str, Any]]

# Order states in which the parcel has left, as the Order agent's facts show them.
LEFT_ORDER_STATUSES: Final = frozenset({"shipped", "delivered", "cancelled"})
NEW_ADDRESS: Final = "new delivery address"

# 宛名: 「宛名は株式会社サンプルで」「宛名：山田商店」「株式会社サンプル宛て」,
# "addressed to Acme Inc.", "made out to ...", "in the name of ...".
_ADDRESSEE_JA: Final = re.compile(
    r"(?:宛名|あて名)\s*(?:は|を|:|：|に)?\s*[「『]?(?P<name>[^」』、。\n]{1,40}?)[」』]?\s*"
    r"(?:様|さま)?\s*(?:で|に|宛|として|にして|でお願い|と|。|、|\n|$)"
    r"|[「『]?(?P<name2>[^\s「『」』、。]{2,40}?)[」』]?\s*(?:宛て|宛)(?:で|に|の)"
)
_ADDRESSEE_EN: Final = re.compile(
    r"\b(?:addressed to|made out to|in the name of|under the name(?: of)?|(?:the )?name on it"
    r"(?: should be| is)?|for the company)\s*:?\s*[\"']?(?P<name>[A-Z][^\"'\n,.;!?]{0,58}"
    r"?(?:\b(?:Inc|Ltd|Co|Corp|K\.K|LLC)\.?)?)[\"']?(?=$|[,.;!?\n]|\s+(?:please|thanks|and)\b)",
)


def address_change_turn(
    context: dict[str, Any], inquiry: str, results: dict[str, Any], tools: set[str]
) -> list[Call]:
    """Change the parcel's address, ask for the address, or let the shop say why it can't."""
    if results:
        return []
    order = context.get("order") if isinstance(context.get("order"), dict) else {}
    number = (order or {}).get("number") or next(
        iter(context.get("entities", {}).get("order_numbers", [])), None
    )
    if not number:
        return []  # the writer asks which order
    found = find_address(inquiry)
    if found is not None and found.complete:
        return [(Skill.CHANGE_SHIPPING_ADDRESS, {"order_number": number, **found.as_args()})]
    if _has_left(order or {}) or ASK_CUSTOMER not in tools:
        parts = (
            found.as_args() if found else {"postal_code": "", "prefecture": "", "address_line": ""}
        )
        return [(Skill.CHANGE_SHIPPING_ADDRESS, {"order_number": number, **parts})]
    return [(ASK_CUSTOMER, {"slot": "address", "why": "missing", "about": NEW_ADDRESS})]


def _has_left(order: dict[str, Any]) -> bool:
    shipment = order.get("shipment") if isinstance(order.get("shipment"), dict) else {}
    if (shipment or {}).get("status") == "preparing":
        return False
    return order.get("status") in LEFT_ORDER_STATUSES


def refund_status_turn(number: str | None, results: dict[str, Any]) -> list[Call]:
    """Read the order's refunds; never a refund of its own."""
    if results or not number:
        return []
    return [(Skill.REFUND_STATUS, {"order_number": number})]


def receipt_turn(number: str | None, inquiry: str, results: dict[str, Any]) -> list[Call]:
    """Issue the order's receipt, to the name the customer gave (else theirs)."""
    if results or not number:
        return []
    args = {"order_number": number}
    name = find_addressee(inquiry)
    return [(Skill.ISSUE_RECEIPT, args | ({"addressee": name} if name else {}))]


def find_addressee(text: str) -> str:
    """The name a receipt is to be made out to (宛名), as the customer wrote it; '' if none."""
    plain = normalize(text)
    match = _ADDRESSEE_JA.search(plain) or _ADDRESSEE_EN.search(plain)
    if match is None:
        return ""
    name = match.group("name") or match.groupdict().get("name2") or ""
    return re.sub(r"\s*(?:様|さま|御中)$", "", name.strip(" 　「」『』\"'")).strip()
