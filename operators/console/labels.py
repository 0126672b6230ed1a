"""The words the console shows for the agents' codes, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from agents.graph.escalation_policy import ReasonCategory
from agents.models import EscalationKind, InquiryStatus, MessageAuthor
from agents.vocabulary import OperatorDecision, Skill

# Re-exported: the console's error messages format money through ``labels.yen``.
from netshop.money import yen as yen

Label = str | Promise

# The models' and the vocabulary's own labels, by code (defined once, there).
KIND_LABELS: Mapping[str, Label] = dict(EscalationKind.choices)
DECISION_LABELS: Mapping[str, Label] = dict(OperatorDecision.choices)
INQUIRY_STATUS_LABELS: Mapping[str, Label] = dict(InquiryStatus.choices)
AUTHOR_LABELS: Mapping[str, Label] = dict(MessageAuthor.choices)

REASON_LABELS: dict[str, Promise] = {
    "approval_required": _("approval required"),
    "tool_failure": _("tool failure"),
    "policy_restriction": _("policy restriction"),
    "missing_knowledge": _("missing knowledge"),
    "customer_request": _("customer request"),
    "supervisor_failure": _("supervisor failure"),
    "action_failed": _("action failed"),
    "flagged_for_review": _("flagged for review by a lead"),
    "claim_contradicts_records": _("claim contradicts the records"),
    "unsupported_request": _("request the shop cannot do"),
    "outcome_unconfirmed": _("outcome not confirmed by the records"),
}
REASONS: tuple[str, ...] = get_args(ReasonCategory)

ACTION_LABELS: dict[str, Promise] = {
    Skill.PROCESS_REFUND: _("Refund"),
    Skill.CANCEL_ORDER: _("Order cancellation"),
    Skill.RETURN_ITEMS: _("Return and refund of items"),
    Skill.EXCHANGE_ITEMS: _("Exchange for another variant"),
    Skill.MODIFY_ORDER_ITEMS: _("Change of order items"),
}

EVENT_LABELS: dict[str, Promise] = {
    "escalation.created": _("Escalated to a person"),
    "escalation.claimed": _("Claimed"),
    "escalation.released": _("Released"),
    "escalation.assigned": _("Assigned"),
    "escalation.claim_timed_out": _("Claim released after no activity"),
    "escalation.overdue": _("Past its deadline: moved to the managers' queue"),
    "conversation.assigned": _("Conversation assigned"),
    "escalation.decided": _("Decided"),
    "escalation.resolved": _("Resolved after the decision"),
    "inquiry.updated": _("Inquiry status changed"),
    "run.step": _("Run step"),
    "conversation.message": _("Message"),
}

# The inbox's filters (``agents.conversations.search.STATUS_FILTERS``), in words.
INBOX_FILTER_LABELS: dict[str, Promise] = {
    "ai_resolved": _("resolved by the AI"),
    "awaiting_customer": _("awaiting the customer"),
    "human_owned": _("taken over by a person"),
    "flagged": _("flagged for review"),
}


def label(labels: Mapping[str, Label], code: str | None) -> str:
    """The label for ``code``; an unknown code is shown as itself."""
    if not code:
        return ""
    return str(labels.get(code, code))


def duration(minutes: int) -> str:
    """A short span such as "25 min", "3 h 20 min" or "2 d 4 h"."""
    minutes = abs(minutes)
    if minutes < 60:
        return ngettext("%(n)d min", "%(n)d min", minutes) % {"n": minutes}
    hours, rest = divmod(minutes, 60)
    if hours < 24:
        return gettext("%(h)d h %(m)d min") % {"h": hours, "m": rest}
    days, hours = divmod(hours, 24)
    return gettext("%(d)d d %(h)d h") % {"d": days, "h": hours}


def approve_label(actions: list[dict[str, Any]]) -> str:
    """Exactly what one click on Approve does, e.g. "Approve refund of ¥12,800 to ORD-1003"."""
    return gettext("Approve %(actions)s") % {"actions": actions_phrase(actions)}


def retry_label(actions: list[dict[str, Any]]) -> str:
    """One click on a failed action's page, e.g. "Retry refund of ¥12,800 to ORD-1003"."""
    return gettext("Retry %(actions)s") % {"actions": actions_phrase(actions)}


def actions_phrase(actions: list[dict[str, Any]]) -> str:
    """The pending actions in words, e.g. "refund of ¥12,800 to ORD-1003"."""
    return gettext(" and ").join(_action_phrase(action) for action in actions)


def _action_phrase(action: dict[str, Any]) -> str:
    params = action.get("params") or {}
    order = params.get("order_number", "?")
    if action.get("kind") == Skill.PROCESS_REFUND:
        return gettext("refund of %(amount)s to %(order)s") % {
            "amount": yen(params.get("amount")),
            "order": order,
        }
    if action.get("kind") == Skill.CANCEL_ORDER:
        return gettext("cancellation of %(order)s") % {"order": order}
    if action.get("kind") == Skill.RETURN_ITEMS:
        return gettext("return of %(items)s with a refund of %(amount)s on %(order)s") % {
            "items": _skus(params),
            "amount": yen(params.get("amount")),
            "order": order,
        }
    if action.get("kind") == Skill.EXCHANGE_ITEMS:
        return gettext("exchange of %(item)s for %(new)s on %(order)s") % {
            "item": params.get("item", "?"),
            "new": params.get("new_sku", "?"),
            "order": order,
        }
    if action.get("kind") == Skill.MODIFY_ORDER_ITEMS:
        return gettext("change of %(items)s on %(order)s (new total %(total)s)") % {
            "items": _skus(params),
            "order": order,
            "total": yen(params.get("new_total")),
        }
    return f"{action.get('kind')} ({order})"


def _skus(params: dict[str, Any]) -> str:
    """The items of an action, e.g. "MUG-ARITA-AI × 1, TSH-LOGO-M → 0"."""
    return ", ".join(
        f"{item.get('sku', '?')} × {item.get('quantity', '?')}"
        for item in params.get("items") or []
    )
