"""Content-free hand-off receipts and their verdicts (seed 002).

A receipt records that a hand-off happened and what can be checked about it, never what was
said: names of the parties and contracts, the tool call id, the NAMES of the required context
keys and a digest of their values, when and where the destination started, the wait (owner,
reason, deadline, resume token id, whether the state was persisted) and the outcome checks.

``classify`` gives each receipt one verdict, the first that applies in the seed's order.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal, get_args

from django.utils import timezone

from agents.contract.cards import route_contract_version, specialist_cards
from agents.models import InquiryStatus
from agents.support.shapes import HandoffReceipt

Verdict = Literal[
    "ROUTE_REJECTED",
    "STALE_CONTROL",
    "OPEN_TOOL_PROTOCOL",
    "CONTEXT_INCOMPLETE",
    "DESTINATION_NOT_STARTED",
    "WAITING_ON_APPROVAL",
    "UNCERTAIN_WAIT",
    "FALSE_COMPLETE",
    "HEALTHY",
]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
WAIT_FACTS = ("owner", "reason", "deadline", "resume_token_id", "state_persisted")


def digest(value: Any) -> str:
    """A stable digest of JSON-shaped values: proves what arrived without showing it."""
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def handoff_receipt(
    *,
    inquiry_id: str,
    receiver: str,
    step: int,
    attempt: int,
    required: tuple[str, ...],
    context: dict[str, Any],
) -> HandoffReceipt:
    """The receipt opened when the supervisor dispatches a step to a specialist."""
    attempt_id = f"{step}.{attempt}"
    present = [key for key in required if key in context]
    return {
        "handoff_id": f"{receiver}:{attempt_id}",
        "tool_call_id": "handoff_" + digest([inquiry_id, receiver, attempt_id])[:20],
        "sender": "supervisor",
        "receiver": receiver,
        "route_contract_version": route_contract_version(),
        "required_context": list(required),
        "context_present": present,
        "context_digest": digest({key: context[key] for key in present}),
        "control": {"active_agent": None},
        "start": None,
        "closed": False,
        "wait": None,
        "outcome_checks": [],
        "claims_complete": False,
    }


def started(receipt: HandoffReceipt, *, node: str) -> HandoffReceipt:
    attempt_id = receipt["handoff_id"].split(":", 1)[1]
    start = {"node": node, "at": timezone.now().isoformat(), "attempt_id": attempt_id}
    return {**receipt, "control": {"active_agent": receipt["receiver"]}, "start": start}


def closed(receipt: HandoffReceipt, *, envelope_status: str) -> HandoffReceipt:
    """The specialist's envelope answers the hand-off's tool call."""
    return {**receipt, "closed": True, "envelope_status": envelope_status}


def declared_routes() -> set[str]:
    return set(specialist_cards())


def classify(receipt: HandoffReceipt, *, routes: set[str] | None = None) -> Verdict:
    """The first verdict that applies, in the priority order of SPEC section 6."""
    if receipt.get("receiver") not in (routes if routes is not None else declared_routes()):
        return "ROUTE_REJECTED"
    if (receipt.get("control") or {}).get("active_agent") != receipt.get("receiver"):
        return "STALE_CONTROL"
    if not receipt.get("closed"):
        return "OPEN_TOOL_PROTOCOL"
    if set(receipt.get("required_context", [])) - set(receipt.get("context_present", [])):
        return "CONTEXT_INCOMPLETE"
    if not receipt.get("start"):
        return "DESTINATION_NOT_STARTED"
    wait = receipt.get("wait")
    if wait is not None and wait.get("open", True):
        return "WAITING_ON_APPROVAL" if all(wait.get(f) for f in WAIT_FACTS) else "UNCERTAIN_WAIT"
    if receipt.get("claims_complete") and not _outcome_confirmed(receipt):
        return "FALSE_COMPLETE"
    return "HEALTHY"


def _outcome_confirmed(receipt: HandoffReceipt) -> bool:
    checks = receipt.get("outcome_checks") or []
    return (
        bool(checks) and all(c.get("result") for c in checks) and not receipt.get("run_waits_open")
    )


def finalized_receipts(
    state: dict[str, Any],
    *,
    status: str,
    customer_id: str,
    wait: Any | None,
    state_persisted: bool,
) -> list[HandoffReceipt]:
    """The run's receipts as they stand now: waits and outcome checks added, each classified.

    ``wait`` is the escalation the run waits on, if it waits (its owner, reason, deadline and
    resume token are the wait's facts).
    """
    from agents.team.handoffs.verifiers import outcome_checks

    latest: dict[str, HandoffReceipt] = {}
    for receipt in state.get("receipts", []):
        latest[receipt["handoff_id"]] = receipt
    last_of_agent = {r["receiver"]: r["handoff_id"] for r in latest.values()}
    waiting_agents = {a["agent"] for a in state.get("pending_actions", [])}
    checks = (
        outcome_checks(state, customer_id=customer_id) if status == InquiryStatus.RESOLVED else {}
    )
    routes = declared_routes()
    finished = []
    for handoff_id, receipt in latest.items():
        receipt = HandoffReceipt(**receipt)  # a copy: the state's receipt stays as it was
        agent = receipt["receiver"]
        if last_of_agent.get(agent) == handoff_id:
            receipt = _with_outcome(
                receipt, agent, waiting_agents, wait, state_persisted, checks, status
            )
        receipt["verdict"] = classify(receipt, routes=routes)
        finished.append(receipt)
    return finished


def _with_outcome(
    receipt: HandoffReceipt,
    agent: str,
    waiting_agents: set[str],
    wait: Any | None,
    state_persisted: bool,
    checks: dict[str, list[dict[str, Any]]],
    status: str,
) -> HandoffReceipt:
    if agent in waiting_agents and wait is not None:
        receipt["wait"] = {
            "owner": wait.owner,
            "reason": wait.reason,
            "deadline": wait.deadline.isoformat() if wait.deadline else None,
            "resume_token_id": str(wait.resume_token_id) if wait.resume_token_id else None,
            "state_persisted": state_persisted,
            "open": status == InquiryStatus.AWAITING_APPROVAL,
        }
    if agent in checks:
        receipt["outcome_checks"] = checks[agent]
        receipt["claims_complete"] = status == InquiryStatus.RESOLVED
    return receipt
