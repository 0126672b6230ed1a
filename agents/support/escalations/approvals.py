"""Four eyes and limits by role: the approvals a refund or cancellation needs.

Checked twice, with the same rules: when a person decides (``services.escalation_decide``)
and when the action runs (``gated_actions.carry_out``), so that a decision record that did
not come through the service (forged, or half of a four-eyes approval) never pays out.

The amount is the action's own (after an edit, the edited one): the refund's amount, or
what a cancellation puts at risk. Approvals are usernames, first approver first; the roles
are read when the check runs, so a manager who lost the role no longer counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User

from agents.support.shapes import Decision, PendingAction
from agents.support.vocabulary import MONEY_SKILLS, OperatorDecision, Skill
from netshop.errors import DomainError
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


def approvals_needed(amount: int) -> int:
    """Two approvals at or above the four-eyes amount, else one."""
    return 2 if amount >= settings.NETSHOP_FOUR_EYES_YEN else 1


def manager_only(amount: int) -> bool:
    """Above the operator's limit only managers may approve."""
    return amount > settings.NETSHOP_OPERATOR_LIMIT_YEN


def approver_refusal(*, user: User, amount: int, approvals: Sequence[str]) -> None:
    """Raise the ``DomainError`` that stops ``user`` giving the next approval, if any:
    the first approver approving again, a second approval by an operator, an operator
    approving above their limit."""
    if manager_only(amount) and not user_has_role(user, Role.MANAGER):
        raise DomainError("over_operator_limit", limit=f"{settings.NETSHOP_OPERATOR_LIMIT_YEN:,}")
    if not approvals:
        return
    if user.username in approvals:
        raise DomainError("second_approval_by_other", who=approvals[0])
    if not user_has_role(user, Role.MANAGER):
        raise DomainError("second_approval_needs_manager")


def approved_by(decision: Mapping[str, Any]) -> str:
    """Who the side effect is done in the name of: every approver, first first ("alice,
    bob"), so the refund's row and its audit entry name both of a four-eyes approval."""
    names = list(dict.fromkeys(decision.get("approvals") or []))
    return ", ".join(names) if names else str(decision.get("operator", ""))


def approvals_complete(*, amount: int, approvals: Sequence[str]) -> bool:
    """Whether the recorded approvals let the action run (roles read now)."""
    needed = approvals_needed(amount)
    if needed == 1 and not manager_only(amount):
        return True  # one approval, by anyone who could decide: the service checked them
    names = list(dict.fromkeys(approvals))
    if len(names) < needed:
        return False
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    if any(name not in users or not user_has_role(users[name], Role.OPERATOR) for name in names):
        return False
    if needed == 2 and not user_has_role(users[names[1]], Role.MANAGER):
        return False
    return not manager_only(amount) or all(user_has_role(u, Role.MANAGER) for u in users.values())
