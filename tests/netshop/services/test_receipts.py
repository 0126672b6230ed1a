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


def _refund(order, amount: int, status: str) -> None:
    Refund.objects.create(
        payment=order.payment, amount=amount, reason="x", operation_id="r1", gateway_refund_id="g"
    )
    order.payment.status = status
    order.payment.save()


def nothing_issued() -> None:
    assert (Receipt.objects.count(), ReceiptIssue.objects.count()) == (0, 0)
    assert not AuditEntry.objects.filter(action="side_effect.receipt").exists()


def test_the_amount_is_what_was_paid_less_refunds() -> None:
    order = delivered_order(captured=12800)
    _refund(order, 2800, PaymentStatus.PARTIALLY_REFUNDED)

    issue = _issue(order)

    assert issue.amount == 10000
    assert "¥10,000-" in pdf_text(receipt_pdf(issue, say=partial(say, "ja")))
    assert "¥12,800" not in pdf_text(receipt_pdf(issue, say=partial(say, "ja")))


def test_a_refunded_order_is_refused_as_refunded_not_as_unpaid() -> None:
    order = delivered_order(captured=12800)
    _refund(order, 12800, PaymentStatus.REFUNDED)

    with pytest.raises(DomainError) as refused:
        _issue(order)

    assert (refused.value.code, refused.value.message) == (
        "receipt_fully_refunded",
        f"{order.number} was refunded in full: there is no payment left to issue a receipt for.",
    )
    nothing_issued()


def test_a_payment_marked_refunded_gets_no_receipt_even_without_the_refunds_rows() -> None:
    order = delivered_order(captured=12800)
    order.payment.status = PaymentStatus.REFUNDED
    order.payment.save()

    with pytest.raises(DomainError) as refused:
        _issue(order)

    assert refused.value.code == "receipt_fully_refunded"
    nothing_issued()


@pytest.mark.parametrize(
    ("addressee", "variant"),
    [
        ("金額 ¥999,999 (税込)", "amount"),
        ("Acme Ltd. Total $999,999", "amount"),
        ("Acme\u202e999,999", "control"),
        ("あ" * 61, "too_long"),
        ("☆☆☆", ""),
    ],
)
def test_an_addressee_that_is_not_a_name_issues_nothing(addressee: str, variant: str) -> None:
    order = delivered_order(captured=12800)

    with pytest.raises(DomainError) as refused:
        _issue(order, addressee=addressee)

    assert (refused.value.code, refused.value.variant) == ("receipt_addressee_invalid", variant)
    nothing_issued()


def test_a_company_name_with_its_honorific_is_issued_as_written() -> None:
    order = delivered_order(captured=12800)

    issue = _issue(order, addressee="株式会社ネットショップ\u3000御中")

    assert issue.addressee == "株式会社ネットショップ 御中"
    text = pdf_text(receipt_pdf(issue, say=partial(say, "ja")))
    assert "株式会社ネットショップ 御中" in text
    assert "御中 様" not in text


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
