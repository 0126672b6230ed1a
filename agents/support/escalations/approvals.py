"""Four eyes and limits by role: the approvals a refund or cancellation needs.

Checked twice, with the same rules: when a person decides (``services.escalation_decide``)
and when the action runs (``gated_actions.carry_out``), so that a decision record that did
not come through the service (forged, or half of a four-eyes approval) never pays out. The
limits are the shop's policy (``netshop.policy``): each check reads the version in force, so
a limit lowered between the approval and the run is the one the run is held to.

The amount is the action's own (after an edit, the edited one): the refund's amount, or
what a cancellation puts at risk. Approvals are usernames, first approver first; the roles
are read when the check runs, so a manager who lost the role no longer counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User

from agents.support.shapes import Decision, PendingAction
from agents.support.vocabulary import MONEY_SKILLS, OperatorDecision, Skill
from netshop.errors import DomainError
from netshop.policy import Policy, policy_in_force
from netshop.roles import Role, user_has_role

# What an operator may change of each gated action when they approve it with an edit.
EDITABLE_PARAMS: dict[str, set[str]] = {
    Skill.PROCESS_REFUND: {"amount", "reason"},
    Skill.CANCEL_ORDER: {"reason"},
    Skill.RETURN_ITEMS: {"amount", "reason"},
    Skill.EXCHANGE_ITEMS: {"reason"},
    Skill.MODIFY_ORDER_ITEMS: set(),
}


def effective_params(action: PendingAction, decision: Decision) -> dict[str, Any]:
    """The recommended parameters, with an edit's allowed changes applied."""
    params = dict(action["params"])
    if decision["decision"] == OperatorDecision.EDIT:
        allowed = EDITABLE_PARAMS.get(action["kind"], set())
        params.update({k: v for k, v in (decision.get("params") or {}).items() if k in allowed})
    return params


def action_amount(action: Mapping[str, Any], params: Mapping[str, Any]) -> int:
    """The yen a gated action moves, as decided; 0 for one that moves no money."""
    if action["kind"] not in MONEY_SKILLS:
        return 0
    return int(params.get("amount", action.get("amount_at_risk")) or 0)


def approvals_needed(
    amount: int, policy: Policy | None = None, *, asked_at: int | None = None
) -> int:
    """Two approvals at or above the four-eyes amount in force, else one. ``asked_at`` is the
    four-eyes amount a first approval was given under: a limit raised since does not take
    back the second approval that approval was given expecting (the stricter one holds)."""
    threshold = (policy or policy_in_force()).four_eyes_yen
    if asked_at is not None:
        threshold = min(threshold, asked_at)
    return 2 if amount >= threshold else 1


def manager_only(amount: int, policy: Policy | None = None) -> bool:
    """Above the operator's limit only managers may approve."""
    return amount > (policy or policy_in_force()).operator_limit_yen


def approver_refusal(
    *, user: User, amount: int, approvals: Sequence[str], policy: Policy | None = None
) -> None:
    """Raise the ``DomainError`` that stops ``user`` giving the next approval, if any:
    the first approver approving again, a second approval by an operator, an operator
    approving above their limit."""
    policy = policy or policy_in_force()
    if manager_only(amount, policy) and not user_has_role(user, Role.MANAGER):
        raise DomainError("over_operator_limit", limit=f"{policy.operator_limit_yen:,}")
    if not approvals:
        return
    if user.username in approvals:
        raise DomainError("second_approval_by_other", who=approvals[0])
    if not user_has_role(user, Role.MANAGER):
        raise DomainError("second_approval_needs_manager")


def approval_policy(policy: Policy, earlier: Mapping[str, Any] | None = None) -> dict[str, int]:
    """What an approval records of the policy it was checked against: the version, and the
    four-eyes amount it was given under (the stricter of this and an earlier approval's)."""
    four_eyes = policy.four_eyes_yen
    if earlier and earlier.get("four_eyes_yen") is not None:
        four_eyes = min(four_eyes, int(earlier["four_eyes_yen"]))
    return {"policy_version": policy.version, "four_eyes_yen": four_eyes}


def approved_by(decision: Mapping[str, Any]) -> str:
    """Who the side effect is done in the name of: every approver, first first ("alice,
    bob"), so the refund's row and its audit entry name both of a four-eyes approval."""
    names = list(dict.fromkeys(decision.get("approvals") or []))
    return ", ".join(names) if names else str(decision.get("operator", ""))


def approvals_complete(
    *, amount: int, approvals: Sequence[str], policy: Policy | None = None
) -> bool:
    """Whether the recorded approvals let the action run under ``policy`` (by default the
    one in force now; roles read now)."""
    policy = policy or policy_in_force()
    needed = approvals_needed(amount, policy)
    if needed == 1 and not manager_only(amount, policy):
        return True  # one approval, by anyone who could decide: the service checked them
    return len(approvals_that_count(amount=amount, approvals=approvals, policy=policy)) >= needed


def approvals_that_count(
    *, amount: int, approvals: Sequence[str], policy: Policy | None = None
) -> list[str]:
    """The approvers, first first, whose approval counts for ``amount`` under ``policy``: an
    operator's does not count above the operator limit, nor as a second approval. The ones
    a lowered limit leaves standing carry over when the action waits again."""
    policy = policy or policy_in_force()
    names = list(dict.fromkeys(approvals))
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    counted: list[str] = []
    for name in names:
        user = users.get(name)
        if user is None or not user_has_role(user, Role.OPERATOR):
            continue
        is_manager = user_has_role(user, Role.MANAGER)
        if (manager_only(amount, policy) or counted) and not is_manager:
            continue
        counted.append(name)
    return counted
