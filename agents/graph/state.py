"""The graph's state: a narrow input, and the fuller state the nodes share.

Everything here is JSON-shaped (dicts, lists, strings, numbers) so that checkpoints stay
readable and portable between the SQLite and PostgreSQL savers.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from agents.models import InquiryStatus
from agents.shapes import Decision, EnvelopeDict, HandoffReceipt, PendingAction


def merge_dicts(left: dict[str, Any], right: dict[str, Any]) -> dict[str, Any]:
    """Reducer for maps written by parallel branches: later keys win."""
    return {**left, **right}


class InquiryInput(TypedDict):
    """What a run starts from. ``customer_id`` comes from the authenticated intake only;
    ``customer_language`` is the customer's own setting, for texts that do not say."""

    inquiry_id: str
    customer_id: str
    text: str
    customer_language: NotRequired[str]


class PlanStep(TypedDict):
    """One numbered step of the plan (seed 001): one specialist, its dependencies, its fate."""

    step: int
    agent: str
    intent: str
    depends_on: list[int]
    status: Literal["pending", "running", "done", "skipped"]
    attempts: int
    replans: int


class InquiryState(InquiryInput, total=False):
    language: str
    """Language the reply is written in ("ja" or "en")."""
    classification: dict[str, Any]
    """The supervisor's ``Classification`` (agents, intent, entities, ...)."""
    plan: list[PlanStep]
    """The current plan; replaced whole whenever the executor or re-planner changes it."""
    plan_history: Annotated[list[dict[str, Any]], operator.add]
    """Every plan and revision, with why it was made."""
    envelopes: Annotated[dict[str, EnvelopeDict], merge_dicts]
    """Each specialist's latest ``Envelope`` by agent name."""
    transcripts: Annotated[dict[str, list[dict[str, Any]]], merge_dicts]
    """Each specialist's own messages (model turns and tool messages), serialised."""
    pending_actions: list[PendingAction]
    """Refunds and cancellations prepared by specialists, waiting for a person."""
    decisions: dict[str, Decision]
    """The operators' decisions by action id, as resumed into the run."""
    action_results: list[dict[str, Any]]
    """What happened to each pending action (executed, refused, declined)."""
    errors: Annotated[list[dict[str, Any]], operator.add]
    """Failures met on the way (agent, code, message), for the hand-off package."""
    receipts: Annotated[list[HandoffReceipt], operator.add]
    """Content-free hand-off receipts (seed 002)."""
    escalation: dict[str, Any] | None
    """Why a person must look at this inquiry (kind, reason, summary), if they must."""
    messages: Annotated[list[AnyMessage], add_messages]
    """The customer-facing conversation: the inquiry and the reply."""
    reply: str
    operator_reply: str
    """A reply an operator wrote with their edit: sent instead of the writer's."""
    status: InquiryStatus
    """The run's status: the inquiry's own vocabulary (checkpointed as the plain value)."""
