"""Receipts on the help page and the API: listed with their conversation, downloaded as a PDF
by the customer the conversation belongs to, and by nobody else.

Given a customer whose conversation issued a receipt (領収書) for their paid order, when they
open ``/help/`` they see its link, and the PDF it downloads carries the amount and the name
it is addressed to; another customer, another conversation, and an anonymous visitor get
nothing.
"""

from __future__ import annotations

from io import BytesIO

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader

from agents.models import Inquiry
from netshop.models import Customer, ReceiptIssue
from netshop.services.receipts import receipt_issue
from tests.factories import CustomerFactory, delivered_order
from tests.operators.api_helpers import (
    bearer,
    inquiry_for,
    signed_in,
    storefront_key,
    token_of,
)

pytestmark = pytest.mark.django_db


def customer_with_login(username: str) -> tuple[User, Customer]:
    user = User.objects.create_user(username, password="x")
    return user, CustomerFactory.create(user=user, name="山田 花子")


def issued(
    customer: Customer, inquiry: Inquiry, addressee: str = "株式会社サンプル"
) -> ReceiptIssue:
    order = delivered_order(captured=12800, customer=customer)
    return receipt_issue(
        order=order,
        addressee=addressee,
        operation_id=f"{inquiry.pk}:issue_receipt:1",
        actor="agent:payment",
        inquiry_ref=str(inquiry.pk),
    )


def url(inquiry: Inquiry, issue: ReceiptIssue) -> str:
    return f"/help/inquiries/{inquiry.pk}/receipts/{issue.receipt.number}.pdf"


def pdf_text(data: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)


@pytest.fixture
def receipt() -> tuple[User, Inquiry, ReceiptIssue]:
    user, customer = customer_with_login("c1")
    inquiry = inquiry_for(customer, text="領収書をお願いします")
    return user, inquiry, issued(customer, inquiry)


def test_the_customer_downloads_the_pdf_with_the_amount_and_the_name(receipt) -> None:
    user, inquiry, issue = receipt

    response = signed_in(user).get(url(inquiry, issue))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'attachment; filename="receipt-{issue.receipt.number}.pdf"'
    )
    assert response["Cache-Control"] == "private, no-store"
    text = pdf_text(response.content)
    assert "¥12,800-" in text
    assert "株式会社サンプル 様" in text
    assert issue.receipt.order.number in text


def test_the_page_shows_the_link_with_its_conversation(receipt) -> None:
    user, inquiry, issue = receipt

    page = signed_in(user).get("/help/").content.decode()

    assert f'href="{url(inquiry, issue)}"' in page
    assert f"{issue.receipt.number}" in page


def page_queries(client: Client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/help/").status_code == 200
    return len(queries)


def test_more_conversations_with_receipts_make_no_more_queries(receipt) -> None:
    user, inquiry, _issue = receipt
    client = signed_in(user)
    page_queries(client)  # the session and the customer, loaded once
    one = page_queries(client)

    issued(inquiry.customer, inquiry_for(inquiry.customer, text="もう一枚"), addressee="")
    issued(inquiry.customer, inquiry_for(inquiry.customer, text="三枚目"), addressee="")

    assert page_queries(client) == one


def test_the_list_the_page_polls_names_the_download(receipt) -> None:
    user, inquiry, issue = receipt
    number, order = issue.receipt.number, issue.receipt.order.number

    body = signed_in(user).get(f"/help/inquiries/{inquiry.pk}/receipts").json()

    assert body == {
        "receipts": [
            {
                "number": issue.receipt.number,
                "order_number": issue.receipt.order.number,
                "reissue": False,
                "url": url(inquiry, issue),
                # in the customer's language (the factory's customers write Japanese)
                "label": f"領収書（PDF）{number}（ご注文 {order}）",
            }
        ]
    }


def test_another_customer_gets_not_found(receipt) -> None:
    _user, inquiry, issue = receipt
    stranger, _ = customer_with_login("c2")

    assert signed_in(stranger).get(url(inquiry, issue)).status_code == 404
    assert signed_in(stranger).get(f"/help/inquiries/{inquiry.pk}/receipts").status_code == 404


def test_a_receipt_is_not_found_through_another_conversation_of_the_same_customer(
    receipt,
) -> None:
    user, inquiry, issue = receipt
    other = inquiry_for(inquiry.customer, text="別件です")

    response = signed_in(user).get(url(other, issue))

    assert response.status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in(receipt) -> None:
    _user, inquiry, issue = receipt

    response = Client().get(url(inquiry, issue))

    assert response.status_code == 302
    assert "/login" in response["Location"] or "login" in response["Location"]


# --- The storefront API --------------------------------------------------------------------


def api_url(inquiry: Inquiry, issue: ReceiptIssue, customer_id: str) -> str:
    number = issue.receipt.number
    return f"/api/v1/inquiries/{inquiry.pk}/receipts/{number}?customer_id={customer_id}"


def submitting_storefront(inquiry: Inquiry) -> str:
    """The key of a storefront that submitted ``inquiry`` (the only one that may read it)."""
    key = storefront_key()
    Inquiry.objects.filter(pk=inquiry.pk).update(storefront_token=token_of(key))
    return key


def test_the_storefront_downloads_it_for_the_customer(receipt) -> None:
    _user, inquiry, issue = receipt
    key = submitting_storefront(inquiry)

    response = Client().get(api_url(inquiry, issue, inquiry.customer.code), headers=bearer(key))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "¥12,800-" in pdf_text(response.content)


def test_the_storefront_naming_another_customer_gets_not_found(receipt) -> None:
    _user, inquiry, issue = receipt
    other = CustomerFactory.create()

    key = submitting_storefront(inquiry)

    response = Client().get(api_url(inquiry, issue, other.code), headers=bearer(key))

    assert response.status_code == 404
