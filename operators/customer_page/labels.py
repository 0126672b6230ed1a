"""How an inquiry's status and a message's author read to the customer (no internal words
like "failed", no staff names)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CUSTOMER_STATUS_LABELS: dict[str, Promise] = {
    "queued": _("Received"),
    "running": _("Our assistant is looking into it"),
    "awaiting_customer": _("Waiting for your reply"),
    "awaiting_approval": _("A staff member is checking it"),
    "resolved": _("Answered"),
    "escalated": _("Passed to our staff"),
    "handled_by_human": _("Answered by our staff"),
    "failed": _("Passed to our staff"),
}

AUTHOR_LABELS: dict[str, Promise] = {
    "customer": _("You"),
    "ai": _("Assistant"),
    "operator": _("Staff"),
}


def customer_status(code: str) -> str:
    return str(CUSTOMER_STATUS_LABELS.get(code, code))
