"""Refusals from the services, told in the reader's language and naming who got there first.

The message is the code's template in ``netshop.errors.CATALOGUE`` (translated); only the
two conflicts are told from the escalation's state read after the refusal, so the operator
learns who got there first, when, in their own time zone.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from agents.models import Escalation
from netshop.errors import DomainError
from operators import labels


def refusal_message(error: DomainError, escalation: Escalation | None) -> str:
    """What to tell the operator; ``escalation`` is its state read after the refusal."""
    if escalation is not None and error.code in ("already_decided", "already_reviewed"):
        return _already_decided(escalation)
    if escalation is not None and error.code == "claimed_by_other":
        who = escalation.claimed_by.username if escalation.claimed_by else gettext("someone")
        return gettext("Claimed by %(who)s: only they can decide or release it.") % {"who": who}
    return error.localized()


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
