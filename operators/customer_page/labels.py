"""How an inquiry's status reads to the customer (no internal words like "failed")."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CUSTOMER_STATUS_LABELS: dict[str, Promise] = {
    "queued": _("Received"),
    "running": _("Our assistant is looking into it"),
    "awaiting_approval": _("A staff member is checking it"),
    "resolved": _("Answered"),
    "escalated": _("Passed to our staff"),
    "handled_by_human": _("Answered by our staff"),
    "failed": _("Passed to our staff"),
}


def customer_status(code: str) -> str:
    return str(CUSTOMER_STATUS_LABELS.get(code, code))
