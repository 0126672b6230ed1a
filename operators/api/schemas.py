"""The API's request and response bodies, as the OpenAPI schema shows them."""

from __future__ import annotations

from typing import Annotated, Any

from ninja import Field, Header, Schema
from pydantic import AfterValidator, StrictBool, StrictInt, StringConstraints

from agents.models import (
    FEEDBACK_COMMENT_MAX,
    ActionState,
    AnswerVerdict,
    EscalationStatus,
    MessageAuthor,
    WrongAnswerReason,
)
from agents.support.vocabulary import DECIDE_DECISIONS
from netshop.choices import OneOf
from netshop.text import shows_nothing

# Timestamps are the ISO strings the live events carry, so a console sees identical values.
IsoTime = Annotated[str, Field(json_schema_extra={"format": "date-time"})]


def no_nul(value: str) -> str:
    # PostgreSQL text cannot hold NUL; refusing it here keeps a bad byte from becoming a 500.
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


def _not_blank(value: str) -> str:
    if shows_nothing(value):  # the intake service's own rule, refused here with the field
        raise ValueError("must not be blank")
    return value


NoNul = AfterValidator(no_nul)
# Length limits go before the validators, so pydantic words their errors for strings.
CustomerCode = Annotated[str, StringConstraints(min_length=1, max_length=20), NoNul]
InquiryText = Annotated[
    str, StringConstraints(min_length=1, max_length=4000), NoNul, AfterValidator(_not_blank)
]
Channel = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,19}$")]
IdempotencyKey = Annotated[str, StringConstraints(min_length=1, max_length=100), NoNul]
ShortText = Annotated[str, StringConstraints(max_length=1000), NoNul]
LongText = Annotated[str, StringConstraints(max_length=4000), NoNul]
FilterText = Annotated[str, StringConstraints(max_length=40), NoNul]
Cursor = Annotated[str, StringConstraints(max_length=200), NoNul]


class ErrorOut(Schema):
    code: str = Field(description="Stable, machine-readable reason.")
    message: str = Field(description="What went wrong, for people.")


class InquiryIn(Schema):
    customer_id: CustomerCode = Field(description="The customer's code, e.g. C0001.")
    text: InquiryText = Field(description="What the customer wrote.")
    channel: Channel = Field(default="web", description="Where it came from: web, email, chat.")
    idempotency_key: IdempotencyKey | None = Field(
        default=None,
        description=(
            "Sending the same key again (per customer, from this token) returns the same "
            "inquiry; another token's same key is another inquiry."
        ),
    )


class InquiryAccepted(Schema):
    id: str
    status: str


class EscalationSummary(Schema):
    kind: str
    reason: str
    summary: str = ""


class MessageOut(Schema):
    """One message as the caller may see it (the ``conversation.message`` live payload)."""

    id: str
    inquiry_id: str
    author_kind: Annotated[str, OneOf(MessageAuthor.values)] = Field(
        description="Who wrote it; ``note`` (internal) only ever reaches staff."
    )
    author: str | None = Field(description="The staff member who wrote it, if one did.")
    text: str
    channel: str
    language: str
    turn: int | None = Field(
        description="The run that took (or wrote) the message; null while none has."
    )
    created_at: IsoTime


class InquiryOut(Schema):
    id: str
    customer_id: str
    status: str
    intent: str
    agents: list[str]
    reply: str
    language: str
    escalation: EscalationSummary | None
    created_at: IsoTime
    updated_at: IsoTime
    messages: list[MessageOut] = Field(
        description="The thread as the caller may see it (a storefront never sees notes)."
    )


class EscalationOut(Schema):
    """The ``escalation.*`` live event payload, plus whether the wait is past its deadline."""

    id: str
    inquiry_id: str
    kind: str
    reason: str
    summary: str
    status: Annotated[str, OneOf(EscalationStatus.values)]
    amount_at_risk: int
    deadline: IsoTime
    created_at: IsoTime
    claimed_by: str | None
    decided_by: str | None
    decision: str | None
    awaits_second_approval: bool = Field(
        description="A first approval is recorded and a manager's second is awaited: the "
        "escalation waits, unclaimed, in the managers' queue."
    )
    overdue: bool


class ActionDecisionOut(Schema):
    """One pending action: where it is, what was decided on it and who approved it."""

    action_id: str
    kind: str
    amount: int = Field(description="Yen, as decided (an edit's amount once edited).")
    state: Annotated[str, OneOf(ActionState.values)] = Field(
        description="awaiting_second_approval: needs a second approval by a manager who is "
        "not the first approver (the policy's four-eyes amount)."
    )
    decision: str | None
    reason: str
    approvals: list[str] = Field(description="Who approved it, first approver first.")
    decided_by: str | None
    decided_at: IsoTime | None


class EscalationDecided(EscalationOut):
    """The escalation after a decision, with each action's decision (the escalation stays
    open until every action has one)."""

    action_decisions: list[ActionDecisionOut]


class EscalationDetail(EscalationOut):
    owner: str
    resume_token_id: str
    claimed_at: IsoTime | None
    decided_at: IsoTime | None
    decision_record: dict[str, Any] | None = Field(
        description="The decision as recorded: decision, params, reason, reply, operator."
    )
    actions: list[dict[str, Any]] = Field(description="The pending actions, exact parameters.")
    action_decisions: list[ActionDecisionOut]
    package: dict[str, Any] = Field(description="The hand-off package (SPEC 5.2).")
    handoffs: list[dict[str, Any]] = Field(
        description="Each specialist's hand-off as the run left it: agent and verdict (SPEC 6)."
    )


class EscalationPage(Schema):
    items: list[EscalationOut]
    next_cursor: str | None = Field(description="Pass as ``cursor`` for the next page.")


# An edit's values are yen amounts or short texts; a boolean is not an amount.
ParamValue = StrictInt | ShortText


class DecisionIn(Schema):
    decision: Annotated[str, OneOf([str(d) for d in DECIDE_DECISIONS])]
    params: dict[str, ParamValue] = Field(
        default_factory=dict, description="For edit: the parameters to change, e.g. amount."
    )
    reason: ShortText = ""
    reply: LongText = ""


class VerdictIn(Schema):
    """A reviewer's verdict on the AI answer a review escalation holds (once per escalation)."""

    verdict: Annotated[str, OneOf(AnswerVerdict.values)]
    reason: Annotated[str, OneOf(["", *WrongAnswerReason.values])] = Field(
        default="", description="What was wrong: required for a wrong answer, empty otherwise."
    )
    note: Annotated[str, StringConstraints(max_length=2000), NoNul] = Field(
        default="", description="For the team (managers read it; the audit keeps its digest)."
    )
    correction: LongText = Field(
        default="",
        description="A wrong answer only: sent to the customer once, as the reviewer's message.",
    )
    confirm_language: bool = Field(
        default=False,
        description="Send a correction in another language than the customer's as written; "
        "without it such a correction is refused (reason_language_unconfirmed, 422).",
    )


class DraftSendIn(Schema):
    """Send the reply the AI drafted: as drafted (no ``text``), or the operator's version."""

    text: LongText | None = Field(
        default=None,
        description="The reply as edited; left out (or equal to the draft), the draft is sent "
        "as the AI wrote it. Sent once: a second send is refused (already_decided, 409).",
    )
    confirm_language: bool = Field(
        default=False,
        description="Send an edited reply in another language than the customer's as written; "
        "without it such a reply is refused (reason_language_unconfirmed, 422).",
    )


class AnswerReviewOut(Schema):
    """The verdict as recorded, and the review escalation it decided."""

    verdict: Annotated[str, OneOf(AnswerVerdict.values)]
    reason: str
    intent: str = Field(description="The intent of the answer reviewed.")
    turn: int
    reviewer: str
    created_at: IsoTime
    escalation: EscalationOut


class ConsoleEventOut(Schema):
    seq: int
    type: str
    payload: dict[str, Any]
    created_at: IsoTime


class ConsoleEventPage(Schema):
    events: list[ConsoleEventOut]
    last_seq: int = Field(description="Pass as ``after`` to continue from here.")
    has_more: bool


class AuditEntryOut(Schema):
    """One audit entry as stored; ``hash`` chains it to ``prev_hash`` (SPEC 5.5)."""

    seq: int
    created_at: IsoTime
    action: str
    actor: str
    inquiry_id: str | None
    operation_id: str
    verdict: str
    reason: str
    data: dict[str, Any]
    prev_hash: str
    hash: str


class AuditTrailOut(Schema):
    inquiry_id: str
    entries: list[AuditEntryOut] = Field(description="Oldest first.")
    truncated: bool = Field(description="True when only the first entries are listed.")


class AuditPageOut(Schema):
    entries: list[AuditEntryOut] = Field(description="Newest first.")
    next_before: int | None = Field(description="Pass as ``before`` for the next (older) page.")


class AuditQuery(Schema):
    """The audit search's filters, as on the manager's search page; empty means any."""

    inquiry: str | None = Field(None, description="An inquiry id.")
    actor: str | None = Field(None, description="Exact, or a prefix ending in ``:``.")
    action: str | None = Field(None, description="Exact, or a prefix ending in ``.``.")
    verdict: str | None = None
    reason: str | None = None
    date_from: str | None = Field(None, description="YYYY-MM-DD, the shop's local day.")
    date_to: str | None = Field(None, description="YYYY-MM-DD, inclusive.")
    q: str | None = Field(
        None,
        description="Free text over ids; an order number finds the conversations about it.",
    )
    figure: str | None = Field(
        None, description="A dashboard figure's conversations: ai_resolved, ai_reopened, ..."
    )
    refund_reason: str | None = Field(None, description="Refunds made for this reason.")


# --- Conversations --------------------------------------------------------------------------

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_DESCRIPTION = (
    "Sending the same key again for the same conversation and text answers with the message "
    "it first stored (nothing is stored or answered twice); the same key with another text, "
    "or one another writer used in the conversation, is refused (409 ``message_key_reused``)."
)
MessageText = InquiryText  # the same bounds and blank rule as an inquiry's first message


class CustomerMessageIn(Schema):
    customer_id: CustomerCode = Field(description="The customer the storefront writes for.")
    text: MessageText = Field(description="What the customer wrote.")
    channel: Channel = Field(default="web", description="Where it came from: web, email, chat.")


class FeedbackIn(Schema):
    """The customer's word on one AI answer of their conversation (once per answer)."""

    customer_id: CustomerCode = Field(description="The customer the storefront writes for.")
    solved: StrictBool = Field(description="Whether the answer solved the customer's problem.")
    rating: StrictInt | None = Field(default=None, description="Optional, 1 to 5.")
    comment: Annotated[str, NoNul] = Field(
        default="",
        description=f"Optional, at most {FEEDBACK_COMMENT_MAX} characters; the customer's own "
        "words, to be shown escaped.",
    )
    channel: Channel = Field(default="web", description="Where it came from: web, app, email.")


class FeedbackOut(Schema):
    """A customer's word on an AI answer (the ``answer.feedback`` live payload, and the
    ``feedback`` of the ``conversation.feedback`` webhook)."""

    id: int
    inquiry_id: str
    message_id: str
    solved: bool
    rating: int | None
    comment: str
    source: str = Field(
        description="buttons (as given here), or reply (a reply of theirs "
        "said the answer missed the point)."
    )
    intent: str
    created_at: IsoTime


class TextIn(Schema):
    text: MessageText = Field(description="The message or note, as written.")


class FlagIn(Schema):
    reason: Annotated[
        str, StringConstraints(min_length=1, max_length=1000), NoNul, AfterValidator(_not_blank)
    ] = Field(description="Why the conversation needs a second look (staff only).")


class MessageAccepted(Schema):
    message: MessageOut
    inquiry_id: str = Field(description="The conversation the message landed in.")
    new_conversation: bool = Field(
        description="True when the addressed conversation was closed longer than "
        "NETSHOP_REOPEN_DAYS ago, so the message started a new one (``inquiry_id``)."
    )


class ThreadOut(Schema):
    inquiry_id: str
    messages: list[MessageOut] = Field(description="Oldest first.")
    last_id: str | None = Field(
        description="The last message's id: pass as ``after`` to poll for newer ones."
    )


class ConversationOut(Schema):
    """One conversation in the inbox."""

    id: str
    customer_id: str
    status: str
    text: str = Field(description="The message that opened the conversation.")
    human_owner: str | None = Field(description="Who took it over; null while the AI owns it.")
    flagged: bool = Field(description="An open review escalation: a lead asked for a look.")
    last_message_at: IsoTime | None
    created_at: IsoTime
    updated_at: IsoTime


class ConversationPage(Schema):
    items: list[ConversationOut] = Field(description="Most recently active first.")
    next_cursor: str | None = Field(description="Pass as ``cursor`` for the next page.")


class ConversationDetail(ConversationOut):
    language: str
    turns: int = Field(description="Runs of the AI on the thread, one per batch of messages.")
    reply: str = Field(description="The latest answer the customer got.")
    awaiting_until: IsoTime | None = Field(description="When a question to the customer lapses.")
    messages: list[MessageOut] = Field(description="The whole thread, notes included.")


# A message's ``Idempotency-Key`` header, for the customer's and the operator's messages alike.
KeyHeader = Annotated[
    IdempotencyKey | None,
    Header(alias=IDEMPOTENCY_HEADER, description=IDEMPOTENCY_DESCRIPTION),
]
