"""The customer's receipts (領収書) on the help page: the list per conversation, and the PDF.

Authorised exactly like the customer's other reads of a conversation: their own
conversation or "not found", and only a receipt issued in that conversation, on one of
their orders. The PDF is drawn on each download from the issue's record.
"""

from __future__ import annotations

from uuid import UUID

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse

from agents.support.receipts import receipt_document
from netshop.errors import DomainError
from netshop.services.receipts import receipt_issue_get
from operators.customer_page.selectors import customer_inquiry_get, customer_receipts
from operators.customer_page.views import customer_required, receipt_link


@customer_required
def receipt_list(request: HttpRequest, inquiry_id: UUID) -> JsonResponse:
    """The receipts issued in one of the customer's conversations (the page polls it)."""
    customer = request.customer  # type: ignore[attr-defined]
    try:
        inquiry = customer_inquiry_get(customer=customer, inquiry_id=inquiry_id)
    except DomainError:
        raise Http404 from None
    issues = customer_receipts(customer=customer, inquiry_ids=[str(inquiry.pk)])
    return JsonResponse({"receipts": [receipt_link(i) for i in issues.get(str(inquiry.pk), [])]})


@customer_required
def receipt_download(request: HttpRequest, inquiry_id: UUID, number: str) -> HttpResponse:
    """The receipt's PDF; anyone else's conversation or receipt is 404, like a bad id."""
    customer = request.customer  # type: ignore[attr-defined]
    try:
        inquiry = customer_inquiry_get(customer=customer, inquiry_id=inquiry_id)
        issue = receipt_issue_get(inquiry_ref=str(inquiry.pk), number=number)
    except DomainError:
        raise Http404 from None
    if issue.receipt.order.customer_id != customer.pk:
        raise Http404
    response = HttpResponse(receipt_document(issue), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="receipt-{issue.receipt.number}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response
