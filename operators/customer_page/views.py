"""The customer help page: a customer's conversations as threads, a reply box in each, and
the answers arriving live."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode
from uuid import UUID

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from agents.models import FEEDBACK_RATINGS, Message
from agents.support.conversations.inbox import thread_after
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.services import customer_message_post
from agents.support.escalations.customer_feedback import answer_feedback_give
from agents.support.events.payloads import inquiry_payload, message_payload
from agents.team.runs.outcome import FINAL_STATUSES
from netshop.errors import DomainError
from netshop.models import Customer, ReceiptIssue
from operators.customer_page.forms import FeedbackForm, InquiryForm, ReplyForm
from operators.customer_page.labels import AUTHOR_LABELS, CUSTOMER_STATUS_LABELS, customer_status
from operators.customer_page.selectors import (
    customer_for_user,
    customer_inquiries,
    customer_inquiry_get,
    customer_receipts,
)

View = TypeVar("View", bound=Callable[..., HttpResponse])
CHANNEL = "help"
ZERO_ID = UUID(int=0)


def customer_required(view: View) -> View:
    """Anonymous visitors log in; a login that is no shop customer (e.g. staff) gets 403."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        customer = customer_for_user(user=request.user)
        if customer is None:
            raise PermissionDenied
        request.customer = customer  # type: ignore[attr-defined]
        with translation.override(customer.language or translation.get_language()):
            return view(request, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


@customer_required
def index(request: HttpRequest) -> HttpResponse:
    customer = request.customer  # type: ignore[attr-defined]
    form = InquiryForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        inquiry = inquiry_create(
            customer=customer,
            text=form.cleaned_data["text"],
            channel=CHANNEL,
            idempotency_key=str(form.cleaned_data["key"]),
        )
        return redirect(f"{reverse('help:index')}?sent={inquiry.pk}")
    status = 422 if request.method == "POST" else 200
    return _page(request, customer, form=form, status=status)


@require_POST
@customer_required
def reply(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    """The customer's reply in one of their conversations. One closed longer than
    NETSHOP_REOPEN_DAYS ago stays closed: the reply starts a new conversation, and the page
    says where it went (``moved``)."""
    customer = request.customer  # type: ignore[attr-defined]
    form = ReplyForm(request.POST)
    if not form.is_valid():
        return _page(request, customer, refused=(str(inquiry_id), form), status=422)
    try:
        message = customer_message_post(
            customer=customer,
            inquiry_id=inquiry_id,
            text=form.cleaned_data["text"],
            channel=CHANNEL,
            idempotency_key=str(form.cleaned_data["key"]),
        )
    except DomainError as error:
        if error.code == "inquiry_not_found":
            raise Http404 from None
        raise
    query = {"sent": str(message.inquiry_id)}
    if message.inquiry_id != inquiry_id:
        query["moved"] = str(inquiry_id)
    return redirect(f"{reverse('help:index')}?{urlencode(query)}#inquiry-{message.inquiry_id}")


@require_POST
@customer_required
def feedback(request: HttpRequest, inquiry_id: UUID, message_id: UUID) -> HttpResponse:
    """The customer's word on one AI answer of their conversation: solved or not, with an
    optional rating and comment. Refused answers re-show the page with the reason beside the
    answer (nothing stored); another customer's conversation or message is 404."""
    customer = request.customer  # type: ignore[attr-defined]
    form = FeedbackForm(request.POST)
    if not form.is_valid():
        problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
        return _page(request, customer, feedback_refused=(str(message_id), problems), status=422)
    try:
        answer_feedback_give(
            customer=customer,
            inquiry_id=inquiry_id,
            message_id=message_id,
            feedback=form.feedback(),
            channel=CHANNEL,
        )
    except DomainError as error:
        if error.status == 404:
            raise Http404 from None
        refused = (str(message_id), error.localized())
        return _page(request, customer, feedback_refused=refused, status=error.status)
    query = urlencode({"sent": str(inquiry_id)})
    return redirect(f"{reverse('help:index')}?{query}#message-{message_id}")


def _page(
    request: HttpRequest,
    customer: Customer,
    *,
    form: InquiryForm | None = None,
    refused: tuple[str, ReplyForm] | None = None,
    feedback_refused: tuple[str, str] = ("", ""),
    status: int = 200,
) -> HttpResponse:
    refused_id, refused_form = refused or ("", None)
    inquiries = customer_inquiries(customer=customer)
    receipts = customer_receipts(customer=customer, inquiry_ids=[str(i.pk) for i in inquiries])
    conversations = [
        {
            "inquiry": inquiry,
            "status_text": customer_status(inquiry.status),
            "final": inquiry.status in FINAL_STATUSES,
            "messages": [
                _thread_item(m, feedback_refused)
                for m in inquiry.visible_messages  # type: ignore[attr-defined]
            ],
            "reply_form": refused_form if str(inquiry.pk) == refused_id else ReplyForm(),
            "receipts": [receipt_link(i) for i in receipts.get(str(inquiry.pk), [])],
        }
        for inquiry in inquiries
    ]
    context = {
        "form": form or InquiryForm(),
        "customer": customer,
        "conversations": conversations,
        "author_labels": {kind: str(text) for kind, text in AUTHOR_LABELS.items()},
        "status_labels": {code: str(text) for code, text in CUSTOMER_STATUS_LABELS.items()},
        # help.js fills in {number} and {order} for receipts issued while the page is open.
        "receipt_label": receipt_label(),
        "final_statuses": sorted(FINAL_STATUSES),
        "ratings": list(FEEDBACK_RATINGS),
        # help.js puts a live AI answer's id in place of this one in the feedback form's URL.
        "zero_id": ZERO_ID,
        "sent": request.GET.get("sent", ""),
        "moved": request.GET.get("moved", ""),
    }
    return render(request, "operators/customer_page/index.html", context, status=status)


def _thread_item(message: Message, refused: tuple[str, str]) -> dict[str, Any]:
    """A message as the thread shows it; an AI answer with the customer's word on it (or the
    form to give it, and why an answer just sent was refused)."""
    return {
        "message": message,
        "author": AUTHOR_LABELS[message.author_kind],
        "ai": message.is_answer,
        "feedback": getattr(message, "feedback", None),  # select_related: no query
        "error": refused[1] if refused[0] == str(message.pk) else "",
    }


def receipt_label() -> str:
    """A receipt link's text, in the request's language; {number} and {order} filled in."""
    return _("Receipt (PDF) {number} for {order}")


def receipt_link(issue: ReceiptIssue) -> dict[str, Any]:
    """A receipt as the page lists it: its number, order, download URL and link text."""
    number, order = issue.receipt.number, issue.receipt.order.number
    return {
        "number": number,
        "order_number": order,
        "reissue": issue.reissue,
        "url": reverse("help:receipt", args=[issue.inquiry_ref, number]),
        "label": receipt_label().format(number=number, order=order),
    }


@customer_required
def status(request: HttpRequest, inquiry_id: UUID) -> JsonResponse:
    """The polling fallback for the live status: the customer's own inquiries only."""
    try:
        inquiry = customer_inquiry_get(customer=request.customer, inquiry_id=inquiry_id)  # type: ignore[attr-defined]
    except DomainError:
        raise Http404 from None
    return JsonResponse(inquiry_payload(inquiry))


@customer_required
def messages(request: HttpRequest, inquiry_id: UUID) -> JsonResponse:
    """The thread's messages after ``after`` (a message id): what the page fetches when its
    socket opens (a channel layer may have dropped one) and when it polls instead."""
    try:
        inquiry = customer_inquiry_get(customer=request.customer, inquiry_id=inquiry_id)  # type: ignore[attr-defined]
        after = _message_id(request.GET.get("after"))
        found = thread_after(inquiry=inquiry, for_staff=False, after=after)
    except DomainError:
        raise Http404 from None
    return JsonResponse({"messages": [_shown(m) for m in found]})


def _message_id(value: str | None) -> UUID | None:
    if not value:
        return None
    try:
        return UUID(value)
    except ValueError:
        raise DomainError("invalid_request", "after: not a message id") from None


def _shown(message: Message) -> dict[str, Any]:
    """A message as the customer's page shows it: no staff member's name."""
    return {**message_payload(message), "author": None}
