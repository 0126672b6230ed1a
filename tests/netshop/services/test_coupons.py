"""coupon_issue: a cause on record, a value within the cap, one coupon per inquiry, at most the
per-customer limit over the window, once per operation id."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from netshop.audit import AuditAction
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.models import Coupon, Customer, Order
from netshop.services.coupons import coupon_codes_withheld, coupon_issue, is_one_per_inquiry_clash
from tests.factories import (
    CustomerFactory,
    absent_returned_order,
    delivered_order,
    in_transit_order,
)

pytestmark = pytest.mark.django_db


def _issue(
    customer: Customer,
    value: int = 500,
    inquiry_ref: str = "inq-1",
    operation_id: str = "op-1",
    order_number: str | None = None,
) -> Coupon:
    return coupon_issue(
        customer=customer,
        value=value,
        inquiry_ref=inquiry_ref,
        operation_id=operation_id,
        actor="agent:payment",
        order_number=order_number,
    )


def _refused(customer: Customer, **kwargs: object) -> DomainError:
    with pytest.raises(DomainError) as refused:
        _issue(customer, **kwargs)  # type: ignore[arg-type]
    return refused.value


def troubled_customer() -> Customer:
    """A customer whose parcel the driver returned to the depot the day before: a cause."""
    return absent_returned_order().customer


def _coupon_audit() -> list[dict[str, object]]:
    entries = AuditEntry.objects.filter(action=AuditAction.SIDE_EFFECT_COUPON)
    return list(entries.values_list("data", flat=True))


# --- Issued -----------------------------------------------------------------------------------


def test_coupon_is_issued_for_ninety_days() -> None:
    customer = troubled_customer()

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


def test_the_cause_is_audited_with_the_coupon_and_the_code_is_not() -> None:
    order = absent_returned_order()

    coupon = _issue(order.customer, 500)

    assert _coupon_audit() == [
        {
            "customer": order.customer.code,
            "amount": 500,
            "coupon_id": coupon.pk,
            "cause": "delivery_missed",
            "order": order.number,
        }
    ]
    assert coupon.code not in str(AuditEntry.objects.values_list("data", flat=True)[0])


def test_a_late_delivery_is_a_cause() -> None:
    order = in_transit_order(scheduled_in_days=-2)

    _issue(order.customer)

    assert _coupon_audit()[0]["cause"] == "delivery_late"


def test_coupon_at_the_cap_is_issued() -> None:
    coupon = _issue(troubled_customer(), 1000)

    assert coupon.value == 1000


def test_same_operation_id_twice_issues_one_coupon() -> None:
    customer = troubled_customer()

    first = _issue(customer, 500)
    second = _issue(customer, 500)

    assert (second.pk, second.code) == (first.pk, first.code)
    assert Coupon.objects.count() == 1
    assert len(_coupon_audit()) == 1


# --- Refused: no cause on record ---------------------------------------------------------


def test_asking_without_any_trouble_on_record_is_refused() -> None:
    customer = delivered_order().customer  # delivered yesterday, on its date

    refused = _refused(customer)

    assert refused.code == "coupon_no_cause"
    assert Coupon.objects.count() == 0
    assert _coupon_audit() == []


def test_the_named_order_is_where_the_cause_is_looked_for() -> None:
    troubled = absent_returned_order()
    fine = delivered_order(customer=troubled.customer)

    refused = _refused(troubled.customer, order_number=fine.number)

    assert refused.code == "coupon_no_cause"
    assert Coupon.objects.count() == 0


def test_another_customers_trouble_is_no_cause() -> None:
    absent_returned_order()
    stranger = CustomerFactory.create()

    assert _refused(stranger).code == "coupon_no_cause"
    assert Coupon.objects.count() == 0


@override_settings(NETSHOP_COUPON_LIMIT_PER_CUSTOMER=5)
def test_one_trouble_earns_one_coupon() -> None:
    customer = troubled_customer()
    first = _issue(customer, operation_id="op-1", inquiry_ref="inq-1")

    refused = _refused(customer, operation_id="op-2", inquiry_ref="inq-2")

    assert refused.code == "coupon_cause_compensated"
    assert list(Coupon.objects.values_list("pk", flat=True)) == [first.pk]


@override_settings(NETSHOP_COUPON_LIMIT_PER_CUSTOMER=5)
def test_an_expired_coupon_is_not_reissued() -> None:
    customer = troubled_customer()
    first = _issue(customer, operation_id="op-1", inquiry_ref="inq-1")
    Coupon.objects.filter(pk=first.pk).update(expires_at=timezone.now() - dt.timedelta(days=1))

    refused = _refused(customer, operation_id="op-2", inquiry_ref="inq-2")

    assert refused.code == "coupon_expired_not_reissued"
    assert list(Coupon.objects.values_list("pk", flat=True)) == [first.pk]


def test_asking_to_reissue_an_expired_coupon_without_new_trouble_is_refused() -> None:
    customer = delivered_order().customer
    expired = timezone.now() - dt.timedelta(days=10)
    Coupon.objects.create(
        code="SORRY-OLD0001",
        customer=customer,
        value=500,
        operation_id="seed-old",
        expires_at=expired,
        created_at=expired - dt.timedelta(days=90),
    )

    refused = _refused(customer)

    assert refused.code == "coupon_expired_not_reissued"
    assert Coupon.objects.count() == 1


# --- Refused: the per-customer limit ------------------------------------------------------


def test_a_second_coupon_within_the_window_is_refused() -> None:
    order = absent_returned_order()
    in_transit_order(customer=order.customer, scheduled_in_days=-1)  # a second cause
    first = _issue(order.customer, operation_id="op-1", inquiry_ref="inq-1")

    refused = _refused(order.customer, operation_id="op-2", inquiry_ref="inq-2")

    assert (refused.code, refused.message) == (
        "coupon_limit_reached",
        f"{order.customer.code} has 1 coupon(s) in the last 30 days; the limit is 1",
    )
    assert list(Coupon.objects.values_list("pk", flat=True)) == [first.pk]


def test_a_coupon_older_than_the_window_does_not_count() -> None:
    order = absent_returned_order()
    old = in_transit_order(customer=order.customer)
    Coupon.objects.create(
        code="SORRY-OLD0002",
        customer=order.customer,
        value=500,
        operation_id="old",
        expires_at=timezone.now() + dt.timedelta(days=59),
        created_at=timezone.now() - dt.timedelta(days=31),
    )

    coupon = _issue(order.customer)

    assert coupon.customer == order.customer
    assert _coupon_audit()[0]["order"] == order.number != old.number


@override_settings(NETSHOP_COUPON_LIMIT_PER_CUSTOMER=2, NETSHOP_COUPON_WINDOW_DAYS=7)
def test_limit_and_window_come_from_settings() -> None:
    order = absent_returned_order()
    for days_late in (1, 2):
        in_transit_order(customer=order.customer, scheduled_in_days=-days_late)
    _issue(order.customer, operation_id="op-1", inquiry_ref="inq-1")
    _issue(order.customer, operation_id="op-2", inquiry_ref="inq-2")

    refused = _refused(order.customer, operation_id="op-3", inquiry_ref="inq-3")

    assert refused.code == "coupon_limit_reached"
    assert "in the last 7 days; the limit is 2" in refused.message
    assert Coupon.objects.count() == 2


def test_the_customer_row_is_locked_for_no_key_update() -> None:
    """FOR NO KEY UPDATE serialises issues without blocking inserts that reference the
    customer (their foreign-key check takes FOR KEY SHARE)."""
    customer = troubled_customer()

    with CaptureQueriesContext(connection) as queries:
        _issue(customer)

    locks = [q["sql"] for q in queries.captured_queries if " FOR " in q["sql"]]
    assert len(locks) == 1
    assert locks[0].endswith("FOR NO KEY UPDATE")
    assert '"netshop_customer"' in locks[0]


# --- Refused: value and inquiry -----------------------------------------------------------


def test_coupon_above_the_cap_is_refused() -> None:
    refused = _refused(troubled_customer(), value=1001)

    assert refused.code == "coupon_over_cap"
    assert refused.message == "coupon of ¥1,001 against a cap of ¥1,000"
    assert Coupon.objects.count() == 0


@override_settings(NETSHOP_COUPON_CAP_YEN=300)
def test_cap_comes_from_settings() -> None:
    refused = _refused(troubled_customer(), value=301)

    assert refused.code == "coupon_over_cap"
    assert Coupon.objects.count() == 0


@pytest.mark.parametrize("value", [0, -100])
def test_coupon_worth_nothing_is_refused(value: int) -> None:
    refused = _refused(troubled_customer(), value=value)

    assert refused.code == "coupon_invalid_value"
    assert Coupon.objects.count() == 0


@override_settings(NETSHOP_COUPON_LIMIT_PER_CUSTOMER=5)
def test_second_coupon_for_the_same_inquiry_is_refused() -> None:
    order = absent_returned_order()
    in_transit_order(customer=order.customer, scheduled_in_days=-1)
    first = _issue(order.customer, 500, operation_id="op-1")

    refused = _refused(order.customer, value=300, operation_id="op-2")

    assert refused.code == "coupon_already_issued"
    assert list(Coupon.objects.values_list("pk", flat=True)) == [first.pk]


def test_coupon_needs_an_inquiry() -> None:
    refused = _refused(troubled_customer(), inquiry_ref=" ")

    assert refused.code == "inquiry_required"
    assert Coupon.objects.count() == 0


# --- Codes withheld from what staff see ---------------------------------------------------


def test_every_coupon_code_is_withheld_from_a_text() -> None:
    text = "コード: SORRY-ABCDEFGH23 / seeded SORRY-C0004, and SORRY- alone."

    assert coupon_codes_withheld(text) == (
        "コード: SORRY-•••• / seeded SORRY-••••, and SORRY- alone."
    )


@pytest.mark.parametrize(
    "spelled",
    ["sorry-abcdefgh23", "Sorry-AbCdEfGh23", "SORRY\u2011ABCDEFGH23", "SORRY\uff0dABCDEFGH23"],
    ids=["lower case", "mixed case", "non-breaking hyphen", "full-width hyphen"],
)
def test_a_code_is_withheld_however_a_model_spells_it(spelled: str) -> None:
    assert coupon_codes_withheld(f"Your code: {spelled}.") == "Your code: SORRY-••••."


def test_an_apology_is_not_mistaken_for_a_code() -> None:
    text = "Sorry again for the delay. We are sorry - truly."

    assert coupon_codes_withheld(text) == text


# --- Real concurrency ---------------------------------------------------------------------


def _issue_concurrently(customer: Customer, count: int) -> list[str]:
    """``count`` threads, each its own connection and inquiry, released at once."""
    barrier = threading.Barrier(count)
    outcomes: list[str] = []
    guard = threading.Lock()

    def issue(n: int) -> None:
        try:
            barrier.wait()
            _issue(customer, inquiry_ref=f"inq-{n}", operation_id=f"op-{n}")
            outcome = "issued"
        except DomainError as refused:
            outcome = refused.code
        except Exception as exc:  # a deadlock or a lost write shows up here, by name
            outcome = type(exc).__name__
        finally:
            connection.close()
        with guard:
            outcomes.append(outcome)

    threads = [threading.Thread(target=issue, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("limit", [1, 3])
def test_twenty_concurrent_issues_for_one_customer_yield_exactly_the_limit(
    limit: int, settings: object
) -> None:
    settings.NETSHOP_COUPON_LIMIT_PER_CUSTOMER = limit  # type: ignore[attr-defined]
    order = absent_returned_order()
    for days_late in range(1, 6):  # five causes on record: the limit, not the causes, binds
        in_transit_order(customer=order.customer, scheduled_in_days=-days_late)

    outcomes = _issue_concurrently(order.customer, 20)

    assert sorted(outcomes) == ["coupon_limit_reached"] * (20 - limit) + ["issued"] * limit
    assert Coupon.objects.filter(customer=order.customer).count() == limit
    audited = _coupon_audit()
    assert len(audited) == limit
    assert len({entry["order"] for entry in audited}) == limit  # one coupon per trouble
    assert Order.objects.filter(customer=order.customer).count() == 6


@pytest.mark.parametrize(
    ("clash", "names_the_inquiry"),
    [({"inquiry_ref": "inq-1"}, True), ({"code": "SORRY-SAMECODE00"}, False)],
)
def test_only_the_one_per_inquiry_constraint_reads_as_already_issued(
    clash: dict[str, str], names_the_inquiry: bool
) -> None:
    # Given a coupon, when another row repeats one of its unique values
    customer = troubled_customer()
    first = {"code": "SORRY-SAMECODE00", "inquiry_ref": "inq-1", "operation_id": "op-a"}
    Coupon.objects.create(customer=customer, value=500, expires_at=timezone.now(), **first)
    second = {"code": "SORRY-OTHERCODE0", "inquiry_ref": "inq-2", "operation_id": "op-b"} | clash

    with pytest.raises(IntegrityError) as raised, transaction.atomic():
        Coupon.objects.create(customer=customer, value=500, expires_at=timezone.now(), **second)

    # Then only the inquiry's constraint means "already has a coupon"; others stay failures
    assert is_one_per_inquiry_clash(raised.value) is names_the_inquiry


# --- A reissue of an expired coupon ------------------------------------------------------------


def test_a_coupon_asked_for_in_place_of_an_expired_one_is_refused_even_with_a_cause() -> None:
    customer = troubled_customer()  # a parcel back at the depot: a cause that would earn one

    with pytest.raises(DomainError) as refused:
        coupon_issue(
            customer=customer,
            value=500,
            inquiry_ref="inq-reissue",
            operation_id="op-reissue",
            actor="agent:payment",
            replaces_expired=True,
        )

    assert refused.value.code == "coupon_expired_not_reissued"
    assert not Coupon.objects.filter(customer=customer).exists()
    assert _coupon_audit() == []
