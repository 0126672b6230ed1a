"""The exact reply a decision sends the customer, shown to the operator before it is sent.

The waiting run's checkpointed state is taken as it is, the decision applied to it the way
``await_approval`` and ``act_on_decisions`` would, with the results the decision implies
(executed for an approval or an edit, declined for a rejection), and the reply written by
the same function the ``merge`` node sends (``supervisor.merge_reply``). Nothing runs and
nothing is written. The decision carries the text (``preview``) and the run sends it when
the actions did what it assumed (``approval_nodes.previewed_reply``); otherwise, say a
gateway refusal, the run writes a new reply from what happened.
"""

from __future__ import annotations

import logging
from typing import Any, cast

from agents.models import Escalation
from agents.support.escalations.approvals import effective_params
from agents.support.escalations.language import language_check, operator_words
from agents.support.escalations.reply_previews import ReplyPreview
from agents.support.shapes import Decision, PendingAction
from agents.support.vocabulary import OperatorDecision, Skill
from agents.team.graph import approval_nodes
from agents.team.graph.state import InquiryState
from agents.team.graph.supervisor import merge_reply
from agents.team.run_context import run_config
from agents.team.runs.support_graph import support_graph
from netshop import selectors
from netshop.errors import DomainError
from netshop.models import Customer

logger = logging.getLogger(__name__)
D = OperatorDecision


def decision_reply_preview(
    *,
    escalation: Escalation,
    decision: str,
    params: dict[str, Any] | None = None,
    reason: str = "",
    reply: str = "",
    operator: str = "",
) -> ReplyPreview:
    """The reply ``decision`` would send on ``escalation``. The decision is taken as valid:
    ``services.escalation_preview`` checks it first (it reaches this through
    ``reply_previews``, where ``agents.apps`` registers it), as a decision would be checked."""
    record = {"decision": decision, "params": params or {}, "reason": reason, "reply": reply}
    words = operator_words(decision=decision, reason=reason, reply=reply)
    if decision in (D.TAKE_OVER, D.REVIEWED) or not escalation.actions:
        # The operator's own reply is the reply (a review sends nothing): no run to read.
        check = language_check(words, customer_language=escalation.inquiry.language)
        return ReplyPreview(text=reply if decision == D.TAKE_OVER else "", language=check)
    state = _waiting_state(escalation)
    language = (state or {}).get("language") or escalation.inquiry.language
    check = language_check(words, customer_language=str(language))
    if state is None:
        return ReplyPreview(text="", language=check, exact=False)
    decided = cast(Decision, {**record, "operator": operator})
    decisions = {a["action_id"]: decided for a in escalation.actions}
    text, outcomes = _reply_after(state, decisions, customer=escalation.inquiry.customer)
    return ReplyPreview(text=text, language=check, outcomes=outcomes)


def _waiting_state(escalation: Escalation) -> dict[str, Any] | None:
    """The run's state while it waits on this escalation; ``None`` if it waits on nothing
    (or on another wait: this escalation's decision would not answer it)."""
    inquiry = escalation.inquiry
    config = run_config(inquiry_id=str(inquiry.pk), customer_id=inquiry.customer.code)
    snapshot = support_graph().get_state(config)
    if not snapshot.interrupts or str(snapshot.interrupts[0].id) != escalation.wait_key:
        return None
    return dict(snapshot.values)


def _reply_after(
    state: dict[str, Any], decisions: dict[str, Decision], *, customer: Customer
) -> tuple[str, dict[str, dict[str, Any]]]:
    """The reply ``merge`` would write once the decisions had the results they imply."""
    decided = cast(InquiryState, {**state, "decisions": decisions})
    results = [
        approval_nodes.naming_its_order(
            action, expected_result(action, decisions[action["action_id"]], customer=customer)
        )
        for action in decided["pending_actions"]
        if action["action_id"] in decisions
    ]
    after = cast(InquiryState, {**decided, **approval_nodes.decisions_applied(decided, results)})
    try:
        text = merge_reply(after)
    except Exception as exc:  # a real model may fail: the run writes the reply later
        logger.warning("preview writing failed: %s", type(exc).__name__)
        raise DomainError("preview_unavailable") from None
    outcomes = {str(r["action_id"]): approval_nodes.outcome_facts(r) for r in results}
    return text, outcomes


def expected_result(
    action: PendingAction, decision: Decision, *, customer: Customer
) -> dict[str, Any]:
    """The result ``gated_actions.carry_out`` gives when the action goes through as decided
    (or is declined), in the same shape, without running anything."""
    base = {
        "action_id": action["action_id"],
        "kind": action["kind"],
        "decision": decision["decision"],
        "operator": decision.get("operator", ""),
    }
    if decision["decision"] in (D.REJECT, D.TAKE_OVER):
        return {**base, "outcome": "declined", "reason": decision.get("reason", "")}
    params = effective_params(action, decision)
    if action["kind"] == Skill.PROCESS_REFUND:
        refunded = int(params["amount"])
        return {**base, "outcome": "executed", "params": params, "refund_amount": refunded}
    released = _authorization_held(customer, str(params.get("order_number") or ""))
    return {**base, "outcome": "executed", "params": params, "authorization_released": released}


def _authorization_held(customer: Customer, number: str) -> bool:
    """A cancellation releases the card authorization when the payment is only authorized."""
    try:
        order = selectors.order_get_for_customer(customer=customer, number=number)
    except DomainError:
        return False
    payment = selectors.order_facts(order=order, reload=False).get("payment") or {}
    return payment.get("status") == "authorized"
