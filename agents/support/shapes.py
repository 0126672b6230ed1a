"""The JSON shapes that cross module boundaries inside the agents, typed once.

A pending action leaves a specialist, waits in the graph state and in an escalation row, is
decided in the console and carried out by the graph; an envelope leaves every specialist; a
decision travels from the console through the database into the resumed run; a hand-off
receipt is written by the delegation and finished by the run's recording. All of them live
in LangGraph state and JSON columns, and the checkpointer stores them as plain dicts: hence
``TypedDict`` (a plain dict at run time, checked by mypy) rather than dataclasses, so the
checkpoints keep their shape.

Only typing imports here, so that any module may import this one without a cycle. No
``from __future__ import annotations``: ``NotRequired`` must be seen at run time for
``__required_keys__`` to be right (tests/agents/support/test_shapes.py reads them).
"""

from typing import Any, Literal, NotRequired, TypedDict

EnvelopeStatus = Literal["success", "escalate", "error"]


class PendingAction(TypedDict):
    """A refund or cancellation a specialist prepared, waiting for a person (SPEC 4.2).

    ``kind`` is a gated ``Skill``; ``action_id`` is the operation id it runs under.
    """

    action_id: str
    kind: str
    agent: str
    params: dict[str, Any]
    amount_at_risk: NotRequired[int]
    checks: NotRequired[list[dict[str, Any]]]
    facts: NotRequired[dict[str, Any]]
    requested_amount: NotRequired[int | None]
    capped: NotRequired[bool]
    tool_call_id: NotRequired[str | None]
    """The specialist's open tool call, closed by the decision's tool message."""
    tool: NotRequired[str]
    failure: NotRequired[str]
    """Set when the approved action failed at the gateway: a person may retry it."""
    approval_carried: NotRequired[dict[str, Any] | None]
    """Set when the action waits again because a lowered limit asks more approvals than it
    had: the decision with the approvals that still count, recorded on the new wait."""


class EnvelopeDict(TypedDict):
    """A specialist's ``Envelope`` (``agents.contract.schemas``) as the state holds it."""

    agent: str
    status: EnvelopeStatus
    data: dict[str, Any]
    message: str
    error_code: str | None
    attempt: NotRequired[int]
    """The plan step's attempt it answers (set by the delegation)."""
    step: NotRequired[int]
    """The plan step it answers (set by the delegation)."""


class Decision(TypedDict):
    """An operator's decision on an escalation, as recorded and resumed into the run.

    ``decision`` is an ``OperatorDecision`` value; ``params`` only the changes of an edit.
    """

    decision: str
    params: NotRequired[dict[str, Any]]
    reason: NotRequired[str]
    reply: NotRequired[str]
    operator: NotRequired[str]
    preview: NotRequired[str]
    """The reply the operator was shown; sent when the outcome is the one previewed."""
    approvals: NotRequired[list[str]]
    """Who approved it, first approver first: a refund or cancellation at or above
    the policy's four-eyes amount runs only with a second, a manager's (checked when it
    runs, against the policy then in force). ``policy_version`` and ``four_eyes_yen``: the
    policy the approvals were checked against."""
    policy_version: NotRequired[int]
    four_eyes_yen: NotRequired[int]


class HandoffWait(TypedDict):
    """The facts of a wait for a person that a receipt records (SPEC 6)."""

    owner: str
    reason: str
    deadline: str | None
    resume_token_id: str | None
    state_persisted: bool
    open: bool


class HandoffReceipt(TypedDict):
    """A content-free hand-off receipt (seed 002): what was sent and whether it arrived."""

    handoff_id: str
    tool_call_id: str
    sender: str
    receiver: str
    route_contract_version: str
    required_context: list[str]
    context_present: list[str]
    context_digest: str
    control: dict[str, Any]
    start: dict[str, Any] | None
    closed: bool
    wait: HandoffWait | None
    outcome_checks: list[dict[str, Any]]
    claims_complete: bool
    envelope_status: NotRequired[str]
    run_waits_open: NotRequired[bool]
    verdict: NotRequired[str]


# The key of a tool result in an envelope's data that says: held for a person, nothing ran
# (a side effect asked for by an inquiry flagged as trying to instruct the system).
HELD = "held"
