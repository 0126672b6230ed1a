"""coupon_issue: a value within the cap, one coupon per inquiry, once per operation id."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import override_settings
from django.utils import timezone

from netshop.errors import DomainError
from netshop.models import Coupon, Customer
from netshop.services.coupons import coupon_issue
from tests.factories import CustomerFactory

pytestmark = pytest.mark.django_db


def _issue(
    customer: Customer, value: int, inquiry_ref: str = "inq-1", operation_id: str = "op-1"
) -> Coupon:
    return coupon_issue(
        customer=customer,
        value=value,
        inquiry_ref=inquiry_ref,
        operation_id=operation_id,
        actor="agent:payment",
    )


def test_coupon_is_issued_for_ninety_days() -> None:
    customer = CustomerFactory.create()

    coupon = _issue(customer, 500)

    assert (coupon.customer, coupon.value, coupon.inquiry_ref, coupon.operation_id) == (
        customer,
        500,
        "inq-1",
        "op-1",
    )
    assert coupon.code.startswith("SORRY-")
    assert len(coupon.code) == 16
    remaining = coupon.expires_at - timezone.now()
    assert dt.timedelta(days=89) < remaining <= dt.timedelta(days=90)


def test_coupon_at_the_cap_is_issued() -> None:
    coupon = _issue(CustomerFactory.create(), 1000)

    assert coupon.value == 1000


def test_coupon_above_the_cap_is_refused() -> None:
    with pytest.raises(DomainError) as refused:
        _issue(CustomerFactory.create(), 1001)

    assert refused.value.code == "coupon_over_cap"
    assert refused.value.message == "coupon of ¥1,001 against a cap of ¥1,000"
    assert Coupon.objects.count() == 0


@override_settings(NETSHOP_COUPON_CAP_YEN=300)
def test_cap_comes_from_settings() -> None:
    with pytest.raises(DomainError) as refused:
        _issue(CustomerFactory.create(), 301)

    assert refused.value.code == "coupon_over_cap"
    assert Coupon.objects.count() == 0


@pytest.mark.parametrize("value", [0, -100])
def test_coupon_worth_nothing_is_refused(value: int) -> None:
    with pytest.raises(DomainError) as refused:
        _issue(CustomerFactory.create(), value)

    assert refused.value.code == "coupon_invalid_value"
    assert Coupon.objects.count() == 0


def test_second_coupon_for_the_same_inquiry_is_refused() -> None:
    customer = CustomerFactory.create()
    first = _issue(customer, 500, operation_id="op-1")

    with pytest.raises(DomainError) as refused:
        _issue(customer, 300, operation_id="op-2")

    assert refused.value.code == "coupon_already_issued"
    assert list(Coupon.objects.values_list("pk", flat=True)) == [first.pk]


def test_coupon_needs_an_inquiry() -> None:
    with pytest.raises(DomainError) as refused:
        _issue(CustomerFactory.create(), 500, inquiry_ref=" ")

    assert refused.value.code == "inquiry_required"
    assert Coupon.objects.count() == 0


def test_same_operation_id_twice_issues_one_coupon() -> None:
    customer = CustomerFactory.create()

    first = _issue(customer, 500)
    second = _issue(customer, 500)

    assert (second.pk, second.code) == (first.pk, first.code)
    assert Coupon.objects.count() == 1
