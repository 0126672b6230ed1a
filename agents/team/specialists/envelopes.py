"""The one envelope shape a specialist answers with, folded from its sub-graph's final state.

Apart from the loop because the delegation folds the state after the sub-graph has run:
success, an error, an approval to ask for, or reasoning steps exhausted.
"""

from __future__ import annotations

from langchain_core.messages import AIMessage

from agents.contract.schemas import AgentName, Envelope
from agents.team.specialists.asking import ENDING_TOOLS
from agents.team.specialists.state import SpecialistState


def envelope_from(agent: AgentName, state: SpecialistState) -> Envelope:
    """Fold the specialist's final state into the one envelope shape."""
    failure = state.get("failure")
    if failure:
        return Envelope(
            agent=agent, status="error", error_code=failure["code"], message=failure["message"]
        )
    pending = state.get("pending_action")
    results = state.get("results", {})
    if pending:
        return Envelope(
            agent=agent,
            status="escalate",
            error_code="approval_required",
            data={**results, "pending_action": pending},
            message="waiting for an operator's approval",
        )
    last = state["messages"][-1] if state.get("messages") else None
    text = last.content if isinstance(last, AIMessage) and not last.tool_calls else ""
    unrecovered = [e for e in state.get("errors", []) if not e.get("recovered")]
    if unrecovered and not results:
        first = unrecovered[0]
        return Envelope(
            agent=agent,
            status="error",
            error_code=first["code"],
            message=first.get("message", ""),
            data={"errors": unrecovered},
        )
    if isinstance(last, AIMessage) and last.tool_calls:
        return Envelope(
            agent=agent,
            status="error",
            error_code="max_turns",
            data=results,
            message="reasoning steps exhausted",
        )
    if state.get("asked"):
        text = "stopped to ask: " + ", ".join(sorted(set(results) & ENDING_TOOLS))
    elif state.get("answered"):
        text = "answered by " + ", ".join(results)
    return Envelope(agent=agent, status="success", data=results, message=str(text))
