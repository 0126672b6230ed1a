"""The storefront's side of a conversation: the customer's messages, the thread to show, and
the receipts issued in it.

A storefront writes for one customer at a time: each call names the customer, and another
customer's conversation is "not found", exactly like an id that does not exist. So is every
conversation the storefront's token did not submit (another storefront's, or one started on
the help page or in the console): a token cannot probe ids.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from django.http import HttpRequest, HttpResponse
from ninja import Path, Router, Status

from agents.models import Inquiry
from agents.support.conversations.inbox import (
    customer_conversation_get,
    storefront_conversation_get,
    thread_after,
)
from agents.support.conversations.selectors import inquiry_get
from agents.support.conversations.services import customer_message_post
from agents.support.escalations.customer_feedback import Feedback, answer_feedback_give
from agents.support.events.payloads import feedback_payload
from agents.support.receipts import receipt_document
from netshop.errors import DomainError
from netshop.roles import Role
from netshop.selectors import customer_get
from netshop.services.receipts import RECEIPT_NUMBER_PATTERN, receipt_issue_get
from operators.api.auth import STAFF, require_storefront_or_role, storefront, storefront_of
from operators.api.outputs import message_out, thread_out
from operators.api.schemas import (
    CustomerCode,
    CustomerMessageIn,
    ErrorOut,
    FeedbackIn,
    FeedbackOut,
    KeyHeader,
    MessageAccepted,
    ThreadOut,
)
from operators.api.throttling import StorefrontRateThrottle

router = Router(tags=["conversations"])

POST_ERRORS = (400, 401, 404, 409, 413, 415, 422, 429)


@router.post(
    "/inquiries/{inquiry_id}/messages",
    auth=[storefront],
    throttle=[StorefrontRateThrottle()],
    response={202: MessageAccepted, **dict.fromkeys(POST_ERRORS, ErrorOut)},
    summary="Post the customer's message to a conversation (storefront)",
)
def customer_message(
    request: HttpRequest,
    inquiry_id: str,
    payload: CustomerMessageIn,
    response: HttpResponse,
    idempotency_key: KeyHeader = None,
) -> Status[MessageAccepted]:
    """Store the customer's message and answer at once; the AI answers it in a worker unless a
    person owns the conversation (then the message waits for them). A conversation closed
    within NETSHOP_REOPEN_DAYS reopens; one closed longer ago is left as it was and the
    message starts a new conversation: ``new_conversation`` is true and ``inquiry_id`` (and
    ``Location``) name it. Another customer's conversation, or one this token did not
    submit, is 404. The ``Idempotency-Key`` header makes a retry safe (409
    ``message_key_reused`` for the same key with another text); blank text is 422; the body
    is JSON (415) within the size limit (413)."""
    customer = customer_get(code=payload.customer_id)
    message = customer_message_post(
        customer=customer,
        inquiry_id=_pk(inquiry_id),
        text=payload.text,
        channel=payload.channel,
        idempotency_key=idempotency_key,
        storefront=storefront_of(request),
    )
    landed = str(message.inquiry_id)
    response["Location"] = f"/api/v1/inquiries/{landed}/messages"
    accepted = MessageAccepted(
        message=message_out(message, for_staff=False),
        inquiry_id=landed,
        new_conversation=message.inquiry_id != _pk(inquiry_id),
    )
    return Status(202, accepted)


@router.post(
    "/inquiries/{inquiry_id}/messages/{message_id}/feedback",
    auth=[storefront],
    throttle=[StorefrontRateThrottle()],
    response={200: FeedbackOut, 201: FeedbackOut, **dict.fromkeys(POST_ERRORS, ErrorOut)},
    summary="The customer says whether an AI answer solved their problem (storefront)",
)
def answer_feedback(
    request: HttpRequest, inquiry_id: str, message_id: str, payload: FeedbackIn
) -> Status[FeedbackOut]:
    """Record the customer's word on one AI answer (``author_kind`` ``ai``) of their
    conversation: ``solved``, an optional ``rating`` 1-5 and ``comment``. Once per answer:
    201 when recorded; the same answer sent again is 200 with the recorded one; a different
    one is 409 ``feedback_already_given``. ``solved: false`` puts the conversation in the
    operators' queue at once and the AI answers nothing until a person has acted. Another
    customer's conversation, one this token did not submit, or a message not in it, is 404;
    a message that is no AI answer is 422 ``not_an_ai_reply``; 422 ``invalid_rating``,
    ``comment_too_long``."""
    customer = customer_get(code=payload.customer_id)
    row, created = answer_feedback_give(
        customer=customer,
        inquiry_id=_pk(inquiry_id),
        message_id=message_id,
        feedback=Feedback(solved=payload.solved, rating=payload.rating, comment=payload.comment),
        channel=payload.channel,
        storefront=storefront_of(request),
    )
    return Status(201 if created else 200, FeedbackOut(**feedback_payload(row)))


@router.get(
    "/inquiries/{inquiry_id}/messages",
    auth=[storefront, *STAFF],
    response={200: ThreadOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    summary="A conversation's messages, for showing and polling",
)
def customer_thread(
    request: HttpRequest,
    inquiry_id: str,
    customer_id: CustomerCode | None = None,
    after: UUID | None = None,
) -> ThreadOut:
    """The thread oldest first: the customer's, the AI's and operators' messages; internal
    notes never (use the staff conversation endpoints for those). A storefront names the
    customer it shows the thread to (``customer_id``, required for it; 404 for another
    customer's conversation or one the token did not submit). Poll with ``after`` = the
    ``last_id`` of the previous answer."""
    require_storefront_or_role(request, Role.OPERATOR)
    inquiry = _visible(request, inquiry_id, customer_id)
    messages = thread_after(inquiry=inquiry, for_staff=False, after=after)
    return thread_out(inquiry, messages, for_staff=storefront_of(request) is None)


# The converter in the route takes only this shape (anything else is 404); the schema says so.
ReceiptNumber = Annotated[str, Path(pattern=f"^{RECEIPT_NUMBER_PATTERN}$")]

PDF_RESPONSE = {
    200: {
        "description": "The receipt (領収書) as a PDF.",
        "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
    }
}


@router.get(
    "/inquiries/{inquiry_id}/receipts/{receipt:number}",
    auth=[storefront, *STAFF],
    response={401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    openapi_extra={"responses": PDF_RESPONSE},
    summary="A receipt issued in a conversation, as a PDF",
)
def conversation_receipt(
    request: HttpRequest,
    inquiry_id: str,
    number: ReceiptNumber,
    customer_id: CustomerCode | None = None,
) -> HttpResponse:
    """The PDF of receipt ``number`` (as the AI's reply names it) issued in this
    conversation. Read exactly like the thread: a storefront names the customer
    (``customer_id``), and another customer's conversation or a receipt issued elsewhere is
    404 ``receipt_not_found``."""
    require_storefront_or_role(request, Role.OPERATOR)
    inquiry = _visible(request, inquiry_id, customer_id)
    issue = receipt_issue_get(inquiry_ref=str(inquiry.pk), number=number)
    if issue.receipt.order.customer_id != inquiry.customer_id:
        raise DomainError("receipt_not_found")
    response = HttpResponse(receipt_document(issue), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="receipt-{issue.receipt.number}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


def _visible(request: HttpRequest, inquiry_id: str, customer_id: str | None) -> Inquiry:
    """The conversation as the caller may read it: a storefront, only one it submitted, of
    the customer it names; staff, any (of the customer, when named)."""
    token = storefront_of(request)
    if token is not None:
        if customer_id is None:
            raise DomainError("invalid_request", "customer_id: a storefront must name the customer")
        return storefront_conversation_get(
            inquiry_id=inquiry_id, token=token, customer_code=customer_id
        )
    if customer_id is None:
        return inquiry_get(inquiry_id=inquiry_id)
    return customer_conversation_get(inquiry_id=inquiry_id, customer_code=customer_id)


def _pk(inquiry_id: str) -> UUID:
    try:
        return UUID(inquiry_id)
    except ValueError:
        raise DomainError("inquiry_not_found", variant="by_id", id=inquiry_id) from None
