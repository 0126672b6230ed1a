"""refund_create: only captured money, never more than captured, once per operation id."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from netshop.errors import DomainError, ExternalServiceError
from netshop.models import GatewayTransaction, Order, PaymentStatus, Refund
from netshop.services.policy_checks import refund_checks
from netshop.services.refunds import refund_create, refund_proposal
from tests.factories import delivered_order, pending_order

pytestmark = pytest.mark.django_db


def _refund(order: Order, amount: int, operation_id: str = "op-1", reason: str = "破損") -> Refund:
    return refund_create(
        order=order, amount=amount, reason=reason, operation_id=operation_id, actor="sato"
    )


def _ledger(order: Order) -> tuple[str, list[int], list[int]]:
    """The payment status, the shop's refunds and the gateway's refunds, as amounts."""
    order.payment.refresh_from_db()
    return (
        order.payment.status,
        list(Refund.objects.filter(payment=order.payment).values_list("amount", flat=True)),
        list(GatewayTransaction.objects.values_list("amount", flat=True)),
    )


def test_full_refund_is_recorded_in_the_shop_and_at_the_gateway() -> None:
    order = delivered_order(captured=12800)

    refund = _refund(order, 12800)

    assert (refund.amount, refund.reason, refund.actor, refund.operation_id) == (
        12800,
        "破損",
        "sato",
        "op-1",
    )
    gateway_row = GatewayTransaction.objects.get()
    assert (gateway_row.idempotency_key, gateway_row.transaction_id) == (
        "op-1",
        refund.gateway_refund_id,
    )
    assert _ledger(order) == (PaymentStatus.REFUNDED, [12800], [12800])


def test_partial_refunds_add_up_to_captured_then_one_more_yen_is_refused() -> None:
    order = delivered_order(captured=12800)
    _refund(order, 5000, "op-1")
    assert _ledger(order)[0] == PaymentStatus.PARTIALLY_REFUNDED
    _refund(order, 7800, "op-2")

    with pytest.raises(DomainError) as refused:
        _refund(order, 1, "op-3")

    assert refused.value.code == "refund_exceeds_captured"
    assert "refundable ¥0" in refused.value.message
    assert _ledger(order) == (PaymentStatus.REFUNDED, [5000, 7800], [5000, 7800])


def test_refund_above_captured_is_refused_naming_the_refundable_amount() -> None:
    order = delivered_order(captured=12800)

    with pytest.raises(DomainError) as refused:
        _refund(order, 12801)

    assert refused.value.code == "refund_exceeds_captured"
    assert refused.value.message == (
        "refund of ¥12,801 against a refundable ¥12,800 (captured ¥12,800, already refunded ¥0)"
    )
    assert _ledger(order) == (PaymentStatus.CAPTURED, [], [])


def test_refund_on_an_authorized_only_payment_is_refused() -> None:
    order = pending_order(authorized=3980)

    with pytest.raises(DomainError) as refused:
        _refund(order, 3980)

    assert refused.value.code == "payment_not_captured"
    assert "authorized" in refused.value.message
    assert _ledger(order) == (PaymentStatus.AUTHORIZED, [], [])


@pytest.mark.parametrize("reason", ["", "   "])
def test_refund_without_a_reason_is_refused(reason: str) -> None:
    order = delivered_order(captured=12800)

    with pytest.raises(DomainError) as refused:
        _refund(order, 1000, reason=reason)

    assert refused.value.code == "reason_required"
    assert _ledger(order) == (PaymentStatus.CAPTURED, [], [])


@pytest.mark.parametrize("amount", [0, -500])
def test_refund_of_nothing_is_refused(amount: int) -> None:
    order = delivered_order(captured=12800)

    with pytest.raises(DomainError) as refused:
        _refund(order, amount)

    assert refused.value.code == "invalid_amount"
    assert _ledger(order) == (PaymentStatus.CAPTURED, [], [])


def test_same_operation_id_twice_makes_one_refund_and_one_gateway_transaction() -> None:
    order = delivered_order(captured=12800)

    first = _refund(order, 12800)
    second = _refund(order, 12800)

    assert second.pk == first.pk
    assert Refund.objects.count() == 1
    assert GatewayTransaction.objects.count() == 1


def test_operation_id_reused_for_another_amount_is_refused() -> None:
    order = delivered_order(captured=12800)
    _refund(order, 5000)

    with pytest.raises(DomainError) as refused:
        _refund(order, 6000)

    assert refused.value.code == "operation_id_conflict"
    assert _ledger(order) == (PaymentStatus.PARTIALLY_REFUNDED, [5000], [5000])


def test_blank_operation_id_is_refused() -> None:
    order = delivered_order(captured=12800)

    with pytest.raises(DomainError) as refused:
        _refund(order, 5000, operation_id=" ")

    assert refused.value.code == "operation_id_required"
    assert Refund.objects.count() == 0


@pytest.mark.parametrize("kind", ["timeout", "server_error"])
def test_failed_gateway_refund_leaves_no_refund(faults, kind: str) -> None:
    order = delivered_order(captured=12800)
    faults.set(gateway={"fault_rate": 1, "kinds": [kind]})

    with pytest.raises(ExternalServiceError) as failed:
        _refund(order, 12800)

    assert (failed.value.service, failed.value.kind) == ("gateway", kind)
    assert _ledger(order) == (PaymentStatus.CAPTURED, [], [])


def test_retry_after_a_gateway_failure_refunds_once(faults) -> None:
    order = delivered_order(captured=12800)
    faults.set(gateway={"fault_rate": 1, "kinds": ["timeout"]})
    with pytest.raises(ExternalServiceError):
        _refund(order, 12800)
    faults.clear()

    _refund(order, 12800)
    _refund(order, 12800)

    assert _ledger(order) == (PaymentStatus.REFUNDED, [12800], [12800])


def test_refund_checks_report_every_rule() -> None:
    order = delivered_order(captured=12800)
    _refund(order, 800)

    checks = refund_checks(order=order, amount=12001, reason="")

    assert [(c.name, c.passed, c.code) for c in checks] == [
        ("payment_captured", True, "payment_not_captured"),
        ("amount_positive", True, "invalid_amount"),
        ("within_refundable", False, "refund_exceeds_captured"),
        ("reason_given", False, "reason_required"),
    ]
    assert checks[2].detail == (
        "refund of ¥12,001 against a refundable ¥12,000 (captured ¥12,800, already refunded ¥800)"
    )


# --- Concurrency ------------------------------------------------------------------------------


def _at_once(*calls: Callable[[], Refund]) -> list[Refund | Exception]:
    """Run the calls in threads released together; each thread uses its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Refund | Exception] = [RuntimeError("did not run")] * len(calls)

    def run(index: int, call: Callable[[], Refund]) -> None:
        barrier.wait()
        try:
            results[index] = call()
        except Exception as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_threads_with_one_operation_id_make_one_refund(faults) -> None:
    order = delivered_order(captured=12800)
    faults.set(gateway={"latency_ms": 100})  # widens the window in which the two overlap

    results = _at_once(lambda: _refund(order, 12800), lambda: _refund(order, 12800))

    assert all(isinstance(result, Refund) for result in results), results
    assert {result.pk for result in results if isinstance(result, Refund)} == {
        Refund.objects.get().pk
    }
    assert GatewayTransaction.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_threads_refunding_more_than_captured_together_cannot_both_succeed(faults) -> None:
    order = delivered_order(captured=12800)
    faults.set(gateway={"latency_ms": 100})

    results = _at_once(lambda: _refund(order, 8000, "op-a"), lambda: _refund(order, 8000, "op-b"))

    refused = [r for r in results if isinstance(r, DomainError)]
    assert [r.code for r in refused] == ["refund_exceeds_captured"]
    assert _ledger(order) == (PaymentStatus.PARTIALLY_REFUNDED, [8000], [8000])


# --- refund_proposal: the one place a refund's amount is proposed and checked ---------------


@pytest.mark.parametrize(
    ("asked", "proposed", "capped"),
    [(None, 7800, False), (3000, 3000, False), (7800, 7800, False), (99999, 7800, True)],
)
def test_a_proposal_is_capped_at_what_is_refundable_now(
    asked: int | None, proposed: int, capped: bool
) -> None:
    order = delivered_order(captured=12800)
    _refund(order, 5000, "op-earlier")

    proposal = refund_proposal(order=order, amount=asked, reason="破損")

    assert (proposal.amount, proposal.refundable, proposal.capped) == (proposed, 7800, capped)
    assert [c.name for c in proposal.checks if c.passed] == [
        "payment_captured",
        "amount_positive",
        "within_refundable",
        "reason_given",
    ]
    assert _ledger(order)[1] == [5000]  # proposing refunds nothing


def test_an_exact_amount_above_the_refundable_is_refused_naming_what_is_left() -> None:
    order = delivered_order(captured=12800)
    _refund(order, 5000, "op-earlier")

    with pytest.raises(DomainError) as refused:
        refund_proposal(order=order, amount=7801, reason="破損", cap=False)

    assert (refused.value.code, refused.value.message) == (
        "refund_exceeds_captured",
        "At most ¥7,800 can be refunded.",
    )
    assert _ledger(order)[1] == [5000]


def test_a_proposal_runs_the_checks_the_refund_itself_runs() -> None:
    order = pending_order(authorized=3980)

    with pytest.raises(DomainError) as refused:
        refund_proposal(order=order, reason="破損")

    assert refused.value.code == "payment_not_captured"
    assert refused.value.message == (
        f"payment on {order.number} is authorized; only captured payments can be refunded"
    )
