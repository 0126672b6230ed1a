"""The customer's word for a shop code (a status, a payment method, a tool), from the catalogue.

A code the catalogue lacks falls back to a neutral word, never to the code itself: the
customer must not see internal identifiers.
"""

from __future__ import annotations

from typing import Final

from agents.support import catalogue
from agents.support.catalogue import Language

# The catalogue's families of words for codes: ``{family}.{code}``.
ORDER_STATUS: Final = "order_status"
SHIPMENT_STATUS: Final = "shipment_status"
PAYMENT_METHOD: Final = "payment_method"
AGENT: Final = "agent"
TOOL: Final = "tool"


def word(family: str, lang: Language, code: object, fallback: str = "status") -> str:
    """``code``'s word in ``lang``; a neutral word (never the code) if the catalogue lacks it."""
    key = f"{family}.{str(code or '').lower()}"
    if catalogue.has(lang, key):
        return catalogue.say(lang, key)
    return catalogue.say(lang, f"fallback.{fallback}")
