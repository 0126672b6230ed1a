"""The words the console shows for the agents' codes, in the reader's language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, get_args

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from agents.contract.tools import ASK_CUSTOMER, REFER_TO_PERSON
from agents.models import (
    MANAGERS_QUEUE,
    OPERATORS_QUEUE,
    AnswerVerdict,
    EscalationKind,
    EscalationStatus,
    InquiryStatus,
    MessageAuthor,
    WrongAnswerReason,
)
from agents.support.vocabulary import DraftReason, OperatorDecision, Skill
from agents.team.graph.escalation_policy import ReasonCategory
from netshop.audit import AuditAction
from netshop.errors import CATALOGUE
from netshop.models import OrderStatus, PaymentMethod, PaymentStatus, ShipmentStatus

# Re-exported: the console's error messages format money through ``labels.yen``.
from netshop.money import yen as yen

Label = str | Promise

# The models' and the vocabulary's own labels, by code (defined once, there).
KIND_LABELS: Mapping[str, Label] = dict(EscalationKind.choices)
DECISION_LABELS: Mapping[str, Label] = dict(OperatorDecision.choices)
INQUIRY_STATUS_LABELS: Mapping[str, Label] = dict(InquiryStatus.choices)
AUTHOR_LABELS: Mapping[str, Label] = dict(MessageAuthor.choices)
ANSWER_VERDICT_LABELS: Mapping[str, Label] = dict(AnswerVerdict.choices)
WRONG_ANSWER_LABELS: Mapping[str, Label] = dict(WrongAnswerReason.choices)

REASON_LABELS: dict[str, Promise] = {
    "approval_required": _("approval required"),
    "tool_failure": _("tool failure"),
    "policy_restriction": _("policy restriction"),
    "missing_knowledge": _("missing knowledge"),
    "customer_request": _("customer request"),
    "supervisor_failure": _("supervisor failure"),
    "action_failed": _("action failed"),
    "approvals_short": _("approve again: the policy's limit was lowered after the approval"),
    "flagged_for_review": _("flagged for review by a lead"),
    "sampled_for_review": _("an AI answer sampled for review"),
    "customer_not_solved": _("the customer said the AI's answer did not solve it"),
    "claim_contradicts_records": _("claim contradicts the records"),
    "unsupported_request": _("request the shop cannot do"),
    "outcome_unconfirmed": _("outcome not confirmed by the records"),
    "instructions_to_system": _("message tried to instruct the system"),
    "sent_for_review": _("an AI answer sent for review"),
    **{code: text for code, text in DraftReason.choices if code != DraftReason.INSTRUCTIONS},
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
    "escalation.action_decided": _("One action decided"),
    "escalation.decided": _("Decided"),
    "escalation.resolved": _("Resolved after the decision"),
    "inquiry.updated": _("Inquiry status changed"),
    "run.step": _("Run step"),
    "conversation.message": _("Message"),
    "answer.feedback": _("Customer's feedback on an answer"),
}

# Every skill (an intent, a plan step, a tool), as a person would name the task.
SKILL_LABELS: dict[str, Promise] = {
    Skill.CLASSIFY_AND_ROUTE: _("understanding the request"),
    Skill.AGGREGATE_RESPONSES: _("combining the answers"),
    Skill.SEARCH_ORDERS: _("order search"),
    Skill.GET_ORDER_DETAILS: _("order details"),
    Skill.CANCEL_ORDER: _("order cancellation"),
    Skill.RETURN_ITEMS: _("return of items"),
    Skill.EXCHANGE_ITEMS: _("exchange of items"),
    Skill.MODIFY_ORDER_ITEMS: _("change of order items"),
    Skill.TRACK_SHIPMENT: _("shipment tracking"),
    Skill.ARRANGE_REDELIVERY: _("redelivery"),
    Skill.CHANGE_DELIVERY_DATE: _("delivery date change"),
    Skill.CHANGE_SHIPPING_ADDRESS: _("delivery address change"),
    Skill.PROCESS_REFUND: _("refund"),
    Skill.CHECK_PAYMENT_STATUS: _("payment status"),
    Skill.APPLY_COUPON: _("coupon"),
    Skill.REFUND_STATUS: _("refund status"),
    Skill.ISSUE_RECEIPT: _("receipt"),
    Skill.SEARCH_FAQ: _("FAQ search"),
    Skill.ANSWER_GENERAL_QUESTION: _("general question"),
    Skill.CONTACT_HUMAN: _("request for a person"),
}

# The tools a specialist has beside its skills: asking the customer, referring to a person.
TOOL_LABELS: dict[str, Promise] = {
    **SKILL_LABELS,
    ASK_CUSTOMER: _("a question to the customer"),
    REFER_TO_PERSON: _("a referral to a person"),
}

# The specialists (the graph's agent names, ``cards.json`` without "-agent").
AGENT_LABELS: dict[str, Promise] = {
    "supervisor": _("Supervisor"),
    "order": _("Orders"),
    "shipping": _("Shipping"),
    "payment": _("Payments"),
    "faq": _("FAQ"),
}

# A specialist's answer (``agents.support.shapes.EnvelopeStatus``) and a plan step's progress.
ENVELOPE_STATUS_LABELS: dict[str, Promise] = {
    "success": _("answered"),
    "escalate": _("handed to a person"),
    "error": _("failed"),
}
PLAN_STEP_LABELS: dict[str, Promise] = {
    "pending": _("to do"),
    "running": _("running"),
    "done": _("done"),
    "skipped": _("skipped"),
}

# The plan's history (``agents.team.graph.planner``): the first plan, then each revision's decision.
PLAN_REVISION_LABELS: dict[str, Promise] = {"plan": _("first plan"), "revision": _("revision")}
PLAN_DECISION_LABELS: dict[str, Promise] = {
    "retry": _("try again"),
    "move_on": _("move on without it"),
    "wait_for_answer": _("wait for the answer it depends on"),
}

# The graph's nodes, as the timeline names a step of a run.
NODE_LABELS: dict[str, Promise] = {
    "classify": _("understood the request"),
    "execute": _("handed out the work"),
    "specialist": _("specialist answered"),
    "review": _("checked the answers"),
    "acknowledge": _("acknowledged"),
    "await_approval": _("waits for approval"),
    "act_on_decisions": _("acted on the decisions"),
    "ask": _("asked the customer"),
    "merge": _("combined the answers"),
    "finalize": _("wrote the reply"),
}

# Who wrote a line of the hand-off package's history.
HISTORY_ROLE_LABELS: dict[str, Promise] = {
    "human": _("Customer"),
    "ai": _("AI"),
    "operator": _("Operator"),
    "system": _("System"),
}

# The hand-off verdicts (``agents.team.handoffs.receipts.Verdict``).
VERDICT_LABELS: dict[str, Promise] = {
    "ROUTE_REJECTED": _("route rejected"),
    "STALE_CONTROL": _("stale control"),
    "OPEN_TOOL_PROTOCOL": _("tool call left open"),
    "CONTEXT_INCOMPLETE": _("context incomplete"),
    "DESTINATION_NOT_STARTED": _("specialist never started"),
    "WAITING_ON_APPROVAL": _("waiting for approval"),
    "UNCERTAIN_WAIT": _("uncertain wait"),
    "FALSE_COMPLETE": _("reported done, not verified"),
    "HEALTHY": _("healthy"),
}

# The shop's states, as the facts panel shows them.
ORDER_STATUS_LABELS: dict[str, Promise] = {
    OrderStatus.PENDING: _("pending"),
    OrderStatus.CONFIRMED: _("confirmed"),
    OrderStatus.SHIPPED: _("shipped"),
    OrderStatus.DELIVERED: _("delivered"),
    OrderStatus.CANCELLED: _("cancelled"),
}
SHIPMENT_STATUS_LABELS: dict[str, Promise] = {
    ShipmentStatus.PREPARING: _("preparing"),
    ShipmentStatus.IN_TRANSIT: _("in transit"),
    ShipmentStatus.OUT_FOR_DELIVERY: _("out for delivery"),
    ShipmentStatus.DELIVERED: _("delivered"),
    ShipmentStatus.ABSENT_RETURNED: _("back at the depot (nobody home)"),
}
PAYMENT_STATUS_LABELS: dict[str, Promise] = {
    PaymentStatus.AUTHORIZED: _("authorized"),
    PaymentStatus.CAPTURED: _("captured"),
    PaymentStatus.REFUNDED: _("refunded"),
    PaymentStatus.PARTIALLY_REFUNDED: _("partially refunded"),
    PaymentStatus.FAILED: _("failed"),
    PaymentStatus.VOIDED: _("voided (authorization released)"),
}
PAYMENT_METHOD_LABELS: dict[str, Promise] = {
    PaymentMethod.CARD: _("card"),
    PaymentMethod.CONVENIENCE_STORE: _("convenience store"),
    PaymentMethod.BANK_TRANSFER: _("bank transfer"),
    PaymentMethod.CASH_ON_DELIVERY: _("cash on delivery"),
}

# The policy checks behind an action (``netshop.services.policy_checks``), by name.
CHECK_LABELS: dict[str, Promise] = {
    "payment_captured": _("The payment is captured"),
    "amount_positive": _("The amount is above zero"),
    "within_refundable": _("Within what can still be refunded"),
    "reason_given": _("A reason is given"),
    "order_cancellable": _("The order can still be cancelled"),
    "payment_authorization": _("What happens to the payment"),
    "not_out_for_delivery": _("The parcel is not out for delivery"),
    "parcel_at_depot": _("The parcel is back at the depot"),
    "slot_date_in_range": _("The redelivery date is allowed"),
    "slot_window_valid": _("The time window exists"),
    "date_differs": _("The new date differs from the current one"),
    "date_in_range": _("The new date is allowed"),
    "first_for_inquiry": _("First coupon for this inquiry"),
    "inquiry_given": _("The inquiry is named"),
    "value_positive": _("The value is above zero"),
    "value_within_cap": _("Within the coupon cap"),
    "within_customer_limit": _("Within the customer's coupon limit"),
}

# The customer's reason as the specialists word it
# (``agents.providers.offline.understanding.reasons.REASONS``); a model may word it
# otherwise, and then it is shown as written.
CUSTOMER_REASON_LABELS: dict[str, Promise] = {
    "damaged item": _("damaged item"),
    "parcel not delivered": _("parcel not delivered"),
    "wrong item": _("wrong item"),
    "charged twice": _("charged twice"),
    "customer request": _("customer request"),
}

# Where a message came from, and the language it was written in.
CHANNEL_LABELS: dict[str, Promise] = {
    "web": _("web form"),
    "help": _("help page"),
    "console": _("console"),
    "api": _("API"),
    "cli": _("command line"),
    "demo": _("demo"),
}
LANGUAGE_LABELS: dict[str, Promise] = {"ja": _("Japanese"), "en": _("English")}
# Where a help article sits (``netshop.knowledge.models.ArticleCategory``).
ARTICLE_CATEGORY_LABELS: dict[str, Promise] = {
    "returns": pgettext_lazy("article category", "Returns and exchanges"),
    "delivery": pgettext_lazy("article category", "Delivery"),
    "payment": pgettext_lazy("article category", "Payment"),
    "account": pgettext_lazy("article category", "Account"),
    "coupons": pgettext_lazy("article category", "Coupons"),
    "orders": pgettext_lazy("article category", "Orders"),
    "other": pgettext_lazy("article category", "Other"),
}
# A help article's version (``netshop.knowledge.models.ArticleStatus``).
ARTICLE_STATUS_LABELS: dict[str, Promise] = {
    "draft": pgettext_lazy("article version", "draft"),
    "published": pgettext_lazy("article version", "published"),
}

# An escalation's own state (``agents.models.EscalationStatus``).
ESCALATION_STATUS_LABELS: dict[str, Promise] = {
    EscalationStatus.OPEN: pgettext_lazy("escalation status", "open"),
    EscalationStatus.DECIDED: pgettext_lazy("escalation status", "decided"),
}

# The inbox's filters (``agents.support.conversations.search.STATUS_FILTERS``), in words.
INBOX_FILTER_LABELS: dict[str, Promise] = {
    "ai_resolved": _("resolved by the AI"),
    "awaiting_customer": _("awaiting the customer"),
    "human_owned": _("taken over by a person"),
    "flagged": _("flagged for review"),
    "escalated": _("with a person (escalated or awaiting a decision)"),
    "failed": _("failed"),
    "waiting_on_us": _("waiting on us (the customer wrote last)"),
}


# --- Triage (issue 26, section 2) ---------------------------------------------------------
# The fields a decision can change against the recommendation, as its change list names them
# (``operators.console.presenters.decision.decision_changes``).
CHANGE_FIELD_LABELS: dict[str, Promise] = {
    "amount": _("Amount"),
    "reason": _("Reason"),
    "rejection_reason": _("Reason for the rejection"),
    "reply": _("Reply to the customer"),
}
# --- end of triage ------------------------------------------------------------------------


# Every audit action (``netshop.audit.AuditAction``), as the audit log and timeline name it.
AUDIT_ACTION_LABELS: dict[str, Promise] = {
    AuditAction.INQUIRY_RECEIVED: _("Inquiry received"),
    AuditAction.INQUIRY_ROUTED: _("Inquiry routed"),
    AuditAction.HANDOFF_VERDICT: _("Hand-off checked"),
    AuditAction.AGENT_STARTED: _("Specialist started"),
    AuditAction.AGENT_ENVELOPE: _("Specialist answered"),
    AuditAction.HANDOFF_RECEIPT: _("Hand-off receipt"),
    AuditAction.WAIT_OPENED: _("Waiting for a person"),
    AuditAction.ESCALATION_CLAIMED: _("Claimed"),
    AuditAction.ESCALATION_RELEASED: _("Released"),
    AuditAction.ESCALATION_ASSIGNED: _("Assigned"),
    AuditAction.ESCALATION_CLAIM_TIMED_OUT: _("Claim released after no activity"),
    AuditAction.ESCALATION_OVERDUE: _("Past its deadline"),
    AuditAction.DECISION_APPROVE: _("Approved"),
    AuditAction.DECISION_EDIT: _("Approved with changes"),
    AuditAction.DECISION_REJECT: _("Rejected"),
    AuditAction.DECISION_TAKE_OVER: _("Taken over"),
    AuditAction.DECISION_REVIEWED: _("Reviewed"),
    AuditAction.DECISION_SEND_REPLY: _("Drafted reply sent"),
    AuditAction.SIDE_EFFECT_REFUND: _("Refund made"),
    AuditAction.SIDE_EFFECT_CANCEL: _("Order cancelled"),
    AuditAction.SIDE_EFFECT_REDELIVERY: _("Redelivery arranged"),
    AuditAction.SIDE_EFFECT_DATE_CHANGE: _("Delivery date changed"),
    AuditAction.SIDE_EFFECT_COUPON: _("Coupon issued"),
    AuditAction.SIDE_EFFECT_RETURN: _("Return accepted"),
    AuditAction.SIDE_EFFECT_EXCHANGE: _("Exchange arranged"),
    AuditAction.SIDE_EFFECT_ORDER_CHANGE: _("Order items changed"),
    AuditAction.SIDE_EFFECT_ADDRESS_CHANGE: _("Delivery address changed"),
    AuditAction.SIDE_EFFECT_RECEIPT: _("Receipt issued"),
    AuditAction.REPLY_SENT: _("Reply sent"),
    AuditAction.MESSAGE_POSTED: _("Message posted"),
    AuditAction.CONVERSATION_TAKEN_OVER: _("Conversation taken over"),
    AuditAction.CONVERSATION_ASSIGNED: _("Conversation assigned"),
    AuditAction.CONVERSATION_HANDED_BACK: _("Conversation handed back to the AI"),
    AuditAction.CONVERSATION_CLOSED: _("Conversation closed"),
    AuditAction.CONVERSATION_REOPENED: _("Conversation reopened"),
    AuditAction.CONVERSATION_FLAGGED: _("Conversation flagged for review"),
    AuditAction.ANSWER_REVIEWED: _("AI answer reviewed"),
    AuditAction.ANSWER_CORRECTED: _("AI answer corrected"),
    AuditAction.DRAFT_SENT: _("Draft sent"),
    AuditAction.AUTONOMY_CHANGED: _("AI autonomy changed"),
    AuditAction.POLICY_CHANGED: _("Shop policy changed"),
    AuditAction.CANNED_REPLY_CHANGED: _("Canned reply changed"),
    AuditAction.ARTICLE_CREATED: _("Help article created"),
    AuditAction.ARTICLE_DESCRIBED: _("Help article's category or tags changed"),
    AuditAction.ARTICLE_DRAFT_SAVED: _("Help article draft saved"),
    AuditAction.ARTICLE_PUBLISHED: _("Help article published"),
    AuditAction.ANSWER_FEEDBACK: _("Customer's feedback on an answer"),
    AuditAction.CONSOLE_LOGIN: _("Signed in to the console"),
    AuditAction.LOGIN_LOCKED_OUT: _("Sign-in locked out"),
    AuditAction.AUDIT_KEY_ROTATED: _("Audit key rotated"),
    AuditAction.AUDIT_TAMPER_DETECTED: _("Tampering with the audit log detected"),
}
# A whole family of actions (the search's ``decision.``), by its subject.
AUDIT_SUBJECT_LABELS: dict[str, Promise] = {
    "inquiry": _("every inquiry entry"),
    "handoff": _("every hand-off entry"),
    "agent": _("every specialist entry"),
    "wait": _("every wait"),
    "escalation": _("every escalation entry"),
    "decision": _("every decision"),
    "side_effect": _("every side effect"),
    "reply": _("every reply"),
    "message": _("every message"),
    "conversation": _("every conversation entry"),
    "answer": _("every answer entry"),
    "draft": _("every draft entry"),
    "autonomy": _("every autonomy change"),
    "policy": _("every policy change"),
    "canned_reply": _("every canned-reply change"),
    "article": _("every help article entry"),
    "console": _("every console sign-in"),
    "login": _("every sign-in lockout"),
    "audit": _("every audit-key entry"),
}
# How the timeline groups the entries (``operators.audit.presenters.entry_kind``).
ENTRY_KIND_LABELS: dict[str, Promise] = {
    "run": pgettext_lazy("audit entry kind", "run"),
    "receipt": pgettext_lazy("audit entry kind", "receipt"),
    "wait": pgettext_lazy("audit entry kind", "wait"),
    "decision": pgettext_lazy("audit entry kind", "decision"),
    "side-effect": pgettext_lazy("audit entry kind", "side effect"),
}
# Who an open escalation waits on when nobody holds it (``agents.models.*_QUEUE``).
QUEUE_LABELS: dict[str, Promise] = {
    OPERATORS_QUEUE: _("operators' queue"),
    MANAGERS_QUEUE: _("managers' queue"),
}
# The dashboard's time-to-decision buckets (``operators.audit.selectors.DECISION_BUCKETS``).
DECISION_BUCKET_LABELS: dict[str, Promise] = {
    "under_5_min": _("< 5 min"),
    "5_to_15_min": _("5–15 min"),
    "15_to_60_min": _("15–60 min"),
    "1_to_4_h": _("1–4 h"),
    "over_4_h": _("> 4 h"),
}

# The terms a template names with the ``shown_as`` filter: ``{{ task.agent|shown_as:"agent" }}``.
TERMS: dict[str, Mapping[str, Label]] = {
    "agent": AGENT_LABELS,
    "audit_action": AUDIT_ACTION_LABELS,
    "entry_kind": ENTRY_KIND_LABELS,
    "queue": QUEUE_LABELS,
    "answer_verdict": ANSWER_VERDICT_LABELS,
    "wrong_answer": WRONG_ANSWER_LABELS,
    "channel": CHANNEL_LABELS,
    "check": CHECK_LABELS,
    "customer_reason": CUSTOMER_REASON_LABELS,
    "envelope_status": ENVELOPE_STATUS_LABELS,
    "escalation_status": ESCALATION_STATUS_LABELS,
    "history_role": HISTORY_ROLE_LABELS,
    "language": LANGUAGE_LABELS,
    "article_category": ARTICLE_CATEGORY_LABELS,
    "article_status": ARTICLE_STATUS_LABELS,
    "order_status": ORDER_STATUS_LABELS,
    "payment_method": PAYMENT_METHOD_LABELS,
    "payment_status": PAYMENT_STATUS_LABELS,
    "plan_decision": PLAN_DECISION_LABELS,
    "plan_revision": PLAN_REVISION_LABELS,
    "plan_step": PLAN_STEP_LABELS,
    "reason": REASON_LABELS,
    "shipment_status": SHIPMENT_STATUS_LABELS,
    "skill": SKILL_LABELS,
    "verdict": VERDICT_LABELS,
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


def elapsed(value: dt.timedelta | None) -> str:
    """A measured span such as a first response: "under a second", "40 s", then as
    ``duration`` ("2 min", "3 h 20 min"); "–" when there is nothing to measure."""
    if value is None:
        return "–"
    seconds = int(value.total_seconds())
    if seconds < 1:
        return gettext("under a second")
    if seconds < 60:
        return ngettext("%(n)d s", "%(n)d s", seconds) % {"n": seconds}
    return duration(seconds // 60)


def actor_text(actor: str) -> str:
    """Who wrote an audit entry, in words: a specialist, the system, the customer, a channel,
    or a staff member's username as it is."""
    kind, _, name = actor.partition(":")
    if kind == "agent" and name:
        return gettext("%(agent)s (AI)") % {"agent": label(AGENT_LABELS, name)}
    if kind == "channel" and name:
        return gettext("%(channel)s channel") % {"channel": label(CHANNEL_LABELS, name)}
    return {"system": gettext("System"), "customer": gettext("Customer")}.get(actor, actor)


def audit_action_text(action: str) -> str:
    """An audit action, or a whole family of them (``decision.``), in words."""
    if action.endswith("."):
        return label(AUDIT_SUBJECT_LABELS, action[:-1])
    return label(AUDIT_ACTION_LABELS, action)


def owner_text(owner: str) -> str:
    """Who an escalation waits on: a queue in words, or the holder's username."""
    return label(QUEUE_LABELS, owner)


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


def subtask_result(task: Mapping[str, Any]) -> str:
    """A specialist's answer in words, from its status, its tools and its error code (its
    ``message`` is the run's English note, kept in the package for engineers)."""
    status = str(task.get("status") or "")
    tools = [label(TOOL_LABELS, str(tool)) for tool in task.get("data") or {}]
    if status == "success" and tools:
        return gettext("answered from: %(tools)s") % {"tools": ", ".join(tools)}
    code = str(task.get("error_code") or "")
    if code:
        return error_text(code)
    return label(ENVELOPE_STATUS_LABELS, status)


def error_text(code: str) -> str:
    """What an error or escalation code means, in the reader's language; unknown: the code."""
    if code in REASON_LABELS:
        return str(REASON_LABELS[code])
    entry = CATALOGUE.get(code)
    if entry is not None and "%(" not in str(entry.message):
        return str(entry.message)
    return code


def check_text(check: Mapping[str, Any]) -> str:
    """A policy check in words; a failed one also says why, from its refusal code."""
    name = label(CHECK_LABELS, str(check.get("name") or ""))
    if check.get("passed") or not check.get("code"):
        return name
    return f"{name}: {error_text(str(check['code']))}"


# How a hand-off verdict is coloured wherever it is shown (audit, console): the rest are "bad".
VERDICT_CSS = {"HEALTHY": "ok", "WAITING_ON_APPROVAL": "warn"}
