"""Reading a conversation: its thread, what waits for the AI, whether the AI may answer."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from agents.models import (
    CUSTOMER_VISIBLE_AUTHORS,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
    Message,
    MessageAuthor,
)
from agents.support.vocabulary import LOOK_BACK_REVIEWS, NOT_SOLVED
from netshop.errors import DomainError

# Statuses in which the AI takes the customer's next message (a person owns none of them).
AI_ANSWERS_IN = frozenset(
    {
        InquiryStatus.QUEUED,
        InquiryStatus.RUNNING,
        InquiryStatus.AWAITING_CUSTOMER,
        InquiryStatus.RESOLVED,
    }
)
# A closed conversation: a customer's message to it reopens it, or starts a new one.
CLOSED_STATUSES = frozenset({InquiryStatus.RESOLVED})


def thread_messages(*, inquiry: Inquiry, for_staff: bool) -> QuerySet[Message]:
    """The thread in order; the customer's view leaves out internal notes."""
    messages = inquiry.messages.select_related("author")
    if not for_staff:
        messages = messages.filter(author_kind__in=CUSTOMER_VISIBLE_AUTHORS)
    return messages.order_by("created_at", "id")


def unthreaded_messages(*, inquiry_id: UUID | str) -> QuerySet[Message]:
    """Customer and operator messages no run has taken into the graph's thread yet."""
    return Message.objects.filter(
        inquiry_id=inquiry_id,
        turn__isnull=True,
        author_kind__in=(MessageAuthor.CUSTOMER, MessageAuthor.OPERATOR),
    ).order_by("created_at", "id")


# The thread id of a person's version of a drafted AI reply ends so: it answers the messages
# its turn took, not a message the customer wrote while the draft waited.
EDITED_DRAFT_SUFFIX = ":edited"


def waits_for_ai(*, inquiry_id: UUID | str) -> bool:
    """Whether a customer message is unanswered: untaken, and newer than any operator's reply
    (a person who answered it, answered it; an edited draft answered its own turn's)."""
    last_operator = (
        Message.objects.filter(inquiry_id=inquiry_id, author_kind=MessageAuthor.OPERATOR)
        .exclude(thread_id__endswith=EDITED_DRAFT_SUFFIX)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    pending = unthreaded_messages(inquiry_id=inquiry_id).filter(author_kind=MessageAuthor.CUSTOMER)
    if last_operator is not None:
        pending = pending.filter(created_at__gt=last_operator)
    return pending.exists()


# Reviews that do not hold the AI by themselves: the look-backs at an answer already sent (a
# sampled one, one of an intent sent for review), and a customer's "not solved", which holds
# it through the conversation's status (escalated) until a person decides, or takes over and
# hands back, while the review waits in the queue for its verdict (``escalations.not_solved``).
REVIEWS_NOT_HOLDING = LOOK_BACK_REVIEWS | {NOT_SOLVED}


def ai_may_answer(inquiry: Inquiry) -> bool:
    """The AI answers a conversation no person owns and no person is deciding (a sampled
    review, or one of an answer sent for review, looks back at an answer already sent: the
    AI goes on meanwhile)."""
    if inquiry.human_owner_id is not None or inquiry.status not in AI_ANSWERS_IN:
        return False
    waits = inquiry.escalations.filter(status=EscalationStatus.OPEN)
    return not waits.exclude(reason__in=REVIEWS_NOT_HOLDING).exists()


def reopenable(inquiry: Inquiry) -> bool:
    """A closed conversation takes a customer's reply within ``NETSHOP_REOPEN_DAYS``."""
    if inquiry.status not in CLOSED_STATUSES:
        return True
    closed_at = inquiry.resolved_at or inquiry.updated_at
    return closed_at >= timezone.now() - timedelta(days=settings.NETSHOP_REOPEN_DAYS)


def with_unanswered_messages() -> Q:
    """Filter: conversations where a customer message waits for a run."""
    pending = Message.objects.filter(
        inquiry=OuterRef("pk"), turn__isnull=True, author_kind=MessageAuthor.CUSTOMER
    )
    return Q(Exists(pending))


def uuid_or_none(value: object) -> UUID | None:
    """``value`` as a UUID, or None when it is not one (an id from a URL or a body)."""
    try:
        return UUID(str(value))
    except ValueError:
        return None


def inquiry_get(*, inquiry_id: object) -> Inquiry:
    """The conversation with this id, whoever it belongs to (staff reads); not found otherwise."""
    pk = uuid_or_none(inquiry_id)
    inquiry = Inquiry.objects.select_related("customer").filter(pk=pk).first() if pk else None
    if inquiry is None:
        raise DomainError("inquiry_not_found", variant="by_id", id=inquiry_id)
    return inquiry
