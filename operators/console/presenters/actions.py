"""The detail page's recommended actions: each with the facts and policy checks behind it.

The run records an action as loose JSON; this gives the template one typed shape to read,
with the order's facts split from its payment, shipment and earlier refunds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from agents.models import ActionState
from agents.support.escalations.action_scope import lines_named_in_part
from agents.support.escalations.approvals import EDITABLE_PARAMS
from operators import labels


@dataclass
class ActionView:
    """One recommended action, with the facts and policy checks behind it."""

    kind: str
    title: str
    params: dict[str, Any]
    why: str
    requested_amount: int | None
    capped: bool
    amount_at_risk: int
    checks: list[dict[str, Any]]
    order: dict[str, Any]
    payment: dict[str, Any]
    shipment: dict[str, Any]
    refunds: list[dict[str, Any]]
    facts_now: bool = False  # read from the shop now, not as the run saw them at hand-off
    action_id: str = ""
    # Its own decision (``action_states.action_decisions_shown``): where it is, what was
    # decided and who approved it.
    state: str = ActionState.PENDING
    decision: str | None = None
    approvals: list[str] = field(default_factory=list)
    decided_by: str | None = None
    amount: int = 0
    # The order's lines the customer named, when the action reaches further (the whole
    # order): the card flags the difference (``action_scope``).
    named_in_part: list[str] = field(default_factory=list)
    customer_text: str = ""

    @property
    def state_label(self) -> str:
        return str(ActionState(self.state).label)

    @property
    def decidable(self) -> bool:
        return self.state != ActionState.DECIDED

    @property
    def amount_editable(self) -> bool:
        """An amount to change before approving, while nobody has approved this action yet."""
        return self.state == ActionState.PENDING and "amount" in EDITABLE_PARAMS.get(
            self.kind, set()
        )


def action_view(action: dict[str, Any], *, customer_text: str = "") -> ActionView:
    """``action`` for the card; ``customer_text``, the words that asked for it, to flag an
    action larger than the request."""
    facts = action.get("facts") or {}
    order = {k: v for k, v in facts.items() if k not in ("payment", "shipment", "refunds")}
    return ActionView(
        kind=action.get("kind", ""),
        title=labels.label(labels.ACTION_LABELS, action.get("kind")),
        params=action.get("params") or {},
        why=(action.get("params") or {}).get("reason", ""),
        requested_amount=action.get("requested_amount"),
        capped=bool(action.get("capped")),
        amount_at_risk=int(action.get("amount_at_risk") or 0),
        checks=list(action.get("checks") or []),
        order=order,
        payment=facts.get("payment") or {},
        shipment=facts.get("shipment") or {},
        refunds=list(facts.get("refunds") or []),
        action_id=str(action.get("action_id", "")),
        named_in_part=lines_named_in_part(action, customer_text),
        customer_text=customer_text,
    )


def with_decision(view: ActionView, shown: dict[str, Any] | None) -> ActionView:
    """``view`` with its own decision, as ``action_decisions_shown`` gives it."""
    if not shown:
        return view
    return replace(
        view,
        state=shown["state"],
        decision=shown["decision"],
        approvals=list(shown["approvals"]),
        decided_by=shown["decided_by"],
        amount=shown["amount"],
    )


def with_facts_now(view: ActionView, facts: dict[str, Any] | None) -> ActionView:
    """``view`` with its order's facts as they stand now (after a refund or cancellation the
    recorded ones are stale); unchanged when the shop has no such order of the customer's."""
    if not facts:
        return view
    order = {k: v for k, v in facts.items() if k not in ("payment", "shipment", "refunds")}
    return replace(
        view,
        order=order,
        payment=facts.get("payment") or {},
        shipment=facts.get("shipment") or {},
        refunds=list(facts.get("refunds") or []),
        facts_now=True,
    )
