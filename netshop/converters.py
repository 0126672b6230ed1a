"""Path converters for the shop's own identifiers, so a URL holding anything else is a 404.

Registered once at start (``NetshopConfig.ready``), before any URLconf is read; the API's
routes name them too (``{receipt:number}``), as ninja passes Django's converters through.
"""

from __future__ import annotations

from django.urls import register_converter

from netshop.services.receipts import RECEIPT_NUMBER_PATTERN


class ReceiptNumberConverter:
    """``<receipt:number>``: a receipt number's real shape, kept as the string it is."""

    regex = RECEIPT_NUMBER_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register_converters() -> None:
    register_converter(ReceiptNumberConverter, "receipt")
