"""The names of audit actions, declared once so writers and the manager pages agree.

An action is ``<subject>.<event>``; the manager pages filter on a whole subject with a
trailing dot (``decision.`` finds every decision).
"""

from __future__ import annotations

from enum import StrEnum


class AuditAction(StrEnum):
    INQUIRY_RECEIVED = "inquiry.received"
    INQUIRY_ROUTED = "inquiry.routed"
    # A settled hand-off: its receipt, under the supervisor's verdict.
    HANDOFF_VERDICT = "handoff.verdict"
    # No longer written (the verdict's entry holds the receipt); kept to read older chains.
    AGENT_STARTED = "agent.started"
    AGENT_ENVELOPE = "agent.envelope"
    HANDOFF_RECEIPT = "handoff.receipt"
    WAIT_OPENED = "wait.opened"
    ESCALATION_CLAIMED = "escalation.claimed"
    ESCALATION_RELEASED = "escalation.released"
    ESCALATION_ASSIGNED = "escalation.assigned"
    ESCALATION_CLAIM_TIMED_OUT = "escalation.claim_timed_out"
    ESCALATION_OVERDUE = "escalation.overdue"
    DECISION_APPROVE = "decision.approve"
    DECISION_EDIT = "decision.edit"
    DECISION_REJECT = "decision.reject"
    DECISION_TAKE_OVER = "decision.take_over"
    DECISION_REVIEWED = "decision.reviewed"
    DECISION_SEND_REPLY = "decision.send_reply"
    SIDE_EFFECT_REFUND = "side_effect.refund"
    SIDE_EFFECT_CANCEL = "side_effect.cancel"
    SIDE_EFFECT_REDELIVERY = "side_effect.redelivery"
    SIDE_EFFECT_DATE_CHANGE = "side_effect.delivery_date_change"
    SIDE_EFFECT_COUPON = "side_effect.coupon"
    SIDE_EFFECT_RETURN = "side_effect.return"
    SIDE_EFFECT_EXCHANGE = "side_effect.exchange"
    SIDE_EFFECT_ORDER_CHANGE = "side_effect.order_change"
    SIDE_EFFECT_ADDRESS_CHANGE = "side_effect.address_change"
    SIDE_EFFECT_RECEIPT = "side_effect.receipt"
    REPLY_SENT = "reply.sent"
    MESSAGE_POSTED = "message.posted"
    CONVERSATION_TAKEN_OVER = "conversation.taken_over"
    CONVERSATION_ASSIGNED = "conversation.assigned"
    CONVERSATION_HANDED_BACK = "conversation.handed_back"
    CONVERSATION_CLOSED = "conversation.closed"
    CONVERSATION_REOPENED = "conversation.reopened"
    CONVERSATION_FLAGGED = "conversation.flagged"
    ANSWER_REVIEWED = "answer.reviewed"
    ANSWER_CORRECTED = "answer.corrected"
    DRAFT_SENT = "draft.sent"
    AUTONOMY_CHANGED = "autonomy.changed"
    POLICY_CHANGED = "policy.changed"
    CANNED_REPLY_CHANGED = "canned_reply.changed"
    # The shop's help articles (``netshop.knowledge``): data names article, language, version.
    ARTICLE_CREATED = "article.created"
    ARTICLE_DESCRIBED = "article.described"
    ARTICLE_DRAFT_SAVED = "article.draft_saved"
    ARTICLE_PUBLISHED = "article.published"
    ANSWER_FEEDBACK = "answer.feedback"
    CONSOLE_LOGIN = "console.login"
    LOGIN_LOCKED_OUT = "login.locked_out"
    # The chain's own custody: a new key takes over, or a writer found an unsigned head.
    AUDIT_KEY_ROTATED = "audit.key_rotated"
    AUDIT_TAMPER_DETECTED = "audit.tamper_detected"


# The actor of a side effect whose service is not told who asked for it.
SYSTEM_ACTOR = "system"
