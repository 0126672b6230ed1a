"""Running an inquiry through the graph and recording where it stands.

These are the services the Celery tasks, the API and the ``run_inquiry`` command call; they
own the graph invocation so that nothing else needs to know LangGraph's calling conventions.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import psycopg
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from agents.escalations.package import handoff_package
from agents.escalations.services import (
    announce_resolved,
    decisions_for_wait,
    escalation_record_wait,
)
from agents.events import inquiry_payload, publish, step_payload
from agents.graph import escalation_policy
from agents.graph.db_connections import driving_graph
from agents.graph.run_context import run_config
from agents.graph.wiring import build_graph
from agents.handoffs import audit_trail
from agents.handoffs.receipts import finalized_receipts
from agents.models import Escalation, EscalationStatus, Inquiry, InquiryStatus
from agents.runs.checkpointer import get_checkpointer
from agents.runs.dispatch import enqueue_run
from agents.runs.lease import run_lease
from netshop.audit import audit_batch
from netshop.errors import DomainError
from netshop.models import Customer
from netshop.transactions import retry_conflicts

logger = logging.getLogger(__name__)

# A failed run is final too: a person owns it now (its escalation), no worker continues it.
FINAL_STATUSES = {
    InquiryStatus.RESOLVED,
    InquiryStatus.ESCALATED,
    InquiryStatus.HANDLED_BY_HUMAN,
    InquiryStatus.FAILED,
}
# The steps an operator follows on the live timeline (bookkeeping nodes are left out).
TIMELINE_NODES = frozenset({"classify", "specialist", "review", "act_on_decisions", "merge"})
# Errors that mean the database connection went away: retry the task, don't fail the run.
DATABASE_GONE = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)


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


@retry_conflicts
def inquiry_create(
    *,
    customer: Customer,
    text: str,
    channel: str = "web",
    idempotency_key: str | None = None,
    start: bool = True,
) -> Inquiry:
    """Record a new inquiry (or return the one this idempotency key already made).

    The same key with a different text or channel is refused (``idempotency_key_reused``).
    The run is handed to a worker after commit; the caller never waits for it. A deadlock or
    serialization failure runs the transaction again (``retry_conflicts``), so a storefront
    sees 202 or a refusal, never a 500 for another writer's timing.
    """
    with transaction.atomic():
        if idempotency_key:
            inquiry, created = Inquiry.objects.get_or_create(
                customer=customer,
                idempotency_key=idempotency_key,
                defaults={"text": text, "channel": channel},
            )
            if not created and (inquiry.text, inquiry.channel) != (text, channel):
                # As payment APIs do: a key names one request; a different one is a bug.
                raise DomainError(
                    "idempotency_key_reused",
                    f"Idempotency key {idempotency_key!r} was already used for another inquiry "
                    f"({inquiry.pk}); send a new key for a new inquiry.",
                )
        else:
            inquiry, created = (
                Inquiry.objects.create(customer=customer, text=text, channel=channel),
                True,
            )
        if created:
            audit_trail.inquiry_received(
                inquiry_id=inquiry.pk, customer_id=customer.code, channel=channel, length=len(text)
            )
        if created and start:
            enqueue_run(inquiry.pk)
    return inquiry


def inquiry_advance(*, inquiry_id: str) -> str:
    """Take the inquiry's run as far as it can go now; safe to call any number of times.

    Under the inquiry's lease: a second worker given the same inquiry returns at once.
    """
    with run_lease(inquiry_id) as held:
        if not held:
            return "busy"
        inquiry = Inquiry.objects.select_related("customer").filter(pk=inquiry_id).first()
        if inquiry is None:
            # A message outlived its inquiry (redelivered after the broker's visibility
            # timeout, or sent for a row that was since erased): nothing to run, no retry.
            logger.warning("no inquiry %s to advance; message dropped", inquiry_id)
            return "gone"
        if inquiry.status in FINAL_STATUSES:
            return str(inquiry.status)
        try:
            return _advance(inquiry).status
        except DATABASE_GONE:
            raise  # the database went away: the task retries from the last checkpoint
        except Exception as exc:
            logger.exception("run of %s failed", inquiry_id)
            _record_crash(inquiry, exc)
            return InquiryStatus.FAILED


def inquiry_run(*, inquiry: Inquiry) -> RunOutcome:
    """Run the inquiry in this process (the ``run_inquiry`` command, tests)."""
    with run_lease(str(inquiry.pk)):
        return _advance(inquiry)


def inquiry_resume(*, inquiry: Inquiry, decisions: dict[str, dict[str, Any]]) -> RunOutcome:
    """Resume a waiting run with decisions keyed by action id, in this process."""
    config = run_config(inquiry_id=str(inquiry.pk), customer_id=inquiry.customer.code)
    graph = support_graph()
    if graph.get_state(config).interrupts:
        _drive(graph, Command(resume=decisions), config)
    return _record(inquiry, graph.get_state(config))


def _advance(inquiry: Inquiry) -> RunOutcome:
    config = run_config(inquiry_id=str(inquiry.pk), customer_id=inquiry.customer.code)
    graph = support_graph()
    snapshot = graph.get_state(config)
    if snapshot.interrupts:
        decisions = decisions_for_wait(wait_key=str(snapshot.interrupts[0].id))
        waiting_on = {a["action_id"] for a in snapshot.interrupts[0].value["actions"]}
        if waiting_on and waiting_on <= decisions.keys():
            return inquiry_resume(inquiry=inquiry, decisions={k: decisions[k] for k in waiting_on})
    elif snapshot.next or snapshot.tasks:
        # A worker died mid-run: continue from the last checkpoint, not from the start.
        _drive(graph, None, config)
    elif not snapshot.values:
        _mark_running(inquiry)
        initial = {
            "inquiry_id": str(inquiry.pk),
            "customer_id": inquiry.customer.code,
            "text": inquiry.text,
            "customer_language": inquiry.customer.language,
        }
        _drive(graph, initial, config)
    return _record(inquiry, graph.get_state(config))


def _drive(graph: CompiledStateGraph, graph_input: Any, config: Any) -> None:
    """Run the graph, announcing each step as it completes (the console's live timeline).

    Checkpoints are written synchronously after every step, so a worker killed at any point
    resumes from the last finished step.
    """
    inquiry_id = config["configurable"]["thread_id"]
    steps = graph.stream(graph_input, config, stream_mode="updates", durability="sync")
    with driving_graph():
        for update in steps:
            for node, values in update.items():
                if node in TIMELINE_NODES:
                    publish("run.step", step_payload(inquiry_id, node, values or {}))


@transaction.atomic
def _mark_running(inquiry: Inquiry) -> None:
    Inquiry.objects.filter(pk=inquiry.pk).update(status=InquiryStatus.RUNNING)
    inquiry.status = InquiryStatus.RUNNING
    publish("inquiry.updated", inquiry_payload(inquiry))


@retry_conflicts
@transaction.atomic
def _record(inquiry: Inquiry, snapshot: Any) -> RunOutcome:
    state = dict(snapshot.values)
    interrupts = list(snapshot.interrupts)
    request = interrupts[0].value if interrupts else None
    status = InquiryStatus.AWAITING_APPROVAL if request else state.get("status")
    current = Inquiry.objects.select_for_update().get(pk=inquiry.pk)
    if status is None:
        # The graph stopped without finishing: never leave it looking done, hand it over.
        _record_crash(current, RuntimeError("the run stopped before it finished"))
        return RunOutcome(str(inquiry.pk), InquiryStatus.FAILED, state)
    if current.status == InquiryStatus.HANDLED_BY_HUMAN:
        # A person took the conversation over meanwhile: the AI says nothing more.
        return RunOutcome(str(inquiry.pk), str(current.status), state)
    previous = {"intent": current.intent, "reply": current.reply, "handoffs": current.handoffs}
    escalation = None
    if request:
        escalation = _record_wait(current, state, request, wait_key=str(interrupts[0].id))
    elif status == InquiryStatus.ESCALATED and state.get("escalation"):
        _record_wait(current, state, None, wait_key=f"{inquiry.pk}:final")
    current.handoffs = finalized_receipts(
        state,
        status=str(status),
        customer_id=inquiry.customer.code,
        wait=escalation,
        state_persisted=bool(snapshot.config.get("configurable", {}).get("checkpoint_id")),
    )
    finishing = str(status) in FINAL_STATUSES and current.status not in FINAL_STATUSES
    _update_inquiry(current, state, str(status))
    if finishing:
        decided = current.escalations.filter(status=EscalationStatus.DECIDED)
        announce_resolved(current, decided.select_related("claimed_by", "decided_by"))
    with audit_batch():
        audit_trail.run_progress(current, state, previous)
    return RunOutcome(
        inquiry_id=str(inquiry.pk),
        status=str(status),
        state=state,
        approval_request=request,
        pending_actions=list(request["actions"]) if request else [],
    )


def _update_inquiry(inquiry: Inquiry, state: dict[str, Any], status: str) -> None:
    classification = state.get("classification") or {}
    inquiry.status = status
    inquiry.language = state.get("language", "")
    inquiry.intent = classification.get("intent", "")
    inquiry.agents = classification.get("agents", [])
    inquiry.reply = state.get("reply", "")
    inquiry.escalation = state.get("escalation")
    inquiry.resolved_at = timezone.now() if status in FINAL_STATUSES else None
    inquiry.save()
    publish("inquiry.updated", inquiry_payload(inquiry))


def _record_wait(
    inquiry: Inquiry, state: dict[str, Any], request: dict[str, Any] | None, *, wait_key: str
) -> Escalation:
    escalation = state.get("escalation") or {}
    actions = list(request["actions"]) if request else []
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=wait_key,
        kind=escalation.get("kind", "approval" if actions else "failure"),
        reason=escalation.get("reason", "approval_required" if actions else "tool_failure"),
        summary=escalation.get("summary", ""),
        package=handoff_package(state),
        actions=actions,
    )


@transaction.atomic
def _record_crash(inquiry: Inquiry, exc: Exception) -> None:
    """Nothing is lost: a run that crashed is failed and handed to a person."""
    escalation = escalation_policy.supervisor_failure(type(exc).__name__)
    inquiry.status = InquiryStatus.FAILED
    inquiry.escalation = escalation.as_dict()
    inquiry.save(update_fields=["status", "escalation", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry))
    escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:crash",
        kind=escalation.kind,
        reason=escalation.reason,
        summary=escalation.summary,
        package={"inquiry": {"text": inquiry.text, "customer_id": inquiry.customer.code}},
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
