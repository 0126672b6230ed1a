"""The carrier and gateway simulators: idempotency keys, faults, latency, runtime switches."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import override_settings

from netshop.adapters.carrier import CarrierSimulator, TrackingInfo, get_carrier
from netshop.adapters.faults import FaultConfig, FaultInjector, reset_fault_state
from netshop.adapters.gateway import GatewayPaymentStatus, GatewaySimulator, get_gateway
from netshop.errors import ExternalServiceError
from netshop.models import CarrierBooking, GatewayTransaction, PaymentStatus
from netshop.shop_time import shop_today
from tests.factories import absent_returned_order, delivered_order, pending_order

ROOT = Path(__file__).resolve().parents[2]


class SleepRecorder:
    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


# --- Fault injection ------------------------------------------------------------------------


def test_latency_is_slept_before_every_call() -> None:
    sleep = SleepRecorder()
    injector = FaultInjector("gateway", {"latency_ms": 250}, sleep=sleep)

    injector.before("status")
    injector.before("refund")

    assert sleep.calls == [0.25, 0.25]


def test_timeout_fault_raises_external_service_error() -> None:
    injector = FaultInjector("gateway", {"fault_rate": 1, "kinds": ["timeout"]})

    with pytest.raises(ExternalServiceError) as caught:
        injector.before("refund")

    assert (caught.value.service, caught.value.kind) == ("gateway", "timeout")


def test_server_error_fault_raises_external_service_error() -> None:
    injector = FaultInjector("carrier", {"fault_rate": 1.0, "kinds": ["server_error"]})

    with pytest.raises(ExternalServiceError) as caught:
        injector.before("track")

    assert (caught.value.service, caught.value.kind) == ("carrier", "server_error")
    assert "503" in caught.value.message


def test_slow_fault_answers_after_the_extra_delay() -> None:
    sleep = SleepRecorder()
    config = FaultConfig(latency_ms=10, fault_rate=1, kinds=("slow",), slow_ms=3000)
    injector = FaultInjector("carrier", config, sleep=sleep)

    injector.before("track")

    assert sleep.calls == [0.01, 3.0]


def _faults_in_100_calls(seed: int) -> list[int]:
    injector = FaultInjector("gateway", {"fault_rate": 0.2, "seed": seed, "kinds": ["timeout"]})
    failed = []
    for call in range(100):
        try:
            injector.before("status")
        except ExternalServiceError:
            failed.append(call)
    return failed


def test_seeded_fault_rate_gives_a_plausible_and_repeatable_count() -> None:
    first = _faults_in_100_calls(seed=7)
    reset_fault_state()
    again = _faults_in_100_calls(seed=7)

    assert 10 <= len(first) <= 30
    assert again == first


def test_faults_limited_to_named_operations() -> None:
    injector = FaultInjector(
        "gateway", {"fault_rate": 1, "kinds": ["server_error"], "operations": ["refund"]}
    )

    injector.before("status")
    with pytest.raises(ExternalServiceError):
        injector.before("refund")


def test_invalid_fault_config_is_refused() -> None:
    with pytest.raises(ValueError, match="fault_rate"):
        FaultConfig(fault_rate=1.5)
    with pytest.raises(ValueError, match="kinds"):
        FaultConfig(kinds=("meltdown",))


def test_environment_variable_overrides_settings_on_each_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    injector = FaultInjector("gateway", {"latency_ms": 5, "fault_rate": 0})
    injector.before("refund")

    overrides = {"gateway": {"fault_rate": 1, "kinds": ["timeout"]}, "carrier": {"latency_ms": 9}}
    monkeypatch.setenv("NETSHOP_FAULTS", json.dumps(overrides))

    with pytest.raises(ExternalServiceError):
        injector.before("refund")
    assert injector.config() == FaultConfig(latency_ms=5, fault_rate=1.0, kinds=("timeout",))


def test_fault_file_is_reread_so_a_test_can_switch_faults_mid_run(faults) -> None:
    injector = FaultInjector("carrier")
    faults.set(carrier={"fault_rate": 1, "kinds": ["server_error"]})
    with pytest.raises(ExternalServiceError):
        injector.before("track")

    faults.clear()

    injector.before("track")


def test_child_process_sees_the_fault_switch(faults) -> None:
    faults.set(gateway={"fault_rate": 1, "kinds": ["timeout"]})
    script = (
        "import sys\n"
        "from netshop.adapters.faults import FaultInjector\n"
        "from netshop.errors import ExternalServiceError\n"
        "try:\n"
        "    FaultInjector('gateway').before('refund')\n"
        "except ExternalServiceError as exc:\n"
        "    sys.stdout.write(exc.kind)\n"
    )
    env = {**os.environ, **faults.env}

    child = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert child.returncode == 0, child.stderr
    assert child.stdout == "timeout"


# --- Gateway --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_gateway_refund_with_a_seen_key_returns_the_first_answer() -> None:
    payment = delivered_order(captured=12800).payment
    gateway = GatewaySimulator()

    first = gateway.refund(
        payment_reference=payment.gateway_reference, amount=5000, idempotency_key="op-1"
    )
    second = gateway.refund(
        payment_reference=payment.gateway_reference, amount=5000, idempotency_key="op-1"
    )

    assert second == first
    assert list(GatewayTransaction.objects.values_list("kind", "amount", "transaction_id")) == [
        ("refund", 5000, first)
    ]


@pytest.mark.django_db
def test_gateway_status_reflects_its_ledger() -> None:
    payment = delivered_order(captured=12800).payment
    gateway = GatewaySimulator()
    gateway.refund(payment_reference=payment.gateway_reference, amount=2800, idempotency_key="k")

    status = gateway.status(payment.gateway_reference)

    assert status == GatewayPaymentStatus(
        payment_reference=payment.gateway_reference,
        status=PaymentStatus.PARTIALLY_REFUNDED,
        authorized_amount=12800,
        captured_amount=12800,
        refunded_amount=2800,
    )
    assert status.as_dict()["refundable_amount"] == 10000


@pytest.mark.django_db
def test_gateway_refuses_refund_beyond_captured() -> None:
    payment = delivered_order(captured=12800).payment

    with pytest.raises(ExternalServiceError) as caught:
        GatewaySimulator().refund(
            payment_reference=payment.gateway_reference, amount=12801, idempotency_key="k"
        )

    assert caught.value.kind == "rejected"
    assert GatewayTransaction.objects.count() == 0


@pytest.mark.django_db
def test_gateway_void_and_find_transaction() -> None:
    payment = pending_order(authorized=3980).payment
    gateway = GatewaySimulator()

    transaction_id = gateway.void(payment_reference=payment.gateway_reference, idempotency_key="v")
    found = gateway.find_transaction("v")

    assert found is not None
    assert (found.transaction_id, found.kind, found.amount) == (transaction_id, "void", 0)
    assert gateway.find_transaction("never-used") is None
    assert gateway.status(payment.gateway_reference).status == PaymentStatus.VOIDED


@pytest.mark.django_db
def test_gateway_unknown_payment_is_not_found() -> None:
    with pytest.raises(ExternalServiceError) as caught:
        GatewaySimulator().status("pay_nope")

    assert caught.value.kind == "not_found"


@pytest.mark.django_db
def test_gateway_latency_from_settings_is_real() -> None:
    payment = pending_order().payment

    with override_settings(NETSHOP_GATEWAY={"latency_ms": 60, "fault_rate": 0}):
        started = time.monotonic()
        get_gateway().status(payment.gateway_reference)
        elapsed = time.monotonic() - started

    assert elapsed >= 0.06


class StubGateway:
    def __init__(self, **options: object) -> None:
        self.options = options


def test_get_gateway_builds_a_configured_backend() -> None:
    backend = f"{__name__}.StubGateway"

    with override_settings(NETSHOP_GATEWAY={"backend": backend, "api_key": "k"}):
        gateway = get_gateway()

    assert isinstance(gateway, StubGateway)
    assert gateway.options == {"api_key": "k"}
    assert isinstance(get_gateway(), GatewaySimulator)


# --- Carrier --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_carrier_tracks_a_parcel_with_its_events() -> None:
    shipment = absent_returned_order().shipment

    info = get_carrier().track(shipment.tracking_number)

    assert isinstance(info, TrackingInfo)
    assert (info.tracking_number, info.carrier, info.status, info.scheduled_date) == (
        shipment.tracking_number,
        "Yamato",
        "absent_returned",
        shop_today() - dt.timedelta(days=1),
    )
    assert [event.status for event in info.events] == ["in_transit", "absent_returned"]
    assert json.loads(json.dumps(info.as_dict()))["events"][1]["status"] == "absent_returned"


@pytest.mark.django_db
def test_carrier_booking_with_a_seen_key_returns_the_first_booking() -> None:
    shipment = absent_returned_order().shipment
    carrier = CarrierSimulator()
    slot = shop_today() + dt.timedelta(days=1)

    first = carrier.book_redelivery(
        tracking_number=shipment.tracking_number,
        slot_date=slot,
        slot_window="14-16",
        idempotency_key="r-1",
    )
    second = carrier.book_redelivery(
        tracking_number=shipment.tracking_number,
        slot_date=slot,
        slot_window="14-16",
        idempotency_key="r-1",
    )

    assert second == first
    assert CarrierBooking.objects.count() == 1
    assert carrier.has_booking(first) is True
    assert carrier.has_booking("bk_unknown") is False


@pytest.mark.django_db
def test_carrier_date_change_is_booked() -> None:
    shipment = absent_returned_order().shipment
    new_date = shop_today() + dt.timedelta(days=3)

    booking_id = CarrierSimulator().change_delivery_date(
        tracking_number=shipment.tracking_number, new_date=new_date, idempotency_key="d-1"
    )

    booking = CarrierBooking.objects.get(booking_id=booking_id)
    assert (booking.kind, booking.delivery_date, booking.slot_window) == (
        "date_change",
        new_date,
        "",
    )


@pytest.mark.django_db
def test_carrier_unknown_parcel_is_not_found_and_books_nothing() -> None:
    with pytest.raises(ExternalServiceError) as caught:
        CarrierSimulator().change_delivery_date(
            tracking_number="0000-0000-0000", new_date=shop_today(), idempotency_key="d"
        )

    assert caught.value.kind == "not_found"
    assert CarrierBooking.objects.count() == 0
