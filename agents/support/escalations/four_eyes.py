"""Four eyes that people can see: a first approval waiting for a manager's second one.

After a first approval of an action at or above the four-eyes amount, the wait leaves its
first approver's hands and sits in the managers' queue (``awaits_second_approval``): the
queue row says so, managers find it under "Managers' queue" and are mailed, and the console
shows the first approver why the second approval is not theirs to give. The rule itself
(who may approve) stays in ``approvals``; this module only makes it visible.
"""

from __future__ import annotations

from typing import Any, cast

from agents.models import MANAGERS_QUEUE, ActionState, Escalation
from agents.support.escalations.action_states import action_decisions_shown, action_state
from agents.support.escalations.approvals import approver_refusal
from agents.support.shapes import PendingAction
from netshop.errors import DomainError


def second_approval_awaited(escalation: Escalation) -> bool:
    """Whether one of the escalation's actions has its first approval and awaits a second."""
    return any(
        action_state(escalation, action) == ActionState.AWAITING_SECOND_APPROVAL
        for action in cast(list[PendingAction], escalation.actions)
    )


def second_approval_mark(escalation: Escalation) -> list[str]:
    """Bring ``awaits_second_approval`` up to date on the locked row after a decision; a wait
    that starts awaiting a manager is released to the managers' queue. Returns the fields
    changed, for the caller's save."""
    awaited = second_approval_awaited(escalation)
    if awaited == escalation.awaits_second_approval:
        return []
    escalation.awaits_second_approval = awaited
    if not awaited:
        return ["awaits_second_approval"]
    escalation.claimed_by = None
    escalation.claimed_at = escalation.claim_active_at = None
    escalation.owner = MANAGERS_QUEUE
    return ["awaits_second_approval", "claimed_by", "claimed_at", "claim_active_at", "owner"]


def next_approval_refusal(escalation: Escalation, *, user: Any) -> str:
    """Why ``user`` may not give the second approval an action waits for, in their words;
    empty when they may (or when nothing waits for one)."""
    for shown in action_decisions_shown(escalation):
        if shown["state"] != ActionState.AWAITING_SECOND_APPROVAL:
            continue
        try:
            approver_refusal(user=user, amount=shown["amount"], approvals=shown["approvals"])
        except DomainError as refusal:
            return refusal.localized()
    return ""
