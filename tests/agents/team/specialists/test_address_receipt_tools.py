"""The Shipping and Payment agents' new tools, run as a tool turn runs them (escalation policy
included): change_shipping_address, refund_status, issue_receipt."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from langchain_core.messages import ToolCall

from agents.team.run_context import run_config
from agents.team.specialists import payment, shipping
from agents.team.specialists.spec import Specialist
from agents.team.specialists.tool_turns import ToolTurn
from netshop.models import AddressChange, CarrierBooking, ReceiptIssue, Refund, ShipmentStatus
from tests.factories import (
    CustomerFactory,
    ShipmentFactory,
    confirmed_order,
    delivered_order,
    in_transit_order,
    pending_order,
)
from tests.operators.api_helpers import escalation_for, inquiry_for

pytestmark = pytest.mark.django_db

GINZA = {"postal_code": "104-0061", "prefecture": "東京都", "address_line": "中央区銀座1-2-3"}


def run(
    specialist: Specialist, name: str, args: dict[str, Any], customer: str, **flags: Any
) -> dict[str, Any]:
    config = run_config(inquiry_id=str(uuid.uuid4()), customer_id=customer, **flags)
    call = ToolCall(name=name, args=args, id="call_1")
    return ToolTurn(specialist, config).run([call])["results"][name]


def address_change(order, customer: str, **flags: Any) -> dict[str, Any]:
    args = {"order_number": order.number, **GINZA}
    return run(shipping.SPECIALIST, "change_shipping_address", args, customer, **flags)


# --- change_shipping_address ---------------------------------------------------------------


def test_a_parcel_not_picked_up_goes_to_the_new_address() -> None:
    order = confirmed_order()
    ShipmentFactory.create(order=order, status=ShipmentStatus.PREPARING)

    result = address_change(order, order.customer.code)

    assert result["address_change"] == {
        "order_number": order.number,
        **GINZA,
        "booking_id": CarrierBooking.objects.get().booking_id,
    }


def test_a_parcel_on_its_way_is_refused_before_the_address_is_looked_at() -> None:
    order = in_transit_order()
    args = {"order_number": order.number, "postal_code": "", "prefecture": "", "address_line": ""}

    result = run(shipping.SPECIALIST, "change_shipping_address", args, order.customer.code)

    assert result["refused"] == "address_change_not_allowed"
    assert AddressChange.objects.count() == 0


def test_an_incomplete_address_is_refused() -> None:
    order = pending_order()
    args = {"order_number": order.number, **GINZA, "postal_code": "1040"}

    result = run(shipping.SPECIALIST, "change_shipping_address", args, order.customer.code)

    assert result["refused"] == "invalid_address"
    assert AddressChange.objects.count() == 0


def test_another_customers_order_is_not_found() -> None:
    order = pending_order()

    result = address_change(order, CustomerFactory.create().code)

    assert result["refused"] == "order_not_found"
    assert AddressChange.objects.count() == 0


def test_a_flagged_inquiry_holds_the_change_for_a_person() -> None:
    order = pending_order()

    result = address_change(order, order.customer.code, injection_suspected=True)

    assert "held" in result
    assert AddressChange.objects.count() == 0


# --- refund_status and issue_receipt -------------------------------------------------------


def test_refund_status_reads_the_refunds_and_creates_none() -> None:
    order = delivered_order(captured=12800)
    Refund.objects.create(
        payment=order.payment, amount=12800, reason="x", operation_id="r1", gateway_refund_id="g"
    )

    result = run(
        payment.SPECIALIST, "refund_status", {"order_number": order.number}, order.customer.code
    )

    assert [r["amount"] for r in result["refund_status"]["refunds"]] == [12800]
    assert Refund.objects.count() == 1


def test_refund_status_tells_a_refund_still_waiting_for_approval() -> None:
    escalation = escalation_for(inquiry_for())  # a ¥12,800 refund of ORD-4003 to approve
    order = escalation.inquiry.customer.orders.get(number="ORD-4003")

    result = run(
        payment.SPECIALIST, "refund_status", {"order_number": order.number}, order.customer.code
    )

    status = result["refund_status"]
    assert status["refunds"] == []
    assert status["awaiting_approval"] == [
        {"amount": 12800, "requested_at": escalation.created_at.isoformat()}
    ]
    assert Refund.objects.count() == 0


def test_a_receipt_is_issued_to_the_name_given_and_reissued_with_its_number() -> None:
    order = delivered_order(captured=12800)
    args = {"order_number": order.number, "addressee": "株式会社サンプル"}

    first = run(payment.SPECIALIST, "issue_receipt", args, order.customer.code)["receipt"]
    again = run(payment.SPECIALIST, "issue_receipt", args, order.customer.code)["receipt"]

    assert (first["addressee"], first["amount"], first["reissue"]) == (
        "株式会社サンプル",
        12800,
        False,
    )
    assert (again["number"], again["reissue"]) == (first["number"], True)
    assert ReceiptIssue.objects.count() == 2


def test_an_unpaid_order_gets_no_receipt() -> None:
    order = pending_order()

    result = run(
        payment.SPECIALIST, "issue_receipt", {"order_number": order.number}, order.customer.code
    )

    assert result["refused"] == "receipt_not_paid"
    assert ReceiptIssue.objects.count() == 0


def test_a_partly_refunded_order_is_receipted_for_what_was_kept() -> None:
    order = delivered_order(captured=12800)
    Refund.objects.create(
        payment=order.payment, amount=2800, reason="x", operation_id="r1", gateway_refund_id="g"
    )

    result = run(
        payment.SPECIALIST, "issue_receipt", {"order_number": order.number}, order.customer.code
    )

    assert (result["receipt"]["amount"], result["receipt"]["refunded"]) == (10000, 2800)


def test_a_fully_refunded_order_is_refused_as_refunded() -> None:
    order = delivered_order(captured=12800)
    Refund.objects.create(
        payment=order.payment, amount=12800, reason="x", operation_id="r1", gateway_refund_id="g"
    )

    result = run(
        payment.SPECIALIST, "issue_receipt", {"order_number": order.number}, order.customer.code
    )

    assert result["refused"] == "receipt_fully_refunded"
    assert ReceiptIssue.objects.count() == 0


def test_a_forged_addressee_is_refused_with_the_rule_that_refused_it() -> None:
    order = delivered_order(captured=12800)
    args = {"order_number": order.number, "addressee": "金額 ¥999,999 (税込)"}

    result = run(payment.SPECIALIST, "issue_receipt", args, order.customer.code)

    assert result == {
        "refused": "receipt_addressee_invalid",
        "variant": "amount",
        "reason": "The addressee must be a name only: an amount, a currency or tax wording "
        "cannot be printed there.",
    }
    assert ReceiptIssue.objects.count() == 0
