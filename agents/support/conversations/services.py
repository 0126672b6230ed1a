"""Conversation services: customers write, operators take over, converse and hand back.

Every change locks the conversation's row first (the documented lock order: business rows,
then the audit chain), is audited content-free and announced after commit. A customer's
message is stored whatever the conversation is doing; whether the AI answers it is decided
here (``ai_may_answer``) and by the run that takes it (one run at a time per conversation).
"""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from agents.models import (
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from agents.support import audit_trail
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.messages import message_store
from agents.support.conversations.selectors import CLOSED_STATUSES, ai_may_answer, reopenable
from agents.support.events.bus import publish
from agents.support.events.payloads import escalation_payload, inquiry_payload
from agents.support.run_requests import enqueue_run
from agents.support.vocabulary import OperatorDecision
from netshop.audit import AuditAction
from netshop.errors import DomainError
from netshop.models import ApiToken, Customer
from netshop.text import shows_nothing
from netshop.transactions import retry_conflicts

CONSOLE_CHANNEL = "console"

# Sent by ``customer_message_post`` once a customer's message is stored, inside its transaction
# with the conversation locked (``inquiry``, ``message``), before it decides whether the AI
# answers: how the escalations above hear that a reply rejects the AI's answer (a port, as the
# bus's signals are; ``agents.apps`` connects the listener).
customer_message_stored = Signal()


def conversation_locked(
    inquiry_id: UUID | str,
    *,
    customer: Customer | None = None,
    storefront: ApiToken | None = None,
) -> Inquiry:
    """The conversation, locked for this transaction (the customer's own, when given; one the
    storefront submitted, when given). Any other is "not found", exactly like a bad id."""
    found = Inquiry.objects.select_for_update(of=("self",)).select_related("customer")
    found = found.filter(pk=inquiry_id)
    if customer is not None:
        found = found.filter(customer=customer)
    if storefront is not None:
        found = found.filter(storefront_token=storefront)
    inquiry = found.first()
    if inquiry is None:
        raise DomainError("inquiry_not_found", variant="by_id", id=inquiry_id)
    return inquiry


def refuse_blank(text: str) -> None:
    """Refuse a text that shows nothing (empty, blanks, invisible characters)."""
    if shows_nothing(text):
        raise DomainError("blank_text")


def _replayed(
    inquiry: Inquiry, *, key: str | None, text: str, author_kind: str, author: User | None = None
) -> Message | None:
    """The message this idempotency key already made in this conversation, if any.

    A key is its writer's: one another writer used (the customer's key sent by an operator,
    one operator's by another) is refused like another text, never answered with their
    message.
    """
    if not key:
        return None
    earlier = inquiry.messages.filter(idempotency_key=key).first()
    if earlier is None:
        return None
    writer = (earlier.author_kind, earlier.author_id)
    if earlier.text != text or writer != (author_kind, author.pk if author else None):
        raise DomainError("message_key_reused", key=repr(key))
    return earlier


@retry_conflicts
def customer_message_post(
    *,
    customer: Customer,
    inquiry_id: UUID | str,
    text: str,
    channel: str = "web",
    idempotency_key: str | None = None,
    storefront: ApiToken | None = None,
) -> Message:
    """A customer's message to one of their conversations; returns the stored message.

    ``storefront`` is the token writing for the customer: only a conversation it submitted is
    found (any other is "not found", like a bad id). None is the customer on their own page,
    who may write in any of their conversations.

    A conversation closed longer than ``NETSHOP_REOPEN_DAYS`` ago is not reopened: the
    message starts a new conversation (the returned message's ``inquiry``). One closed more
    recently reopens. The AI's run is started after commit when it may answer; otherwise
    the message waits for the person who owns or decides the conversation.
    """
    refuse_blank(text)
    with transaction.atomic():
        inquiry = conversation_locked(inquiry_id, customer=customer, storefront=storefront)
        earlier = _replayed(
            inquiry, key=idempotency_key, text=text, author_kind=MessageAuthor.CUSTOMER
        )
        if earlier is not None:
            return earlier
        if not reopenable(inquiry):
            # The new conversation stays the storefront's that submitted the first (its reads,
            # its keys, its webhooks), whoever writes this message.
            started = inquiry_create(
                customer=customer,
                text=text,
                channel=channel,
                idempotency_key=idempotency_key,
                storefront_token=inquiry.storefront_token,
            )
            return started.messages.order_by("created_at").first() or _missing(started)
        if inquiry.status in CLOSED_STATUSES:
            _reopen(inquiry)
        message = message_store(
            inquiry=inquiry,
            author_kind=MessageAuthor.CUSTOMER,
            text=text,
            channel=channel,
            idempotency_key=idempotency_key,
        )
        customer_message_stored.send(sender=customer_message_post, inquiry=inquiry, message=message)
        if ai_may_answer(inquiry):
            enqueue_run(inquiry.pk)
    return message


def _missing(inquiry: Inquiry) -> Message:
    raise DomainError("inquiry_not_found", variant="by_id", id=inquiry.pk)


def _reopen(inquiry: Inquiry) -> None:
    inquiry.status, inquiry.resolved_at = InquiryStatus.QUEUED, None
    inquiry.save(update_fields=["status", "resolved_at", "updated_at"])
    audit_trail.conversation_changed(
        inquiry_id=inquiry.pk, action=AuditAction.CONVERSATION_REOPENED, actor="customer"
    )
    publish("inquiry.updated", inquiry_payload(inquiry))


@retry_conflicts
@transaction.atomic
def conversation_take_over(*, inquiry_id: UUID | str, user: User) -> Inquiry:
    """A person owns the conversation from now on: the AI sends nothing until handed back.

    A run in flight finishes, but its reply is not sent (``inquiry_record_run`` checks).
    """
    inquiry = conversation_locked(inquiry_id)
    if inquiry.human_owner_id is not None:
        raise DomainError("already_human_owned", who=_owner_name(inquiry))
    _own(inquiry, user)
    return inquiry


def _own(inquiry: Inquiry, user: User) -> None:
    _drafts_taken_over(inquiry, user)
    inquiry.human_owner, inquiry.status = user, InquiryStatus.HANDLED_BY_HUMAN
    inquiry.awaiting_until = inquiry.resolved_at = None
    inquiry.save(
        update_fields=["human_owner", "status", "awaiting_until", "resolved_at", "updated_at"]
    )
    audit_trail.conversation_changed(
        inquiry_id=inquiry.pk, action=AuditAction.CONVERSATION_TAKEN_OVER, actor=user.username
    )
    publish("inquiry.updated", inquiry_payload(inquiry))


def _drafts_taken_over(inquiry: Inquiry, user: User) -> None:
    """A person who takes the conversation over answers it themselves: a reply the AI drafted
    for it is not sent any more (decided "taken over", so it leaves the queue and cannot hold
    the AI after the conversation is handed back)."""
    now = timezone.now()
    record = {"decision": OperatorDecision.TAKE_OVER, "params": {}, "reason": "", "reply": ""}
    drafts = inquiry.escalations.select_for_update().filter(
        kind=EscalationKind.DRAFT, status=EscalationStatus.OPEN
    )
    for draft in drafts:
        draft.status, draft.decided_by, draft.decided_at = EscalationStatus.DECIDED, user, now
        draft.decision = record | {"operator": user.username}
        draft.save(update_fields=["status", "decided_by", "decided_at", "decision"])
        audit_trail.decided(
            escalation=draft, username=user.username, decision=OperatorDecision.TAKE_OVER, params={}
        )
        publish("escalation.decided", escalation_payload(draft))


def _owner_name(inquiry: Inquiry) -> str:
    return inquiry.human_owner.username if inquiry.human_owner else ""


def _refuse_unless_owner(inquiry: Inquiry, user: User) -> None:
    if inquiry.human_owner_id is None:
        raise DomainError("not_human_owned")
    if inquiry.human_owner_id != user.pk:
        raise DomainError("owned_by_other", who=_owner_name(inquiry))


@retry_conflicts
@transaction.atomic
def operator_message_send(
    *, inquiry_id: UUID | str, user: User, text: str, idempotency_key: str | None = None
) -> Message:
    """The owner of a taken-over conversation writes to the customer (a key replayed returns
    the message it made, as for the customer's)."""
    refuse_blank(text)
    inquiry = conversation_locked(inquiry_id)
    earlier = _replayed(
        inquiry, key=idempotency_key, text=text, author_kind=MessageAuthor.OPERATOR, author=user
    )
    if earlier is not None:
        return earlier
    _refuse_unless_owner(inquiry, user)
    message = message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.OPERATOR,
        author=user,
        text=text,
        channel=CONSOLE_CHANNEL,
        idempotency_key=idempotency_key,
    )
    inquiry.reply = text
    inquiry.save(update_fields=["reply", "updated_at"])
    publish("inquiry.updated", inquiry_payload(inquiry))
    return message


@retry_conflicts
@transaction.atomic
def note_add(*, inquiry_id: UUID | str, user: User, text: str) -> Message:
    """An internal note: staff see it in the thread, the customer never does."""
    refuse_blank(text)
    inquiry = conversation_locked(inquiry_id)
    return message_store(
        inquiry=inquiry, author_kind=MessageAuthor.NOTE, author=user, text=text, channel="console"
    )


@retry_conflicts
@transaction.atomic
def conversation_hand_back(*, inquiry_id: UUID | str, user: User) -> Inquiry:
    """The AI owns the conversation again and answers the customer's next message (or one
    already waiting) with the whole thread, the operators' messages included, as context."""
    inquiry = _released(
        inquiry_id,
        user,
        status=InquiryStatus.AWAITING_CUSTOMER,
        action=AuditAction.CONVERSATION_HANDED_BACK,
    )
    enqueue_run(inquiry.pk)  # answers a message that came while a person owned it, if any
    return inquiry


@retry_conflicts
@transaction.atomic
def conversation_close(*, inquiry_id: UUID | str, user: User) -> Inquiry:
    """The owner is done: the conversation is resolved (a reply reopens it for a while)."""
    return _released(
        inquiry_id, user, status=InquiryStatus.RESOLVED, action=AuditAction.CONVERSATION_CLOSED
    )


def _released(
    inquiry_id: UUID | str, user: User, *, status: InquiryStatus, action: AuditAction
) -> Inquiry:
    """The owner lets the conversation go: nobody owns it, and it is in ``status``."""
    inquiry = conversation_locked(inquiry_id)
    _refuse_unless_owner(inquiry, user)
    inquiry.human_owner, inquiry.status = None, status
    inquiry.resolved_at = timezone.now() if status == InquiryStatus.RESOLVED else None
    inquiry.save(update_fields=["human_owner", "status", "resolved_at", "updated_at"])
    audit_trail.conversation_changed(inquiry_id=inquiry.pk, action=action, actor=user.username)
    publish("inquiry.updated", inquiry_payload(inquiry))
    return inquiry
