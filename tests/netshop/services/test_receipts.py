"""receipt_issue and receipt_pdf: one receipt number per paid order, a PDF that says it all."""

from __future__ import annotations

from functools import partial
from io import BytesIO

import pytest
from pypdf import PdfReader

from agents.support.catalogue import say
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.models import PaymentStatus, Receipt, ReceiptIssue, Refund
from netshop.services.receipt_document import receipt_pdf
from netshop.services.receipts import receipt_issue, receipt_issue_get
from tests.factories import CustomerFactory, delivered_order, pending_order

pytestmark = pytest.mark.django_db


def _issue(order, addressee="", operation_id="inq-1:issue_receipt:a", inquiry_ref="inq-1"):
    return receipt_issue(
        order=order,
        addressee=addressee,
        operation_id=operation_id,
        actor="agent:payment",
        inquiry_ref=inquiry_ref,
    )


def pdf_text(data: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)


def test_a_paid_order_gets_a_receipt_to_the_name_asked_for() -> None:
    order = delivered_order(captured=12800)

    issue = _issue(order, addressee="株式会社 サンプル")

    assert (issue.addressee, issue.amount, issue.reissue) == ("株式会社 サンプル", 12800, False)
    assert issue.receipt.order == order
    assert AuditEntry.objects.filter(action="side_effect.receipt").count() == 1


def test_without_a_name_it_is_addressed_to_the_customer() -> None:
    order = delivered_order(customer=CustomerFactory.create(name="山田 花子"))

    assert _issue(order).addressee == "山田 花子"


def test_a_second_issue_keeps_the_receipt_number_and_is_a_reissue() -> None:
    order = delivered_order()
    first = _issue(order)

    second = _issue(order, addressee="Sample K.K.", operation_id="inq-2:issue_receipt:b")

    assert second.receipt.number == first.receipt.number
    assert (first.reissue, second.reissue) == (False, True)
    assert Receipt.objects.count() == 1


def test_the_same_operation_twice_issues_once() -> None:
    order = delivered_order()

    assert _issue(order).pk == _issue(order).pk
    assert ReceiptIssue.objects.count() == 1


def test_an_unpaid_order_gets_no_receipt() -> None:
    order = pending_order()

    with pytest.raises(DomainError) as refused:
        _issue(order)

    assert refused.value.code == "receipt_not_paid"
    assert (Receipt.objects.count(), ReceiptIssue.objects.count()) == (0, 0)


def test_the_amount_is_what_was_paid_less_refunds() -> None:
    order = delivered_order(captured=12800)
    Refund.objects.create(
        payment=order.payment, amount=2800, reason="x", operation_id="r1", gateway_refund_id="g"
    )
    order.payment.status = PaymentStatus.PARTIALLY_REFUNDED
    order.payment.save()

    assert _issue(order).amount == 10000


def test_the_pdf_shows_addressee_amount_purpose_numbers_and_the_shop(settings) -> None:
    settings.NETSHOP_SHOP_NAME = "NetShop株式会社"
    order = delivered_order(captured=12800)
    _issue(order)
    issue = _issue(order, addressee="株式会社サンプル", operation_id="inq-1:issue_receipt:b")

    data = receipt_pdf(issue, say=partial(say, "ja"))

    assert data.startswith(b"%PDF-")
    text = pdf_text(data)
    for expected in (
        "領収書",
        "株式会社サンプル 様",
        "¥12,800-",
        "品代として",
        order.number,
        issue.receipt.number,
        "NetShop株式会社",
        "再発行",
    ):
        assert expected in text


def test_an_issue_is_found_only_in_the_conversation_it_was_made_in() -> None:
    order = delivered_order()
    issue = _issue(order, inquiry_ref="inq-1")

    assert receipt_issue_get(inquiry_ref="inq-1", number=issue.receipt.number) == issue
    with pytest.raises(DomainError) as missing:
        receipt_issue_get(inquiry_ref="inq-2", number=issue.receipt.number)
    assert missing.value.code == "receipt_not_found"
