"""What an escalation is about, in people's words: "Refund ¥12,800 on ORD-1003", "Cancel ORD-1001".

The run's own ``summary`` is an English note for engineers ("approval needed: process_refund");
the queue, the detail page's title and the timeline show this instead, built from the
escalation's structured fields (its actions, reason and hand-off package) in the reader's
language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from agents.models import Escalation, EscalationKind, EscalationStatus
from agents.support.vocabulary import OperatorDecision, Skill
from operators import labels


def escalation_headline(escalation: Escalation) -> str:
    """One line saying what a person is asked to do or look at."""
    return headline(
        kind=escalation.kind,
        reason=escalation.reason,
        actions=escalation.actions or [],
        package=escalation.package or {},
    )


def escalation_title(escalation: Escalation) -> str:
    """The detail page's headline: what is asked while it waits; once decided, what was
    decided and by whom ("approved by op1: Refund ¥12,800 on ORD-1003"), the amount as
    edited, so a decided item no longer reads as a request."""
    if escalation.status != EscalationStatus.DECIDED:
        return escalation_headline(escalation)
    record = escalation.decision or {}
    decision = str(record.get("decision") or "")
    actions = escalation.actions or []
    if decision == OperatorDecision.EDIT and len(actions) == 1 and record.get("params"):
        edited = {**(actions[0].get("params") or {}), **record["params"]}
        actions = [{**actions[0], "params": edited}]
    what = headline(
        kind=escalation.kind,
        reason=escalation.reason,
        actions=actions,
        package=escalation.package or {},
    )
    done = labels.label(labels.DECISION_LABELS, decision)
    if escalation.decided_by is None:
        return gettext("%(decision)s: %(what)s") % {"decision": done, "what": what}
    return gettext("%(decision)s by %(who)s: %(what)s") % {
        "decision": done,
        "who": escalation.decided_by.username,
        "what": what,
    }


def headline(
    *, kind: str, reason: str, actions: list[dict[str, Any]], package: Mapping[str, Any]
) -> str:
    """``escalation_headline`` from the fields alone (the live events carry them too)."""
    if actions:
        phrase = gettext("; ").join(action_headline(action) for action in actions)
        if kind == EscalationKind.FAILURE:
            return gettext("Failed, to retry or give up: %(actions)s") % {"actions": phrase}
        return phrase
    return _without_actions(reason, package)


def action_headline(action: Mapping[str, Any]) -> str:
    """One pending action as an instruction, e.g. "Refund ¥12,800 on ORD-1003"."""
    params = action.get("params") or {}
    order = params.get("order_number", "?")
    kind = action.get("kind")
    if kind == Skill.PROCESS_REFUND:
        amount = labels.yen(params.get("amount"))
        return gettext("Refund %(amount)s on %(order)s") % {"amount": amount, "order": order}
    if kind == Skill.CANCEL_ORDER:
        return gettext("Cancel %(order)s") % {"order": order}
    if kind == Skill.RETURN_ITEMS:
        amount = labels.yen(params.get("amount"))
        return gettext("Take back items and refund %(amount)s on %(order)s") % {
            "amount": amount,
            "order": order,
        }
    if kind == Skill.EXCHANGE_ITEMS:
        return gettext("Exchange an item on %(order)s") % {"order": order}
    if kind == Skill.MODIFY_ORDER_ITEMS:
        return gettext("Change the items of %(order)s") % {"order": order}
    return f"{labels.label(labels.SKILL_LABELS, str(kind))} ({order})"


def _without_actions(reason: str, package: Mapping[str, Any]) -> str:
    wait = package.get("escalation") or {}
    detail = wait.get("detail") or {}
    failed = ", ".join(
        labels.label(labels.AGENT_LABELS, a) for a in wait.get("failed_agents") or []
    )
    if reason == "claim_contradicts_records" and detail.get("order_number"):
        return gettext("%(order)s: the customer's account contradicts the records") % {
            "order": detail["order_number"]
        }
    if reason == "tool_failure" and failed:
        return gettext("No answer from: %(agents)s") % {"agents": failed}
    if reason == "customer_request":  # the kind says they asked: say what to do
        return gettext("Answer the customer yourself")
    if reason == "missing_knowledge":
        return gettext("The FAQ has no answer to this question")
    if reason == "supervisor_failure":
        return gettext("The run failed before it could answer")
    if reason == "policy_restriction":
        held = [
            labels.label(labels.SKILL_LABELS, a.get("kind"))
            for a in package.get("held_actions") or []
        ]
        if held:
            return gettext("Held for a person, not done: %(actions)s") % {
                "actions": ", ".join(held)
            }
    if reason == "flagged_for_review":
        review = package.get("review") or {}
        if review.get("flagged_by"):  # the lead's reason is staff text, shown as written
            return gettext("Flagged for review by %(who)s: %(reason)s") % {
                "who": review["flagged_by"],
                "reason": review.get("reason", ""),
            }
    text = labels.label(labels.REASON_LABELS, reason)
    return text[:1].upper() + text[1:]
