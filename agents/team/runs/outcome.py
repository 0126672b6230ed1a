"""Where a run stopped, and what of it the outside may see.

Its own module because every side reads it: the driver and the recording return a
``RunOutcome``, recovery and the customer page ask whether a status is final, and the API shows
only the public views of envelopes and actions, never a specialist's internals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langgraph.types import StateSnapshot

from agents.models import InquiryStatus

# A failed run is final too: a person owns it now (its escalation), no worker continues it.
FINAL_STATUSES = {
    InquiryStatus.RESOLVED,
    InquiryStatus.ESCALATED,
    InquiryStatus.HANDLED_BY_HUMAN,
    InquiryStatus.FAILED,
}


@dataclass(frozen=True)
class RunStop:
    """Where a leg of the run stopped, as recording reads it: the graph's state, the
    interrupts it waits on, and whether that state is saved in a checkpoint to go on from."""

    values: dict[str, Any]
    interrupts: tuple[Any, ...] = ()
    saved: bool = True

    @classmethod
    def of(cls, snapshot: StateSnapshot) -> RunStop:
        """The stop a checkpoint read back describes (``graph.get_state``)."""
        checkpoint = snapshot.config.get("configurable", {}).get("checkpoint_id")
        return cls(dict(snapshot.values), tuple(snapshot.interrupts), bool(checkpoint))


@dataclass
class RunOutcome:
    """Where a run stopped: finished, or waiting for a person's decision."""

    inquiry_id: str
    status: str
    state: dict[str, Any]
    approval_request: dict[str, Any] | None = None
    pending_actions: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        classification = self.state.get("classification") or {}
        envelopes = self.state.get("envelopes", {})
        return {
            "inquiry_id": self.inquiry_id,
            "status": self.status,
            "language": self.state.get("language"),
            "intent": classification.get("intent"),
            "agents": [
                {"agent": agent, "envelope": _public_envelope(envelopes[agent])}
                for agent in classification.get("agents", [])
                if agent in envelopes
            ],
            "plan": self.state.get("plan", []),
            "reply": self.state.get("reply", ""),
            "pending_actions": [_public_action(a) for a in self.pending_actions],
            "escalation": self.state.get("escalation"),
            "errors": self.state.get("errors", []),
        }


def _public_envelope(envelope: dict[str, Any]) -> dict[str, Any]:
    return {k: envelope.get(k) for k in ("status", "data", "message", "error_code")}


def _public_action(action: dict[str, Any]) -> dict[str, Any]:
    return {
        k: action.get(k)
        for k in (
            "action_id",
            "kind",
            "params",
            "requested_amount",
            "capped",
            "amount_at_risk",
            "checks",
            "tool_call_id",
        )
    }
