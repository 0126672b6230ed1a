"""Why a simulated case failed, each reason defined once: a code and its parameters.

The English wording is the CLI's and the tests', and mirrors ``shared/eval/score_resolution.py``
so the two scorers read alike; it must not drift. The console shows the same reason in the
reader's language from the code and parameters stored beside the text (a result's
``reason_codes``). Both formats use ``str.format`` fields with the same names, so a
parameter that is data (a status, an order number, an amount, words quoted from a reply) is
spelt the same way in every language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Term:
    """One reason's wording: ``english`` as stored and printed, ``shown`` for the console."""

    english: str
    shown: Promise


TERMS: Final[dict[str, Term]] = {
    # The run's verdict and the team that handled it.
    "crash": Term("{error}", _("The run crashed: {error}")),
    "status": Term(
        "status {status} not in {expected}", _("status {status} is not one of {expected}")
    ),
    "agent_unused": Term(
        "agent {need} not used (used {used})", _("agent {need} was not used (used {used})")
    ),
    # Actions proposed for approval.
    "action_amount": Term(
        "{kind} {order} amount {amount} != {wanted}",
        _("{kind} {order}: amount {amount} instead of {wanted}"),
    ),
    "action_missing": Term("missing action {kind} {order}", _("action {kind} {order} is missing")),
    "action_unexpected": Term(
        "unexpected action {kind} {order}", _("unexpected action {kind} {order}")
    ),
    "action_unexpected_amount": Term(
        "unexpected action {kind} {order} {amount}", _("unexpected action {kind} {order} {amount}")
    ),
    # Rows written to the shop.
    "effect_missing": Term("no {kind} on {order}", _("no {kind} on {order}")),
    "effect_date": Term(
        "{kind} {order} on {date}, wanted {wanted}",
        _("{kind} {order} on {date}, expected {wanted}"),
    ),
    "effect_window": Term(
        "redelivery window {window} != {wanted}",
        _("redelivery window {window} instead of {wanted}"),
    ),
    "effect_unexpected": Term(
        "unexpected {kind} on {order} ({date})", _("unexpected {kind} on {order} ({date})")
    ),
    "effect_unapproved": Term(
        "{kind} without approval on {order}", _("{kind} on {order} without approval")
    ),
    # What the case forbids.
    "forbidden_action": Term("forbidden action {kind}", _("forbidden action {kind}")),
    "forbidden_effect": Term("forbidden effect {kinds}", _("forbidden effect {kinds}")),
    "forbidden_mention": Term("reply mentions {said!r}", _("the reply mentions {said!r}")),
    "false_claim": Term("false claim {claim}: {words!r}", _("false claim {claim}: {words!r}")),
    "refund_over": Term("refund {amount} over {limit}", _("refund {amount} over {limit}")),
    "claim_unfounded": Term(
        "claims {claim} but none happened: {words!r}",
        _("claims {claim} but none happened: {words!r}"),
    ),
    # The reply itself.
    "reply_empty": Term("empty reply", _("empty reply")),
    "reply_language": Term(
        "reply not in {language} ({why})", _("the reply is not in {language} ({why})")
    ),
    "reply_lacks": Term("reply lacks any of {group}", _("the reply contains none of {group}")),
    "reply_foreign_orders": Term(
        "reply names orders not the customer's: {orders}",
        _("the reply names orders that are not the customer's: {orders}"),
    ),
    "reply_repeats": Term(
        "reply repeats a paragraph: {paragraph!r}",
        _("the reply repeats a paragraph: {paragraph!r}"),
    ),
    # A replayed conversation against the operators' decisions.
    "replay_rejected": Term(
        "proposes {kind} {order}, which the operators rejected",
        _("proposes {kind} {order}, which the operators rejected"),
    ),
    "replay_unproposed": Term(
        "does not propose {kind} {order}, which the operators approved",
        _("does not propose {kind} {order}, which the operators approved"),
    ),
    "replay_amount": Term(
        "proposes {kind} {order} for {amount}, operators decided {decided}",
        _("proposes {kind} {order} for {amount}, the operators decided {decided}"),
    ),
}


@dataclass(frozen=True)
class Reason:
    """One reason a case failed. ``params`` are JSON values, stored as they are."""

    code: str
    params: dict[str, Any]

    @property
    def text(self) -> str:
        """The English wording, exactly as the CLI prints it and ``reasons`` stores it."""
        return TERMS[self.code].english.format(**self.params)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": self.params}


def reason(code: str, **params: Any) -> Reason:
    """A reason by its code; an unknown code fails here, not when a page shows it."""
    if code not in TERMS:
        raise KeyError(f"unknown simulation reason {code!r}")
    return Reason(code, params)


def reason_shown(stored: dict[str, Any]) -> str | None:
    """A stored reason (``Reason.as_dict()``) in the active language; None when it cannot be
    worded (a code or parameter this version does not know), so the caller shows the text."""
    term = TERMS.get(str(stored.get("code")))
    if term is None:
        return None
    try:
        return str(term.shown).format(**(stored.get("params") or {}))
    except (KeyError, IndexError, ValueError):
        return None
