"""The graph's state: a narrow input, and the fuller state the nodes share.

Everything here is JSON-shaped (dicts, lists, strings, numbers) so that checkpoints stay
readable and portable between the SQLite and PostgreSQL savers.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from langgraph.types import Overwrite

from agents.models import InquiryStatus
from agents.support.shapes import Decision, EnvelopeDict, HandoffReceipt, PendingAction
from agents.team.specialists.state import merge_dicts


class InquiryInput(TypedDict):
    """What a run (one turn of the conversation) starts from. ``customer_id`` comes from the
    authenticated intake only; ``customer_language`` is the customer's own setting, for texts
    that do not say. ``text`` is what the customer wrote since the last turn; ``messages``
    brings those messages (and any an operator wrote meanwhile) into the thread, whose
    earlier turns are the run's memory."""

    inquiry_id: str
    customer_id: str
    text: str
    customer_language: NotRequired[str]
    turn: NotRequired[int]
    """The turn's number, from 1; the ids of the turn's own messages carry it."""
    question_open: NotRequired[bool]
    """Whether the AI's question is still the last word to the customer (default: yes)."""
    message_ids: NotRequired[list[str]]
    """The stored messages this turn takes (``agents.models.Message``)."""
    messages: NotRequired[Annotated[list[AnyMessage], add_messages]]
    """The conversation as the graph keeps it: every turn's messages and replies."""


class PlanStep(TypedDict):
    """One numbered step of the plan (seed 001): one specialist, its dependencies, its fate."""

    step: int
    agent: str
    intent: str
    depends_on: list[int]
    status: Literal["pending", "running", "done", "skipped"]
    attempts: int
    replans: int
    order_numbers: NotRequired[list[str]]
    """The orders this step's own request names, when the inquiry asks different things of
    different orders ("cancel one, and when does the other arrive?"); absent: every order
    the inquiry names."""


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
    request: str
    """What this turn works on: the customer's text, or, when it answers the question the
    last turn asked, that turn's request followed by the answer (the specialists need both)."""
    question: dict[str, Any] | None
    """The question this turn asked the customer (what it asks for, the options offered),
    which the next turn's message answers; ``None`` when the run asked nothing."""
    reply: str
    operator_reply: str
    """A reply an operator wrote with their edit: sent instead of the writer's."""
    status: InquiryStatus
    """The run's status: the inquiry's own vocabulary (checkpointed as the plain value)."""


# What one turn finds and writes for itself: a new turn starts them afresh (the thread's
# ``messages`` and the last turn's ``classification`` and ``question`` carry it over).
# The first group has reducers, which only an ``Overwrite`` bypasses.
TURN_ACCUMULATED: dict[str, Any] = {
    "plan_history": [],
    "envelopes": {},
    "transcripts": {},
    "errors": [],
    "receipts": [],
}
TURN_FIELDS: dict[str, Any] = {
    "plan": [],
    "pending_actions": [],
    "decisions": {},
    "action_results": [],
    "escalation": None,
    "reply": "",
    "operator_reply": "",
    "status": None,
}


def turn_start(state: InquiryState, update: dict[str, Any]) -> dict[str, Any]:
    """``update`` (the first node's) on a turn after the first, which also clears what the
    earlier turn planned, found or decided: those answered its own message."""
    if state.get("turn", 1) <= 1:
        return update
    cleared = {key: Overwrite(update.get(key, empty)) for key, empty in TURN_ACCUMULATED.items()}
    return TURN_FIELDS | update | cleared


def message_id(state: InquiryState, kind: str) -> str:
    """The thread id of a message this turn writes (``reply``, ``ack``, ``question``)."""
    return f"{state['inquiry_id']}:{state.get('turn', 1)}:{kind}"
