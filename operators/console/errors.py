"""Refusals from the services, told in the reader's language and naming who got there first."""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from agents.models import Escalation
from netshop.errors import DomainError
from operators.console import labels

CONFLICTS = frozenset({"already_decided", "claimed_by_other"})
NOT_FOUND = frozenset({"escalation_not_found"})


def http_status(error: DomainError) -> int:
    if error.code in NOT_FOUND:
        return 404
    return 409 if error.code in CONFLICTS else 422


def refusal_message(error: DomainError, escalation: Escalation | None) -> str:
    """What to tell the operator; ``escalation`` is its state read after the refusal."""
    if escalation is not None and error.code == "already_decided":
        return _already_decided(escalation)
    if escalation is not None and error.code == "claimed_by_other":
        who = escalation.claimed_by.username if escalation.claimed_by else gettext("someone")
        return gettext("Claimed by %(who)s: only they can decide or release it.") % {"who": who}
    messages = {
        "reason_required": gettext("A rejection needs a reason the customer can be told."),
        "reply_required": gettext("Taking over needs the reply to send."),
        "params_required": gettext("An edit needs the amount or the reason to change."),
        "invalid_amount": gettext("The amount must be a positive whole number of yen."),
        "invalid_decision": gettext("That decision is not possible for this escalation."),
    }
    refundable = _refundable(escalation) if escalation is not None else None
    if error.code == "refund_exceeds_captured" and refundable is not None:
        return gettext("At most %(amount)s can be refunded.") % {"amount": labels.yen(refundable)}
    return messages.get(error.code, error.message)


def _already_decided(escalation: Escalation) -> str:
    who = escalation.decided_by.username if escalation.decided_by else gettext("someone")
    decision = labels.label(labels.DECISION_LABELS, (escalation.decision or {}).get("decision"))
    when = ""
    if escalation.decided_at:
        when = date_format(timezone.localtime(escalation.decided_at), "Y-m-d H:i")
    return gettext("Already %(decision)s by %(who)s at %(when)s.") % {
        "decision": decision,
        "who": who,
        "when": when,
    }


def _refundable(escalation: Escalation) -> int | None:
    amounts = [
        ((a.get("facts") or {}).get("payment") or {}).get("refundable") for a in escalation.actions
    ]
    known = [int(x) for x in amounts if x is not None]
    return min(known) if known else None
