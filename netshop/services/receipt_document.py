"""A receipt issue drawn as a PDF (領収書 / Receipt), with reportlab.

reportlab's built-in Japanese CID font (HeiseiKakuGo-W5) needs no font file: the PDF viewer
supplies the glyphs. Drawn from the ``ReceiptIssue`` row on every download, so a receipt is
never stored as a file and always shows what was recorded when it was issued.
"""

from __future__ import annotations

from collections.abc import Callable
from io import BytesIO
from typing import Final

from django.conf import settings
from reportlab.lib.pagesizes import A5, landscape
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas

from netshop.models import ReceiptIssue
from netshop.services.receipt_addressee import receipt_addressee_has_honorific
from netshop.shop_time import SHOP_TZ

FONT: Final = "HeiseiKakuGo-W5"
PAGE: Final = landscape(A5)
# The receipt's words by key (``receipt.title``, ``receipt.order``, ...), filled with their
# fields: the customers' catalogue (``agents.support.catalogue``), which the shop's layer
# cannot import, handed in by the caller.
Say = Callable[..., str]


def receipt_pdf(issue: ReceiptIssue, *, say: Say, compress: bool = True) -> bytes:
    """The PDF of ``issue``: addressee, amount, 但し書き, order and receipt numbers, issuer."""
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(FONT))
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=PAGE, pageCompression=1 if compress else 0)
    canvas.setTitle(say("receipt.document_title", number=issue.receipt.number))
    canvas.setAuthor(settings.NETSHOP_SHOP_NAME)
    _draw(canvas, issue, say)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def addressee_key(name: str) -> str:
    """The catalogue's line for the addressee: with 様 added unless it has its honorific."""
    titled = receipt_addressee_has_honorific(name)
    return "receipt.addressee_as_written" if titled else "receipt.addressee"


def _draw(canvas: Canvas, issue: ReceiptIssue, say: Say) -> None:
    width, height = PAGE
    order = issue.receipt.order
    issued = issue.issued_at.astimezone(SHOP_TZ)
    canvas.setFont(FONT, 24)
    canvas.drawCentredString(width / 2, height - 60, say("receipt.title"))
    canvas.setFont(FONT, 9)
    canvas.drawCentredString(width / 2, height - 74, say("receipt.subtitle"))
    if issue.reissue:
        canvas.setFont(FONT, 12)
        canvas.drawString(40, height - 60, say("receipt.reissued"))
    canvas.setFont(FONT, 10)
    canvas.drawRightString(width - 40, height - 50, f"No. {issue.receipt.number}")
    day = {"year": f"{issued:%Y}", "month": f"{issued:%m}", "day": f"{issued:%d}"}
    canvas.drawRightString(width - 40, height - 64, say("receipt.issued_on", **day))
    canvas.setFont(FONT, 16)
    canvas.drawString(60, height - 120, say(addressee_key(issue.addressee), name=issue.addressee))
    canvas.line(60, height - 126, width / 2 + 40, height - 126)
    canvas.setFont(FONT, 22)
    amount = say("receipt.amount", amount=f"¥{issue.amount:,}")
    canvas.drawCentredString(width / 2, height - 175, amount)
    canvas.setFont(FONT, 11)
    canvas.drawString(60, height - 215, say("receipt.purpose"))
    canvas.drawString(60, height - 233, say("receipt.order", number=order.number))
    canvas.drawString(60, height - 251, say("receipt.received"))
    canvas.setFont(FONT, 12)
    canvas.drawRightString(width - 40, 60, settings.NETSHOP_SHOP_NAME)
