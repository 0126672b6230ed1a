"""The customer help page: a demo customer writes an inquiry and watches the reply arrive."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation

from agents.events import inquiry_payload
from agents.runs.intake import inquiry_create
from agents.runs.outcome import FINAL_STATUSES
from netshop.errors import DomainError
from operators.customer_page.forms import InquiryForm
from operators.customer_page.labels import CUSTOMER_STATUS_LABELS, customer_status
from operators.customer_page.selectors import (
    customer_for_user,
    customer_inquiries,
    customer_inquiry_get,
)

View = TypeVar("View", bound=Callable[..., HttpResponse])


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
            channel="help",
            idempotency_key=str(form.cleaned_data["key"]),
        )
        return redirect(f"{reverse('help:index')}?sent={inquiry.pk}")
    found = customer_inquiries(customer=customer)
    context = {
        "form": form,
        "customer": customer,
        "inquiries": [(i, customer_status(i.status), i.status in FINAL_STATUSES) for i in found],
        "status_labels": {code: str(text) for code, text in CUSTOMER_STATUS_LABELS.items()},
        "final_statuses": sorted(FINAL_STATUSES),
        "sent": request.GET.get("sent", ""),
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "operators/customer_page/index.html", context, status=status)


@customer_required
def status(request: HttpRequest, inquiry_id: UUID) -> JsonResponse:
    """The polling fallback for the live status: the customer's own inquiries only."""
    try:
        inquiry = customer_inquiry_get(customer=request.customer, inquiry_id=inquiry_id)  # type: ignore[attr-defined]
    except DomainError:
        raise Http404 from None
    return JsonResponse(inquiry_payload(inquiry))
