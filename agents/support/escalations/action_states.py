"""Where each pending action of an escalation is: waiting for a decision, for a manager's
second approval, or decided (``ActionState``), read from ``Escalation.action_decisions``."""

from __future__ import annotations

from typing import Any, cast

from agents.models import ActionState, Escalation
from agents.support.escalations.approvals import action_amount, approvals_needed, effective_params
from agents.support.shapes import Decision, PendingAction
from agents.support.vocabulary import MONEY_SKILLS, OperatorDecision
from netshop.policy import Policy, policy_in_force

D = OperatorDecision


def action_amount_decided(action: PendingAction, record: dict[str, Any]) -> int:
    return action_amount(action, effective_params(action, cast(Decision, record)))


def action_record(escalation: Escalation, action_id: str) -> dict[str, Any] | None:
    """The decision recorded on one action, or None while it has none."""
    entry = (escalation.action_decisions or {}).get(action_id)
    return dict(entry["record"]) if entry else None


def action_state(
    escalation: Escalation, action: PendingAction, policy: Policy | None = None
) -> ActionState:
    """Whether an action waits for a decision, for a manager's second approval, or neither.
    The four-eyes amount is the policy's in force, or the one a first approval was given
    under if that was lower (``approvals.approvals_needed``)."""
    record = action_record(escalation, action["action_id"])
    if record is None:
        return ActionState.PENDING
    approved = record["decision"] in (D.APPROVE, D.EDIT) and action["kind"] in MONEY_SKILLS
    if not approved:
        return ActionState.DECIDED
    asked_at = record.get("four_eyes_yen")
    needed = approvals_needed(action_amount_decided(action, record), policy, asked_at=asked_at)
    if len(record.get("approvals", [])) < needed:
        return ActionState.AWAITING_SECOND_APPROVAL
    return ActionState.DECIDED


def all_actions_decided(escalation: Escalation) -> bool:
    policy = policy_in_force()
    return all(
        action_state(escalation, a, policy) == ActionState.DECIDED
        for a in cast(list[PendingAction], escalation.actions)
    )


def action_decisions_shown(escalation: Escalation) -> list[dict[str, Any]]:
    """Each action with where it is, what was decided and who approved it (the API's
    ``action_decisions``, the console's per-action forms)."""
    shown = []
    policy = policy_in_force() if escalation.action_decisions else None
    for action in cast(list[PendingAction], escalation.actions):
        record = action_record(escalation, action["action_id"])
        entry = (escalation.action_decisions or {}).get(action["action_id"], {})
        amount = action_amount_decided(action, record or {"decision": ""})
        shown.append(
            {
                "action_id": action["action_id"],
                "kind": action["kind"],
                "amount": amount or int(action.get("amount_at_risk") or 0),
                "state": action_state(escalation, action, policy),
                "decision": record["decision"] if record else None,
                "reason": record.get("reason", "") if record else "",
                "approvals": list(record.get("approvals", [])) if record else [],
                "decided_by": entry.get("by"),
                "decided_at": entry.get("at"),
            }
        )
    return shown
