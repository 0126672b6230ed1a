"""The payment gateway: an interface a real provider can implement, and the built-in simulator.

The simulator keeps its ledger in ``GatewayTransaction`` rows, one per idempotency key: asking
again with a key it has seen returns the first answer and moves no money, as real gateways
do. It reads the shop's ``Payment`` row for what was authorized and captured, and refuses
what a real gateway would refuse (refunding more than was captured, voiding a capture).

Its ledger lives in the shop's database, so a caller's rollback also erases the simulated
transaction; a real gateway's would stay. Callers pass their operation id as the
idempotency key, which keeps the real case safe: a retry finds the gateway's first answer.
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any, Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum

from netshop.adapters.faults import FaultInjector, configured_adapter
from netshop.errors import ExternalServiceError
from netshop.models import GatewayTransaction, Payment, PaymentStatus

SERVICE = "gateway"


@dataclasses.dataclass(frozen=True)
class GatewayPaymentStatus:
    """What the gateway knows about one payment, in yen."""

    payment_reference: str
    status: str
    authorized_amount: int
    captured_amount: int
    refunded_amount: int

    @property
    def refundable_amount(self) -> int:
        return self.captured_amount - self.refunded_amount

    def as_dict(self) -> dict[str, Any]:
        """A JSON-safe form, for agent tools and API answers."""
        return {**dataclasses.asdict(self), "refundable_amount": self.refundable_amount}


@dataclasses.dataclass(frozen=True)
class GatewayTransactionRecord:
    """One refund or void as the gateway recorded it."""

    transaction_id: str
    kind: str
    payment_reference: str
    amount: int
    idempotency_key: str

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class PaymentGateway(Protocol):
    """Status, refund and void: what support needs from a payment provider."""

    def status(self, payment_reference: str) -> GatewayPaymentStatus: ...

    def refund(self, *, payment_reference: str, amount: int, idempotency_key: str) -> str: ...

    def void(self, *, payment_reference: str, idempotency_key: str) -> str: ...

    def find_transaction(self, idempotency_key: str) -> GatewayTransactionRecord | None: ...

    def adjust_authorization(
        self, *, payment_reference: str, amount: int, idempotency_key: str
    ) -> str: ...


class GatewaySimulator:
    """A database-backed gateway with latency, faults and idempotency keys."""

    def __init__(self, faults: FaultInjector | None = None) -> None:
        self._faults = faults or FaultInjector(SERVICE)

    def status(self, payment_reference: str) -> GatewayPaymentStatus:
        """The payment as the gateway's own ledger sees it (refunds and voids included)."""
        self._faults.before("status")
        payment = _payment(payment_reference)
        refunded = _refunded(payment_reference)
        return GatewayPaymentStatus(
            payment_reference=payment_reference,
            status=_ledger_status(payment, refunded),
            authorized_amount=payment.authorized_amount,
            captured_amount=payment.captured_amount,
            refunded_amount=refunded,
        )

    def refund(self, *, payment_reference: str, amount: int, idempotency_key: str) -> str:
        """Refund ``amount`` yen of a captured payment; a seen key returns its first answer."""
        self._faults.before("refund")
        return self._record(
            kind=GatewayTransaction.Kind.REFUND,
            payment_reference=payment_reference,
            amount=amount,
            idempotency_key=idempotency_key,
        )

    def void(self, *, payment_reference: str, idempotency_key: str) -> str:
        """Release an authorization that was never captured; a seen key returns its first answer."""
        self._faults.before("void")
        return self._record(
            kind=GatewayTransaction.Kind.VOID,
            payment_reference=payment_reference,
            amount=0,
            idempotency_key=idempotency_key,
        )

    def adjust_authorization(
        self, *, payment_reference: str, amount: int, idempotency_key: str
    ) -> str:
        """Lower an uncaptured authorization to ``amount`` yen (a partial reversal, as card
        gateways offer); a seen key returns its first answer."""
        self._faults.before("adjust_authorization")
        return self._record(
            kind=GatewayTransaction.Kind.ADJUST,
            payment_reference=payment_reference,
            amount=amount,
            idempotency_key=idempotency_key,
        )

    def find_transaction(self, idempotency_key: str) -> GatewayTransactionRecord | None:
        """The transaction made under ``idempotency_key``, if the gateway has one."""
        self._faults.before("find_transaction")
        row = GatewayTransaction.objects.filter(idempotency_key=idempotency_key).first()
        return None if row is None else _record_of(row)

    def _record(
        self, *, kind: str, payment_reference: str, amount: int, idempotency_key: str
    ) -> str:
        seen = GatewayTransaction.objects.filter(idempotency_key=idempotency_key).first()
        if seen is not None:
            return seen.transaction_id
        try:
            with transaction.atomic():
                payment = _payment(payment_reference, lock=True)
                _refuse_unless_allowed(kind, payment, amount)
                row = GatewayTransaction.objects.create(
                    idempotency_key=idempotency_key,
                    kind=kind,
                    payment_reference=payment_reference,
                    amount=0 if kind == GatewayTransaction.Kind.VOID else amount,
                    transaction_id=f"{kind[:2]}_{uuid.uuid4().hex[:24]}",
                )
        except IntegrityError:
            # Two requests with one key raced; the first one's answer is everyone's answer.
            return GatewayTransaction.objects.get(idempotency_key=idempotency_key).transaction_id
        return row.transaction_id


def _payment(payment_reference: str, *, lock: bool = False) -> Payment:
    payments = Payment.objects.select_for_update() if lock else Payment.objects.all()
    try:
        return payments.get(gateway_reference=payment_reference)
    except Payment.DoesNotExist:
        raise ExternalServiceError(
            SERVICE, "not_found", f"no payment {payment_reference}"
        ) from None


def _refunded(payment_reference: str) -> int:
    rows = GatewayTransaction.objects.filter(
        payment_reference=payment_reference, kind=GatewayTransaction.Kind.REFUND
    )
    return int(rows.aggregate(total=Sum("amount"))["total"] or 0)


def _ledger_status(payment: Payment, refunded: int) -> str:
    voided = GatewayTransaction.objects.filter(
        payment_reference=payment.gateway_reference, kind=GatewayTransaction.Kind.VOID
    ).exists()
    if voided:
        return PaymentStatus.VOIDED
    if refunded and refunded >= payment.captured_amount:
        return PaymentStatus.REFUNDED
    if refunded:
        return PaymentStatus.PARTIALLY_REFUNDED
    return payment.status


def _refuse_unless_allowed(kind: str, payment: Payment, amount: int) -> None:
    """What a real gateway answers with a 4xx; the shop's own rules should never get here."""
    if kind == GatewayTransaction.Kind.VOID:
        if payment.status != PaymentStatus.AUTHORIZED:
            raise ExternalServiceError(
                SERVICE, "rejected", f"cannot void a {payment.status} payment"
            )
        return
    if kind == GatewayTransaction.Kind.ADJUST:
        if (
            payment.status != PaymentStatus.AUTHORIZED
            or not 0 < amount <= payment.authorized_amount
        ):
            raise ExternalServiceError(
                SERVICE,
                "rejected",
                f"cannot adjust a {payment.status} authorization of "
                f"{payment.authorized_amount} to {amount}",
            )
        return
    refundable = payment.captured_amount - _refunded(payment.gateway_reference)
    if amount <= 0 or amount > refundable:
        raise ExternalServiceError(
            SERVICE, "rejected", f"refund of {amount} exceeds the refundable {refundable}"
        )


def _record_of(row: GatewayTransaction) -> GatewayTransactionRecord:
    return GatewayTransactionRecord(
        transaction_id=row.transaction_id,
        kind=row.kind,
        payment_reference=row.payment_reference,
        amount=row.amount,
        idempotency_key=row.idempotency_key,
    )


def get_gateway() -> PaymentGateway:
    """The configured gateway: the simulator, or ``NETSHOP_GATEWAY["backend"]`` (a class path)."""
    gateway: PaymentGateway = configured_adapter(
        SERVICE, settings.NETSHOP_GATEWAY, GatewaySimulator
    )
    return gateway
