"""The detail page's decision panel: who holds the escalation, which decisions it offers,
and what a decision changed against the recommendation.

What may be decided is the service's rule (``decisions_allowed``, the one the API enforces);
this module turns it, once, into the plain flags the template reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from agents.models import ActionState, Escalation, EscalationKind, EscalationStatus
from agents.support.escalations.action_states import action_decisions_shown
from agents.support.escalations.drafts import draft_text
from agents.support.escalations.four_eyes import next_approval_refusal
from agents.support.escalations.package import run_retryable
from agents.support.escalations.services import decisions_allowed
from agents.support.vocabulary import OperatorDecision
from netshop import money
from operators import labels

# Approving, editing and rejecting act on the recorded actions: without any, there is
# nothing to press those buttons on, and only taking over is offered.
WITHOUT_ACTIONS = frozenset({OperatorDecision.TAKE_OVER})


@dataclass(frozen=True)
class DecisionPanel:
    """Which decision forms the page shows, and which stand open."""

    approve: bool
    edit: bool
    reject: bool
    retry: bool  # approving retries a failed refund or cancellation (same operation id)
    reviewed: bool  # a review: the verdict form (correct, or wrong and why)
    approve_label: str
    locked: bool  # decided, or claimed by someone else: the controls are disabled
    edit_open: bool
    take_over_open: bool
    per_action: bool = False  # each action decided on its own, or one awaits a second approval
    draft: str = ""  # a drafted reply: the send form holds it, editable
    # Why this person may not give the second approval an action waits for (they gave the
    # first, or are no manager): the approve buttons are disabled and say so.
    approval_refused: str = ""


def decision_panel(
    escalation: Escalation, *, state: str, user: Any, sent: str = ""
) -> DecisionPanel:
    """The panel for ``escalation`` in ``state`` as ``user`` sees it; ``sent`` is a refused
    decision's kind, whose form stays open so the operator sees what they sent."""
    # A review holds no actions, but offers "reviewed" besides taking over; a crashed run
    # offers running its turn again.
    with_own_decisions = (
        escalation.actions or escalation.kind == EscalationKind.REVIEW or run_retryable(escalation)
    )
    allowed = decisions_allowed(escalation) if with_own_decisions else WITHOUT_ACTIONS
    draft = draft_text(escalation) if escalation.kind == EscalationKind.DRAFT else ""
    return DecisionPanel(
        approve=OperatorDecision.APPROVE in allowed,
        edit=OperatorDecision.EDIT in allowed,
        reject=OperatorDecision.REJECT in allowed,
        retry=OperatorDecision.APPROVE in allowed
        and escalation.kind == EscalationKind.FAILURE
        and bool(escalation.actions),
        reviewed=OperatorDecision.REVIEWED in allowed,
        approve_label=approve_label(escalation),
        locked=state in ("decided", "claimed_by_other"),
        edit_open=sent == OperatorDecision.EDIT,
        take_over_open=(allowed == {OperatorDecision.TAKE_OVER} and not draft)
        or sent == OperatorDecision.TAKE_OVER,
        per_action=OperatorDecision.APPROVE in allowed and _per_action(escalation),
        draft=draft,
        approval_refused=next_approval_refusal(escalation, user=user) if escalation.actions else "",
    )


def _per_action(escalation: Escalation) -> bool:
    """Worth deciding action by action: several actions, or one waiting for four eyes."""
    if len(escalation.actions) > 1:
        return True
    return any(
        d["state"] == ActionState.AWAITING_SECOND_APPROVAL
        for d in action_decisions_shown(escalation)
    )


def approve_label(escalation: Escalation) -> str:
    """What the approve button says: the actions in words, as a retry for a failure."""
    if run_retryable(escalation):
        return gettext("Run it again")
    if not escalation.actions:
        return ""
    if escalation.kind == EscalationKind.FAILURE:
        return labels.retry_label(escalation.actions)
    waiting = {
        d["action_id"]
        for d in action_decisions_shown(escalation)
        if d["state"] != ActionState.DECIDED
    }
    return labels.approve_label([a for a in escalation.actions if a["action_id"] in waiting])


def decision_state(escalation: Escalation, *, user: Any) -> str:
    if escalation.status == EscalationStatus.DECIDED:
        return "decided"
    if escalation.claimed_by_id is None:
        return "unclaimed"
    return "claimed_by_me" if escalation.claimed_by_id == user.pk else "claimed_by_other"


@dataclass(frozen=True)
class Change:
    """What a decision changed against the recommendation."""

    name: str
    before: str
    after: str


def decision_changes(escalation: Escalation) -> list[Change]:
    """The attributed difference between what was recommended and what was decided."""
    record = escalation.decision or {}
    recommended = (escalation.actions[0].get("params") or {}) if escalation.actions else {}
    changes = []
    for name, value in (record.get("params") or {}).items():
        before = recommended.get(name)
        changes.append(Change(name, _shown(name, before), _shown(name, value)))
    if record.get("decision") == OperatorDecision.REJECT and record.get("reason"):
        changes.append(Change("reason", "", record["reason"]))
    if record.get("decision") == OperatorDecision.TAKE_OVER and record.get("reply"):
        changes.append(Change("reply", "", record["reply"]))
    return changes


def _shown(name: str, value: Any) -> str:
    if value is None:
        return ""
    return money.yen(value) if name == "amount" else str(value)
