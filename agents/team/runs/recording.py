"""Recording what a run did: where the graph stopped turned into the inquiry's row, its
escalations and the events consoles follow.

Apart from the driver so that what a run *means* for the inquiry (its status, its reply, the
wait a person decides, the failure a person takes over) reads in one place, whichever way
the run was driven (a worker, the ``run_inquiry`` command, a resume).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from agents.models import Escalation, EscalationKind, EscalationStatus, Inquiry, InquiryStatus
from agents.support import audit_trail
from agents.support.conversations.thread import turn_mark_taken, turn_record
from agents.support.escalations.package import handoff_package, inquiry_package
from agents.support.escalations.review_sample import review_sample_consider
from agents.support.escalations.services import announce_resolved, escalation_record_wait
from agents.support.events.bus import events_batch, publish, publish_all
from agents.support.events.payloads import inquiry_payload
from agents.team.graph import escalation_policy
from agents.team.graph.planner import INTENT_OF_AGENT
from agents.team.handoffs.receipts import finalized_receipts
from agents.team.runs.outcome import FINAL_STATUSES, RunOutcome, RunStop
from netshop.audit import audit_batch
from netshop.transactions import retry_conflicts


@transaction.atomic
def inquiry_mark_running(*, inquiry: Inquiry, turn: int = 1, first: bool = False) -> bool:
    """A turn's run is starting: consoles see the conversation move off the queue.

    ``first``: only if no turn has started yet (``inquiry`` may be older than its row); False,
    changing nothing, when one has.
    """
    rows = Inquiry.objects.filter(pk=inquiry.pk)
    if first:
        rows = rows.filter(turns=0)
    if not rows.update(status=InquiryStatus.RUNNING, turns=turn, awaiting_until=None):
        return False
    inquiry.status, inquiry.turns, inquiry.awaiting_until = InquiryStatus.RUNNING, turn, None
    publish("inquiry.updated", inquiry_payload(inquiry), subject=inquiry)
    return True


@retry_conflicts
@transaction.atomic
def inquiry_record_run(
    *, inquiry: Inquiry, stop: RunStop, steps: list[dict[str, Any]] | None = None
) -> RunOutcome:
    """Write where the run stands (``stop``, the graph's state) onto the inquiry; ``steps``,
    the leg's last steps (``run.step`` payloads), are announced with it."""
    state = dict(stop.values)
    interrupts = list(stop.interrupts)
    request = interrupts[0].value if interrupts else None
    status = InquiryStatus.AWAITING_APPROVAL if request else state.get("status")
    current = Inquiry.objects.select_for_update().get(pk=inquiry.pk)
    current.customer = inquiry.customer  # the same row: no join to read it again
    if status is None:
        # The graph stopped without finishing: never leave it looking done, hand it over.
        inquiry_record_crash(
            inquiry=current, exc=RuntimeError("the run stopped before it finished")
        )
        return RunOutcome(str(inquiry.pk), InquiryStatus.FAILED, state)
    if current.human_owner_id is not None or current.status == InquiryStatus.HANDLED_BY_HUMAN:
        # A person took the conversation over meanwhile: the AI says nothing more (what the
        # turn took is in the thread, and the person has read it there).
        turn_mark_taken(state)
        return RunOutcome(str(inquiry.pk), str(current.status), state)
    previous = {"intent": current.intent, "reply": current.reply, "handoffs": current.handoffs}
    # Every entry this record makes is written at the end of the block: the audit lock is
    # taken last, after the inquiry's and escalations' rows and the events' (the documented
    # lock order). The events go out together once the record commits.
    with audit_batch(), events_batch():
        if steps:
            publish_all("run.step", steps)
        escalation = None
        if request:
            escalation = _record_wait(current, state, request, wait_key=str(interrupts[0].id))
        elif status == InquiryStatus.ESCALATED and state.get("escalation"):
            _record_wait(current, state, None, wait_key=turn_wait_key(current, "final"))
        current.handoffs = finalized_receipts(
            state,
            status=str(status),
            customer_id=inquiry.customer.code,
            wait=escalation,
            state_persisted=stop.saved,
        )
        _follow_up_if_unconfirmed(current, state)
        finishing = str(status) in FINAL_STATUSES and current.status not in FINAL_STATUSES
        _update_inquiry(current, state, str(status))
        turn_record(inquiry=current, state=state, status=str(status), owners=INTENT_OF_AGENT)
        if finishing:
            review_sample_consider(inquiry=current)
        if finishing and state.get("decisions"):  # the waits this turn's decisions answered
            decided = current.escalations.filter(status=EscalationStatus.DECIDED)
            announce_resolved(current, decided.select_related("claimed_by", "decided_by"))
        audit_trail.run_progress(current, state, previous)
    return RunOutcome(
        inquiry_id=str(inquiry.pk),
        status=str(status),
        state=state,
        approval_request=request,
        pending_actions=list(request["actions"]) if request else [],
    )


@transaction.atomic
def inquiry_record_crash(*, inquiry: Inquiry, exc: Exception) -> None:
    """Nothing is lost: a run that crashed is failed and handed to a person."""
    escalation = escalation_policy.supervisor_failure(type(exc).__name__)
    inquiry.status = InquiryStatus.FAILED
    inquiry.escalation = escalation.as_dict()
    inquiry.save(update_fields=["status", "escalation", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry), subject=inquiry)
    escalation_record_wait(
        inquiry=inquiry,
        wait_key=turn_wait_key(inquiry, "crash"),
        kind=escalation.kind,
        reason=escalation.reason,
        summary=escalation.summary,
        package=inquiry_package(inquiry),
    )


def turn_wait_key(inquiry: Inquiry, kind: str) -> str:
    """The key of a turn's own final or crash escalation: each turn may need a person anew
    (the first turn's keys keep the form they had before conversations)."""
    turn = inquiry.turns or 1
    return f"{inquiry.pk}:{kind}" if turn == 1 else f"{inquiry.pk}:{turn}:{kind}"


def _follow_up_if_unconfirmed(inquiry: Inquiry, state: dict[str, Any]) -> None:
    """A verdict of FALSE_COMPLETE opens a follow-up for a person (once per turn)."""
    follow_up = escalation_policy.outcome_unconfirmed(inquiry.handoffs)
    if follow_up is None:
        return
    escalation_record_wait(
        inquiry=inquiry,
        wait_key=turn_wait_key(inquiry, "unconfirmed"),
        kind=follow_up.kind,
        reason=follow_up.reason,
        summary=follow_up.summary,
        package=handoff_package(state),
    )


# What recording a run writes on the inquiry (the row is locked: nothing else changes it).
RUN_FIELDS = (
    "status",
    "language",
    "intent",
    "agents",
    "reply",
    "escalation",
    "handoffs",
    "resolved_at",
    "awaiting_until",
    "updated_at",
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
    inquiry.awaiting_until = (
        timezone.now() + timedelta(hours=settings.NETSHOP_AWAITING_CUSTOMER_HOURS)
        if status == InquiryStatus.AWAITING_CUSTOMER
        else None
    )
    inquiry.save(update_fields=RUN_FIELDS)
    publish("inquiry.updated", inquiry_payload(inquiry), subject=inquiry)


def _record_wait(
    inquiry: Inquiry, state: dict[str, Any], request: dict[str, Any] | None, *, wait_key: str
) -> Escalation:
    escalation = state.get("escalation") or {}
    actions = list(request["actions"]) if request else []
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=wait_key,
        kind=escalation.get("kind", EscalationKind.APPROVAL if actions else EscalationKind.FAILURE),
        reason=escalation.get("reason", "approval_required" if actions else "tool_failure"),
        summary=escalation.get("summary", ""),
        package=handoff_package(state),
        actions=actions,
    )
