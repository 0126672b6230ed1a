"""The inbox's rows: who, where the conversation stands, who owns it, what was said last."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from agents.models import Inquiry
from agents.support.catalogue import without_frame
from netshop.services.coupons import coupon_codes_withheld
from operators import labels

SNIPPET_CHARS = 80


@dataclass(frozen=True)
class InboxRow:
    inquiry: Inquiry
    owner: str
    last_kind: str  # who wrote the latest message, in words
    snippet: str
    updated_at: datetime
    unread: bool = False  # something was said since this reader last opened it


def inbox_row(inquiry: Inquiry) -> InboxRow:
    """``inquiry`` as ``inbox_page`` annotates it (``last_text``, ``last_kind``)."""
    latest = without_frame(str(getattr(inquiry, "last_text", None) or inquiry.text))
    text = " ".join(latest.split())  # the reply's gist, not its greeting
    text = coupon_codes_withheld(text)  # a coupon code is the customer's to redeem
    return InboxRow(
        inquiry=inquiry,
        owner=inquiry.human_owner.username if inquiry.human_owner else "",
        last_kind=labels.label(labels.AUTHOR_LABELS, getattr(inquiry, "last_kind", None)),
        snippet=text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…",
        updated_at=inquiry.updated_at,
        unread=_unread(inquiry),
    )


def _unread(inquiry: Inquiry) -> bool:
    last_at, read_at = getattr(inquiry, "last_at", None), getattr(inquiry, "read_at", None)
    return last_at is not None and (read_at is None or last_at > read_at)
