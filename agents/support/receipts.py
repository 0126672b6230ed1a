"""A customer's receipt as a PDF, in the catalogue's words.

The shop draws the form (``netshop.services.receipt_document``); what it says comes from the
customers' catalogue like every other sentence they read. A receipt (領収書) is a Japanese
form, issued in Japanese whatever the language of the conversation.
"""

from __future__ import annotations

from functools import partial
from typing import Final

from agents.support.catalogue import Language, say
from netshop.models import ReceiptIssue
from netshop.services.receipt_document import receipt_pdf

RECEIPT_LANGUAGE: Final[Language] = "ja"


def receipt_document(issue: ReceiptIssue) -> bytes:
    """The PDF of ``issue``, worded from the catalogue."""
    return receipt_pdf(issue, say=partial(say, RECEIPT_LANGUAGE))
