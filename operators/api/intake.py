"""The storefront's side: start a conversation (an inquiry), follow it, read the agent cards."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from ninja import Router, Status

from agents.contract.cards import cards_document
from agents.models import Inquiry
from agents.support.conversations.inbox import storefront_conversation_get
from agents.support.conversations.selectors import inquiry_get, thread_messages
from agents.support.conversations.storefront_intake import storefront_inquiry_create
from netshop.roles import Role
from netshop.selectors import customer_get
from netshop.services.coupons import coupon_codes_withheld
from operators.api.auth import STAFF, require_storefront_or_role, storefront, storefront_of
from operators.api.outputs import message_out
from operators.api.schemas import ErrorOut, InquiryAccepted, InquiryIn, InquiryOut
from operators.api.throttling import StorefrontRateThrottle

router = Router(tags=["inquiries"])

INTAKE_ERRORS = (400, 401, 404, 409, 413, 415, 422, 429)


@router.post(
    "/inquiries",
    auth=[storefront],
    throttle=[StorefrontRateThrottle()],
    response={202: InquiryAccepted, **dict.fromkeys(INTAKE_ERRORS, ErrorOut)},
    summary="Start a conversation: submit an inquiry (storefront)",
)
def inquiry_submit(
    request: HttpRequest, payload: InquiryIn, response: HttpResponse
) -> Status[InquiryAccepted]:
    """Accept the inquiry and answer at once; a worker runs it. The same idempotency key from
    this token for the same customer and the same text answers with the inquiry it first
    made; reused for a different text or channel it is refused (409
    ``idempotency_key_reused``). Keys are the token's own: another storefront's same key is
    another inquiry. Bodies are JSON
    (415 otherwise, 413 past the size limit); each storefront token has a rate limit (429,
    with ``Retry-After``)."""
    customer = customer_get(code=payload.customer_id)
    inquiry = storefront_inquiry_create(
        token=request.auth,  # type: ignore[attr-defined]
        customer=customer,
        text=payload.text,
        channel=payload.channel,
        idempotency_key=payload.idempotency_key,
    )
    response["Location"] = f"{request.path.rstrip('/')}/{inquiry.pk}"
    return Status(202, InquiryAccepted(id=str(inquiry.pk), status=inquiry.status))


@router.get(
    "/inquiries/{inquiry_id}",
    auth=[storefront, *STAFF],
    response={200: InquiryOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    summary="Where an inquiry stands",
)
def inquiry_detail(request: HttpRequest, inquiry_id: str) -> InquiryOut:
    """The conversation's status, latest reply and thread (never its internal notes). A
    storefront reads only the conversations it submitted: any other is 404, like an id that
    does not exist."""
    require_storefront_or_role(request, Role.OPERATOR)
    token = storefront_of(request)
    inquiry = (
        storefront_conversation_get(inquiry_id=inquiry_id, token=token)
        if token
        else inquiry_get(inquiry_id=inquiry_id)
    )
    return _inquiry_out(inquiry, for_customer=token is not None)


@router.get(
    "/agents",
    auth=[storefront, *STAFF],
    response={200: dict, 401: ErrorOut, 403: ErrorOut},
    tags=["agents"],
    summary="The agent cards",
)
def agent_cards(request: HttpRequest) -> dict[str, object]:
    require_storefront_or_role(request, Role.OPERATOR)
    return cards_document()


def _inquiry_out(inquiry: Inquiry, *, for_customer: bool) -> InquiryOut:
    """The inquiry as the caller may read it: a reply's coupon code is the customer's alone,
    so staff read it withheld."""
    reply = inquiry.reply if for_customer else coupon_codes_withheld(inquiry.reply)
    return InquiryOut(
        id=str(inquiry.pk),
        customer_id=inquiry.customer.code,
        status=inquiry.status,
        intent=inquiry.intent,
        agents=list(inquiry.agents),
        reply=reply,
        language=inquiry.language,
        escalation=inquiry.escalation,
        created_at=inquiry.created_at.isoformat(),
        updated_at=inquiry.updated_at.isoformat(),
        messages=[
            message_out(m, for_staff=not for_customer)
            for m in thread_messages(inquiry=inquiry, for_staff=False)
        ],
    )
