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

from agents.models import (
    AutonomyLevel,
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
)
from agents.support import audit_trail
from agents.support.autonomy.disposition import Disposition, reply_disposition, turn_reading
from agents.support.autonomy.levels import autonomy_level
from agents.support.conversations.messages import system_message_store
from agents.support.conversations.thread import (
    TurnReply,
    turn_mark_taken,
    turn_record,
    turn_replies,
)
from agents.support.escalations.drafts import draft_record
from agents.support.escalations.package import crash_package, handoff_package
from agents.support.escalations.review_sample import answer_review_queue, review_sample_consider
from agents.support.escalations.services import announce_resolved, escalation_record_wait
from agents.support.events.bus import events_batch, publish, publish_all
from agents.support.events.payloads import inquiry_payload
from agents.support.vocabulary import LOOK_BACK_REVIEWS
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
        escalation = draft = None
        sent_draft = _draft_sent(current)  # recording again: a person sent this turn's reply
        replies = [] if sent_draft else turn_replies(current, state, owners=INTENT_OF_AGENT)
        held = _held_by_review(current)
        disposition = None if request else _disposition(state, str(status), replies, held=held)
        if request:
            escalation = _record_wait(current, state, request, wait_key=str(interrupts[0].id))
        elif disposition is not None and disposition.is_draft:
            draft = draft_record(
                inquiry=current,
                state=state,
                replies=replies,
                disposition=disposition,
                status=str(status),  # a follow-up's: sent as written, it stays a follow-up
                wait_key=turn_wait_key(current, "draft"),
            )
            status, replies = InquiryStatus.ESCALATED, []  # nothing goes out until it is sent
        elif status == InquiryStatus.ESCALATED and state.get("escalation") and not sent_draft:
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
        _update_inquiry(current, state, str(status), draft=draft)
        turn_record(inquiry=current, state=state, status=str(status), replies=replies)
        if disposition is not None and disposition.level == AutonomyLevel.SEND_AND_REVIEW:
            answer_review_queue(inquiry=current, wait_key=turn_wait_key(current, "review"))
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


# How much of a crash's error the person picking it up reads (the type and its message).
CRASH_ERROR_CHARS = 300


@transaction.atomic
def inquiry_record_crash(*, inquiry: Inquiry, exc: Exception) -> None:
    """Nothing is lost: a run that crashed is failed and handed to a person, who sees the
    error and may run the turn again; the customer is told once, honestly, that a person
    will answer (not while a person owns the conversation: they answer it)."""
    escalation = escalation_policy.supervisor_failure(type(exc).__name__)
    inquiry.status = InquiryStatus.FAILED
    inquiry.escalation = escalation.as_dict()
    if inquiry.human_owner_id is None:
        inquiry.reply = _crash_notice(inquiry) or inquiry.reply
    inquiry.save(update_fields=["status", "escalation", "reply", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry), subject=inquiry)
    escalation_record_wait(
        inquiry=inquiry,
        wait_key=_crash_wait_key(inquiry),
        kind=escalation.kind,
        reason=escalation.reason,
        summary=escalation.summary,
        package=crash_package(inquiry, error=f"{type(exc).__name__}: {exc}"[:CRASH_ERROR_CHARS]),
    )


def _crash_wait_key(inquiry: Inquiry) -> str:
    """A new wait for each crash of the turn: one run again that crashes again is seen anew."""
    key = turn_wait_key(inquiry, "crash")
    earlier = Escalation.objects.filter(inquiry=inquiry, wait_key__startswith=key).count()
    return f"{key}:{earlier + 1}" if earlier else key


def _crash_notice(inquiry: Inquiry) -> str:
    """The customer's holding message, once per turn; its text, or "" if already sent."""
    thread_id = f"{turn_wait_key(inquiry, 'crash')}:notice"
    if inquiry.messages.filter(thread_id=thread_id).exists():
        return ""
    return system_message_store(inquiry=inquiry, key="run.crashed", thread_id=thread_id)


def turn_wait_key(inquiry: Inquiry, kind: str) -> str:
    """The key of a turn's own final or crash escalation: each turn may need a person anew
    (the first turn's keys keep the form they had before conversations)."""
    turn = inquiry.turns or 1
    return f"{inquiry.pk}:{kind}" if turn == 1 else f"{inquiry.pk}:{turn}:{kind}"


# The turns whose reply the autonomy rules read: finished, or waiting on the customer's answer,
# or handed to a person to follow up (an answer the shop lacks, a request it cannot do, text
# instructing the system): a draft there shows the person what the AI would say, sent with a
# click. A failure, an approval or a customer asking for a person are told of it at once.
ANSWERING_STATUSES = frozenset({InquiryStatus.RESOLVED, InquiryStatus.AWAITING_CUSTOMER})


def _draft_sent(inquiry: Inquiry) -> bool:
    """Whether a person already sent (or took over) this turn's draft. A turn recorded the
    first time finds its conversation running: only a record made again is asked."""
    if inquiry.status == InquiryStatus.RUNNING:
        return False
    key = turn_wait_key(inquiry, "draft")
    return Escalation.objects.filter(wait_key=key, status=EscalationStatus.DECIDED).exists()


def _held_by_review(inquiry: Inquiry) -> bool:
    """Whether a person took hold of the conversation while this turn ran: the customer said
    an earlier answer did not solve their problem (the conversation escalated under the run)."""
    if inquiry.status != InquiryStatus.ESCALATED:
        return False
    reviews = inquiry.escalations.filter(kind=EscalationKind.REVIEW, status=EscalationStatus.OPEN)
    return reviews.exclude(reason__in=LOOK_BACK_REVIEWS).exists()


def _disposition(
    state: dict[str, Any], status: str, replies: list[TurnReply], *, held: bool = False
) -> Disposition | None:
    """What becomes of the turn's ``replies`` (``agents.support.autonomy``); None when the
    rules do not apply: nothing new to send, or a turn waiting on a person."""
    escalation = state.get("escalation") or {}
    follow_up = (
        status == InquiryStatus.ESCALATED and escalation.get("kind") == EscalationKind.FOLLOW_UP
    )
    if not replies or (status not in ANSWERING_STATUSES and not follow_up):
        return None
    reading = turn_reading(
        state,
        [reply.grounds for reply in replies],
        replies=[reply.text for reply in replies],
        under_review=held,
    )
    disposition = reply_disposition(
        reading,
        level=autonomy_level(reading.intent),
        min_confidence=settings.NETSHOP_AUTONOMY_MIN_CONFIDENCE,
    )
    if disposition.level == AutonomyLevel.SEND_AND_REVIEW and status != InquiryStatus.RESOLVED:
        return None  # a question to the customer is no answer to review
    return disposition


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


def _update_inquiry(
    inquiry: Inquiry, state: dict[str, Any], status: str, *, draft: Escalation | None = None
) -> None:
    """Write the turn onto the inquiry; while its reply waits as a ``draft``, the customer's
    last reply stays the one they got, and the escalation shown is the draft's."""
    classification = state.get("classification") or {}
    inquiry.status = status
    inquiry.language = state.get("language", "")
    inquiry.intent = classification.get("intent", "")
    inquiry.agents = classification.get("agents", [])
    if draft is None:
        inquiry.reply = state.get("reply", "")
        inquiry.escalation = state.get("escalation")
    else:
        inquiry.escalation = {
            "kind": draft.kind,
            "reason": draft.reason,
            "summary": draft.summary,
            "failed_agents": [],
        }
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
