"""Running an inquiry through the graph and recording where it stands.

These are the services the Celery tasks, the API and the ``run_inquiry`` command call; they
own the graph invocation so that nothing else needs to know LangGraph's calling conventions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.db import transaction
from django.utils import timezone
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from agents.checkpointer import get_checkpointer
from agents.context import run_config
from agents.graph import build_graph
from agents.models import Inquiry, InquiryStatus
from netshop.models import Customer

FINAL_STATUSES = {InquiryStatus.RESOLVED, InquiryStatus.ESCALATED, InquiryStatus.HANDLED_BY_HUMAN}


@cache
def support_graph() -> CompiledStateGraph:
    """The process's one compiled graph, bound to the configured checkpointer."""
    return build_graph(get_checkpointer())


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


def inquiry_create(
    *, customer: Customer, text: str, channel: str = "web", idempotency_key: str | None = None
) -> Inquiry:
    """Record a new inquiry (or return the one this idempotency key already made)."""
    if idempotency_key:
        inquiry, _ = Inquiry.objects.get_or_create(
            idempotency_key=idempotency_key,
            defaults={"customer": customer, "text": text, "channel": channel},
        )
        return inquiry
    return Inquiry.objects.create(customer=customer, text=text, channel=channel)


def inquiry_run(*, inquiry: Inquiry) -> RunOutcome:
    """Run (or continue) the inquiry's graph until it finishes or waits for a person."""
    config = run_config(inquiry_id=str(inquiry.pk), customer_id=inquiry.customer.code)
    graph = support_graph()
    snapshot = graph.get_state(config)
    if snapshot.next or snapshot.values:
        # A run already started (a retried task or a restarted worker): continue from the
        # last checkpoint instead of starting over.
        result = graph.invoke(None, config, durability="sync") if not snapshot.interrupts else None
    else:
        Inquiry.objects.filter(pk=inquiry.pk).update(status=InquiryStatus.RUNNING)
        initial = {
            "inquiry_id": str(inquiry.pk),
            "customer_id": inquiry.customer.code,
            "text": inquiry.text,
        }
        result = graph.invoke(initial, config, durability="sync")
    del result
    return _record(inquiry, graph.get_state(config))


def inquiry_resume(*, inquiry: Inquiry, decisions: dict[str, dict[str, Any]]) -> RunOutcome:
    """Resume a waiting run with the operators' decisions, keyed by action id."""
    config = run_config(inquiry_id=str(inquiry.pk), customer_id=inquiry.customer.code)
    graph = support_graph()
    if graph.get_state(config).interrupts:
        graph.invoke(Command(resume=decisions), config, durability="sync")
    return _record(inquiry, graph.get_state(config))


def _record(inquiry: Inquiry, snapshot: Any) -> RunOutcome:
    state = dict(snapshot.values)
    interrupts = list(snapshot.interrupts)
    request = interrupts[0].value if interrupts else None
    status = (
        InquiryStatus.AWAITING_APPROVAL if request else state.get("status", InquiryStatus.FAILED)
    )
    classification = state.get("classification") or {}
    with transaction.atomic():
        Inquiry.objects.filter(pk=inquiry.pk).update(
            status=status,
            language=state.get("language", ""),
            intent=classification.get("intent", ""),
            agents=classification.get("agents", []),
            reply=state.get("reply", ""),
            escalation=state.get("escalation"),
            resolved_at=timezone.now() if status in FINAL_STATUSES else None,
        )
    return RunOutcome(
        inquiry_id=str(inquiry.pk),
        status=str(status),
        state=state,
        approval_request=request,
        pending_actions=list(request["actions"]) if request else [],
    )


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
