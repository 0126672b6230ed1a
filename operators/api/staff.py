"""The staff side: the escalation queue, claims and decisions, and the console's resync."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from django.http import HttpRequest
from ninja import Router, Schema
from pydantic import Field, StringConstraints

from agents.models import ConsoleEvent, Escalation, EscalationKind
from agents.support.escalations.action_states import action_decisions_shown
from agents.support.escalations.answer_reviews import Verdict, answer_review_record
from agents.support.escalations.claims import (
    claim_touch,
    conversation_assign,
    escalation_assign,
    escalation_claim,
    escalation_release,
)
from agents.support.escalations.drafts import draft_send
from agents.support.escalations.selectors import (
    QueueOrder,
    StatusFilter,
    console_events_after,
    escalation_get,
    escalation_id_parse,
    escalation_list,
)
from agents.support.escalations.services import escalation_decide, escalation_preview
from agents.support.events.payloads import escalation_payload
from netshop.roles import Role
from operators.api.auth import STAFF, require_role
from operators.api.schemas import (
    ActionDecisionOut,
    AnswerReviewOut,
    ConsoleEventOut,
    ConsoleEventPage,
    Cursor,
    DecisionIn,
    DraftSendIn,
    ErrorOut,
    EscalationDecided,
    EscalationDetail,
    EscalationOut,
    EscalationPage,
    FilterText,
    NoNul,
    VerdictIn,
)

router = Router(auth=STAFF, tags=["staff"])


class SentDecisionIn(DecisionIn):
    """A decision, with what the operator was shown of the reply it sends."""

    action_id: Annotated[str, StringConstraints(max_length=200), NoNul] | None = Field(
        default=None,
        description="Decide this action alone; without it the decision applies to every "
        "action still waiting for one (a take-over always acts on all of them).",
    )
    confirm_language: bool = Field(
        default=False,
        description="Send a reason (reject) or reply (edit) written in another language than "
        "the customer's as it is; without it such a decision is refused "
        "(reason_language_unconfirmed, 422).",
    )
    preview: Annotated[str, StringConstraints(max_length=20000)] | None = Field(
        default=None,
        description="The reply text the preview endpoint gave: the decision is refused "
        "(preview_outdated, 409) if it no longer sends exactly this text.",
    )


class ReplyPreviewOut(Schema):
    """The exact reply a decision would send the customer (nothing is run or recorded)."""

    text: str = Field(description="The reply, character for character.")
    exact: bool = Field(
        description="False when the run is not waiting on this escalation (the reply is "
        "written when it resumes); text is then empty."
    )
    customer_language: str
    text_language: str = Field(description="The language of the operator's words, or empty.")
    language_mismatch: bool


class AssignIn(Schema):
    """Who to give it to: an active operator or manager, by username."""

    assignee: Annotated[str, StringConstraints(min_length=1, max_length=150), NoNul]


class ConversationOwnerOut(Schema):
    """Who owns a conversation a person handles."""

    id: str
    status: str
    human_owner: str | None


DENIED = {401: ErrorOut, 403: ErrorOut}
BODY = {400: ErrorOut, 413: ErrorOut, 415: ErrorOut}  # a JSON body, bounded
CHANGED = {200: EscalationOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut, **DENIED}
DECIDED = {**CHANGED, 200: EscalationDecided}
EVENTS_PAGE = 200


@router.get("/escalations", response={200: EscalationPage, 422: ErrorOut, **DENIED})
def escalations(
    request: HttpRequest,
    status: StatusFilter = "open",
    kind: EscalationKind | None = None,
    reason: FilterText | None = None,
    overdue: bool | None = None,
    mine: bool = False,
    unclaimed: bool = False,
    managers: bool = False,
    order: QueueOrder = "deadline",
    limit: Annotated[int, Field(ge=1, le=200)] = 50,
    cursor: Cursor | None = None,
) -> EscalationPage:
    """Escalations by deadline, soonest first (``order=amount``: the largest amount at risk
    first, then by deadline); follow ``next_cursor`` for more, with the same ``order``.
    ``managers`` keeps those moved to the managers' queue (past their deadline)."""
    user = require_role(request, Role.OPERATOR)
    page = escalation_list(
        user=user,
        status=status,
        kind=kind,
        reason=reason,
        overdue=overdue,
        mine=mine,
        unclaimed=unclaimed,
        managers=managers,
        order=order,
        limit=limit,
        cursor=cursor,
    )
    return EscalationPage(items=[_out(e) for e in page.items], next_cursor=page.next_cursor)


@router.get(
    "/escalations/{escalation_id}", response={200: EscalationDetail, 404: ErrorOut, **DENIED}
)
def escalation_detail(request: HttpRequest, escalation_id: str) -> EscalationDetail:
    """One escalation with its pending actions and hand-off package."""
    require_role(request, Role.OPERATOR)
    return _detail(escalation_get(escalation_id=escalation_id))


@router.post("/escalations/{escalation_id}/claim", response=CHANGED)
def escalation_claim_view(request: HttpRequest, escalation_id: str) -> EscalationOut:
    """Take the escalation so nobody else acts on it (409 if someone else holds it; a
    manager takes it over)."""
    user = require_role(request, Role.OPERATOR)
    pk = escalation_id_parse(escalation_id)
    return _out(escalation_claim(escalation_id=pk, user=user))


@router.post("/escalations/{escalation_id}/release", response=CHANGED)
def escalation_release_view(request: HttpRequest, escalation_id: str) -> EscalationOut:
    """Put the escalation back in the queue (a manager may release anyone's claim)."""
    user = require_role(request, Role.OPERATOR)
    pk = escalation_id_parse(escalation_id)
    return _out(escalation_release(escalation_id=pk, user=user))


@router.post(
    "/escalations/{escalation_id}/assign",
    response={**CHANGED, 400: ErrorOut, 413: ErrorOut, 415: ErrorOut},  # a body: JSON, bounded
)
def escalation_assign_view(
    request: HttpRequest, escalation_id: str, payload: AssignIn
) -> EscalationOut:
    """Give the escalation to a colleague, who then holds it as if they had claimed it (409 if
    someone else holds it, unless a manager assigns; 422 if the assignee is not staff)."""
    user = require_role(request, Role.OPERATOR)
    pk = escalation_id_parse(escalation_id)
    return _out(escalation_assign(escalation_id=pk, user=user, assignee=payload.assignee))


@router.post(
    "/conversations/{inquiry_id}/assign",
    response={200: ConversationOwnerOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut}
    | DENIED
    | BODY,
)
def conversation_assign_view(
    request: HttpRequest, inquiry_id: UUID, payload: AssignIn
) -> ConversationOwnerOut:
    """Give a conversation a person handles to a colleague (its owner or a manager may; anyone
    on staff if nobody owns it): the AI stays silent while they own it."""
    user = require_role(request, Role.OPERATOR)
    inquiry = conversation_assign(inquiry_id=inquiry_id, user=user, assignee=payload.assignee)
    owner = inquiry.human_owner.username if inquiry.human_owner else None
    return ConversationOwnerOut(id=str(inquiry.pk), status=inquiry.status, human_owner=owner)


@router.post(
    "/escalations/{escalation_id}/decide",
    response={**DECIDED, 400: ErrorOut, 413: ErrorOut, 415: ErrorOut},  # a body: JSON, bounded
)
def escalation_decide_view(
    request: HttpRequest, escalation_id: str, payload: SentDecisionIn
) -> EscalationDecided:
    """Approve, edit, reject or take over one action (``action_id``) or all that wait; once
    every action has its decision the run resumes in a worker and sends the reply the
    preview shows (a new one if an action is refused when it runs). A refund or
    cancellation at or above the four-eyes amount waits for a second approval by another
    manager (403 from an operator, 409 from the first approver)."""
    user = require_role(request, Role.OPERATOR)
    pk = escalation_id_parse(escalation_id)
    claim_touch(escalation_id=pk, user=user)  # an attempt is activity, even if refused
    escalation = escalation_decide(
        escalation_id=pk,
        user=user,
        decision=payload.decision,
        params=dict(payload.params),
        reason=payload.reason,
        reply=payload.reply,
        confirm_language=payload.confirm_language,
        preview=payload.preview,
        action_id=payload.action_id,
    )
    return EscalationDecided(
        **_out(escalation).model_dump(), action_decisions=_action_decisions(escalation)
    )


@router.post(
    "/escalations/{escalation_id}/verdict",
    response={200: AnswerReviewOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut} | DENIED | BODY,
)
def escalation_verdict_view(
    request: HttpRequest, escalation_id: str, payload: VerdictIn
) -> AnswerReviewOut:
    """Mark the AI answer of a review escalation correct, or wrong with what was wrong; the
    escalation is decided (reviewed). Once per escalation: a second verdict is refused
    (already_reviewed, 409), as is one on another kind of escalation (not_a_review, 422)."""
    user = require_role(request, Role.OPERATOR)
    pk = escalation_id_parse(escalation_id)
    claim_touch(escalation_id=pk, user=user)
    review = answer_review_record(
        escalation_id=pk,
        user=user,
        verdict=Verdict(payload.verdict, payload.reason, payload.note),
        correction=payload.correction,
        confirm_language=payload.confirm_language,
    )
    return AnswerReviewOut(
        verdict=review.verdict,
        reason=review.reason,
        intent=review.intent,
        turn=review.turn,
        reviewer=user.username,
        created_at=review.created_at.isoformat(),
        escalation=_out(escalation_get(escalation_id=pk)),
    )


@router.post(
    "/escalations/{escalation_id}/send-reply",
    response={200: EscalationOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut} | DENIED | BODY,
)
def escalation_send_reply_view(
    request: HttpRequest, escalation_id: str, payload: DraftSendIn
) -> EscalationOut:
    """Send the reply the AI drafted to the customer, as drafted or edited; the draft is
    decided (reply sent). Once: a second send is refused (already_decided, 409), as is one on
    another kind of escalation (not_a_draft, 422)."""
    user = require_role(request, Role.OPERATOR)
    pk = escalation_id_parse(escalation_id)
    claim_touch(escalation_id=pk, user=user)
    draft_send(
        escalation_id=pk,
        user=user,
        text=payload.text,
        confirm_language=payload.confirm_language,
    )
    return _out(escalation_get(escalation_id=pk))


@router.post(
    "/escalations/{escalation_id}/preview",
    response={200: ReplyPreviewOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut} | DENIED | BODY,
)
def escalation_preview_view(
    request: HttpRequest, escalation_id: str, payload: DecisionIn
) -> ReplyPreviewOut:
    """The exact reply this decision would send the customer, and whether the operator's
    words are in the customer's language; nothing is decided."""
    user = require_role(request, Role.OPERATOR)
    pk = escalation_id_parse(escalation_id)
    claim_touch(escalation_id=pk, user=user)
    shown = escalation_preview(
        escalation_id=pk,
        user=user,
        decision=payload.decision,
        params=dict(payload.params),
        reason=payload.reason,
        reply=payload.reply,
    )
    return ReplyPreviewOut(**shown.as_dict())


@router.get("/events", response={200: ConsoleEventPage, 422: ErrorOut, **DENIED})
def console_events(
    request: HttpRequest, after: Annotated[int, Field(ge=0, le=2**63 - 1)] = 0
) -> ConsoleEventPage:
    """The live events numbered after ``after``, oldest first, for a console that reconnects."""
    require_role(request, Role.OPERATOR)
    rows = console_events_after(after=after, limit=EVENTS_PAGE + 1)
    events = [_event(row) for row in rows[:EVENTS_PAGE]]
    return ConsoleEventPage(
        events=events,
        last_seq=events[-1].seq if events else after,
        has_more=len(rows) > EVENTS_PAGE,
    )


def _out(escalation: Escalation) -> EscalationOut:
    return EscalationOut(**escalation_payload(escalation), overdue=escalation.is_overdue)


def _detail(escalation: Escalation) -> EscalationDetail:
    return EscalationDetail(
        **escalation_payload(escalation),
        overdue=escalation.is_overdue,
        owner=escalation.owner,
        resume_token_id=str(escalation.resume_token_id),
        claimed_at=escalation.claimed_at.isoformat() if escalation.claimed_at else None,
        decided_at=escalation.decided_at.isoformat() if escalation.decided_at else None,
        decision_record=escalation.decision,
        actions=escalation.actions,
        action_decisions=_action_decisions(escalation),
        package=escalation.package,
        handoffs=[
            {"agent": receipt.get("receiver"), "verdict": receipt.get("verdict")}
            for receipt in escalation.inquiry.handoffs or []
        ],
    )


def _action_decisions(escalation: Escalation) -> list[ActionDecisionOut]:
    return [ActionDecisionOut(**shown) for shown in action_decisions_shown(escalation)]


def _event(row: ConsoleEvent) -> ConsoleEventOut:
    return ConsoleEventOut(
        seq=row.pk, type=row.type, payload=row.payload, created_at=row.created_at.isoformat()
    )
