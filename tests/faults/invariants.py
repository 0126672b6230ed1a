"""What must hold after every fault scenario (SPEC 8, Reliability; issue 7, Fault suite).

* no inquiry lost: each one resolved, waiting on an open approval, escalated or handled by a
  person, or failed with an open escalation; none left queued or running;
* no side effect executed twice: one row per operation id, the simulators' ledgers agreeing
  with the shop's rows, never more refunded than captured, one action per target and inquiry;
* no unhandled exception: no traceback logged at ERROR or above (or printed bare) by a
  worker, except the kinds a scenario provokes on purpose and names;
* the escalation policy followed: every refund and cancellation executed exactly as a person
  approved it, for the inquiry's own customer; one that failed before approval reached a
  person; every escalated or failed inquiry has its escalation, every waiting one an open
  approval, every resolved one nothing left open.

Each check returns the violations it found as sentences; ``assert_invariants`` runs them all
and fails once, listing every violation, after printing the inquiries' outcome. Violations
that only bugs already found and reported explain (``KNOWN_BUGS``) mark the test xfailed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from django.db.models import Count, Model

from agents.models import Escalation, EscalationKind, EscalationStatus, Inquiry, InquiryStatus
from agents.support.escalations.approvals import effective_params
from agents.support.shapes import Decision, PendingAction
from agents.team.run_context import run_config
from agents.team.runs.driver import support_graph
from netshop.demo.orders import SEED_PREFIX
from netshop.models import (
    Cancellation,
    CarrierBooking,
    Coupon,
    DeliveryDateChange,
    GatewayTransaction,
    Payment,
    Redelivery,
    Refund,
)

SETTLED = {
    InquiryStatus.RESOLVED,
    InquiryStatus.AWAITING_APPROVAL,
    InquiryStatus.ESCALATED,
    InquiryStatus.HANDLED_BY_HUMAN,
}
IN_FLIGHT = {InquiryStatus.QUEUED, InquiryStatus.RUNNING}
SIDE_EFFECTS: tuple[type[Model], ...] = (
    Refund,
    Cancellation,
    Redelivery,
    DeliveryDateChange,
    Coupon,
)
APPROVING = {"approve", "edit"}
# A refund or cancellation asked for, and how preparing one fails
# (agents/team/specialists/tool_turns.py).
GATED_INTENTS = {"process_refund", "cancel_order"}
GATED_FAILURES = {"action_preparation_failed", "not_gated"}


def _inquiries(ids: Iterable[str]) -> list[Inquiry]:
    return list(
        Inquiry.objects.filter(pk__in=list(ids))
        .select_related("customer")
        .prefetch_related("escalations")
        .order_by("created_at")
    )


def _open(escalations: Iterable[Escalation], kind: str | None = None) -> list[Escalation]:
    return [
        e
        for e in escalations
        if e.status == EscalationStatus.OPEN and (kind is None or e.kind == kind)
    ]


# --- No inquiry lost ---------------------------------------------------------------------------


def lost_inquiries(ids: Sequence[str]) -> list[str]:
    """Inquiries missing, stuck in flight, waiting on nothing, or failed with nobody told."""
    rows = _inquiries(ids)
    problems = [f"inquiry {i} is missing" for i in set(ids) - {str(r.pk) for r in rows}]
    for inquiry in rows:
        escalations = list(inquiry.escalations.all())
        if inquiry.status in IN_FLIGHT:
            problems.append(f"{_name(inquiry)} is stuck {inquiry.status}")
        elif inquiry.status == InquiryStatus.AWAITING_APPROVAL and not any(
            e.actions for e in _open(escalations)
        ):
            problems.append(f"{_name(inquiry)} waits for a decision but none is open")
        elif inquiry.status == InquiryStatus.FAILED and not _open(escalations):
            problems.append(f"{_name(inquiry)} failed and no escalation is open for it")
        elif inquiry.status not in SETTLED | {InquiryStatus.FAILED}:
            problems.append(f"{_name(inquiry)} has the unknown status {inquiry.status!r}")
    return problems


# --- No side effect executed twice --------------------------------------------------------------


def duplicated_side_effects() -> list[str]:
    """Any operation done twice, or money or bookings moved without the shop's record of it."""
    problems: list[str] = []
    for model in SIDE_EFFECTS:
        problems += _duplicates(model, "operation_id")
    for model in (GatewayTransaction, CarrierBooking):
        problems += _duplicates(model, "idempotency_key")
    problems += _ledgers_disagree()
    problems += _over_refunded()
    problems += _acted_twice_on_one_target()
    return problems


def _duplicates(model: type[Model], key: str) -> list[str]:
    repeated = (
        model._default_manager.values(key).annotate(n=Count("pk")).filter(n__gt=1).order_by(key)
    )
    return [f"{row['n']} {model.__name__} rows for {key} {row[key]}" for row in repeated]


def _agent_made(model: type[Model]) -> Any:
    return model._default_manager.exclude(operation_id__startswith=SEED_PREFIX)


def _ledgers_disagree() -> list[str]:
    """The simulators' ledgers hold exactly the operations the shop recorded, and no others."""
    refunds = {r.operation_id: r.amount for r in _agent_made(Refund)}
    gateway_refunds = {
        t.idempotency_key: t.amount
        for t in GatewayTransaction.objects.filter(kind=GatewayTransaction.Kind.REFUND)
    }
    voids = set(
        _agent_made(Cancellation)
        .filter(authorization_released=True)
        .values_list("operation_id", flat=True)
    )
    gateway_voids = set(
        GatewayTransaction.objects.filter(kind=GatewayTransaction.Kind.VOID).values_list(
            "idempotency_key", flat=True
        )
    )
    bookings = set(Redelivery.objects.values_list("operation_id", flat=True)) | set(
        DeliveryDateChange.objects.values_list("operation_id", flat=True)
    )
    carrier = set(CarrierBooking.objects.values_list("idempotency_key", flat=True))
    return (
        _compare("refund", refunds, gateway_refunds)
        + _compare("void", dict.fromkeys(voids, 0), dict.fromkeys(gateway_voids, 0))
        + _compare("booking", dict.fromkeys(bookings, 0), dict.fromkeys(carrier, 0))
    )


def _compare(what: str, shop: dict[str, int], ledger: dict[str, int]) -> list[str]:
    problems = [
        f"{what} {key} is in the shop but not in the ledger" for key in shop.keys() - ledger
    ]
    problems += [
        f"{what} {key} is in the ledger but not in the shop" for key in ledger.keys() - shop
    ]
    problems += [
        f"{what} {key}: the shop says {shop[key]}, the ledger {ledger[key]}"
        for key in shop.keys() & ledger.keys()
        if shop[key] != ledger[key]
    ]
    return problems


def _over_refunded() -> list[str]:
    problems = []
    for payment in Payment.objects.prefetch_related("refunds").select_related("order"):
        refunded = sum(r.amount for r in payment.refunds.all())
        if refunded > payment.captured_amount:
            problems.append(
                f"{payment.order.number}: refunded ¥{refunded:,} of ¥{payment.captured_amount:,}"
            )
    return problems


def _acted_twice_on_one_target() -> list[str]:
    """Operation ids are stable per (inquiry, skill, order): one inquiry acts once per target."""
    targets = (
        (Refund, "payment_id"),
        (Cancellation, "order_id"),
        (Redelivery, "shipment_id"),
        (DeliveryDateChange, "shipment_id"),
        (Coupon, "customer_id"),
    )
    problems = []
    for model, target in targets:
        seen: Counter[tuple[str, Any]] = Counter(
            (op.split(":", 1)[0], target_id)
            for op, target_id in _agent_made(model).values_list("operation_id", target)
        )
        problems += [
            f"inquiry {inquiry} made {n} {model.__name__} rows for one target ({target}={t})"
            for (inquiry, t), n in sorted(seen.items(), key=str)
            if n > 1
        ]
    return problems


# --- The escalation policy ----------------------------------------------------------------------


def policy_violations(ids: Sequence[str]) -> list[str]:
    """Gated actions executed only as approved; every inquiry's escalations match its status;
    a refund or cancellation that could not even be prepared is handed to a person (4.4)."""
    problems = _gated_actions_without_approval()
    for inquiry in _inquiries(ids):
        problems += _escalations_disagree(inquiry)
        problems += _gated_failure_not_handed_over(inquiry)
    return problems


def run_state(inquiry_id: str, customer_id: str) -> dict[str, Any]:
    """The run's latest state, as its checkpoints hold it."""
    config = run_config(inquiry_id=inquiry_id, customer_id=customer_id)
    return dict(support_graph().get_state(config).values)


def _gated_failure_not_handed_over(inquiry: Inquiry) -> list[str]:
    """A refund or cancellation asked for, whose step failed, must reach a person (4.4)."""
    failed = _gated_failures(run_state(str(inquiry.pk), inquiry.customer.code))
    told = any(e.kind != EscalationKind.APPROVAL for e in inquiry.escalations.all())
    if not failed or told or inquiry.status == InquiryStatus.HANDLED_BY_HUMAN:
        return []
    detail = ", ".join(sorted(failed))
    return [f"{_name(inquiry)}: a refund or cancellation failed ({detail}) and no person was told"]


def _gated_failures(state: dict[str, Any]) -> set[str]:
    envelopes = state.get("envelopes", {})
    failed_steps = {
        f"{step['intent']}: {envelopes[step['agent']].get('error_code')}"
        for step in state.get("plan", [])
        if step["intent"] in GATED_INTENTS
        and envelopes.get(step["agent"], {}).get("status") == "error"
    }
    failed_preparations = {
        f"{error['agent']}: {error['code']}"
        for error in state.get("errors", [])
        if error.get("code") in GATED_FAILURES
    }
    return failed_steps | failed_preparations


def _approvals() -> dict[str, tuple[Escalation, dict[str, Any]]]:
    """Each gated action's deciding escalation: its approval, or the retry decided after it."""
    approvals = {}
    waits = Escalation.objects.exclude(actions=[]).select_related("decided_by", "inquiry")
    for escalation in waits.order_by("created_at"):
        for action in escalation.actions:
            approvals[action["action_id"]] = (escalation, action)
    return approvals


def _gated_actions_without_approval() -> list[str]:
    approvals = _approvals()
    problems = []
    for refund in _agent_made(Refund).select_related("payment__order"):
        problems += _check_gated(
            "refund", refund.operation_id, refund.payment.order, refund.actor, approvals
        )
        approved = approvals.get(refund.operation_id)
        if approved and approved[0].decision:
            action, decision = (
                cast(PendingAction, approved[1]),
                cast(Decision, approved[0].decision),
            )
            amount = effective_params(action, decision).get("amount")
            if amount != refund.amount:
                problems.append(
                    f"refund {refund.operation_id} paid ¥{refund.amount:,}, approved ¥{amount}"
                )
    for cancellation in _agent_made(Cancellation).select_related("order"):
        problems += _check_gated(
            "cancellation",
            cancellation.operation_id,
            cancellation.order,
            cancellation.actor,
            approvals,
        )
    return problems


def _check_gated(
    what: str,
    operation_id: str,
    order: Any,
    actor: str,
    approvals: dict[str, tuple[Escalation, dict[str, Any]]],
) -> list[str]:
    approved = approvals.get(operation_id)
    if approved is None:
        return [f"{what} {operation_id} ran without any approval escalation"]
    escalation, action = approved
    decision = (escalation.decision or {}).get("decision")
    if escalation.status != EscalationStatus.DECIDED or decision not in APPROVING:
        return [f"{what} {operation_id} ran although its approval is {decision or 'undecided'}"]
    problems = []
    if escalation.decided_by is None or actor != escalation.decided_by.username:
        problems.append(f"{what} {operation_id} is attributed to {actor!r}, not the approver")
    if order.customer_id != escalation.inquiry.customer_id:
        problems.append(f"{what} {operation_id} acted on {order.number}, another customer's order")
    if action["params"].get("order_number") != order.number:
        problems.append(f"{what} {operation_id} acted on {order.number}, not the approved order")
    return problems


def _escalations_disagree(inquiry: Inquiry) -> list[str]:
    escalations = list(inquiry.escalations.all())
    name = _name(inquiry)
    if inquiry.status == InquiryStatus.ESCALATED and not any(
        e.kind != EscalationKind.APPROVAL for e in escalations
    ):
        return [f"{name} is escalated but no failure or follow-up escalation exists"]
    if inquiry.status == InquiryStatus.FAILED and not _open(escalations, EscalationKind.FAILURE):
        return [f"{name} failed but no failure escalation is open"]
    if inquiry.status == InquiryStatus.RESOLVED and _open(escalations):
        kinds = ", ".join(e.kind for e in _open(escalations))
        return [f"{name} is resolved but escalations are still open ({kinds})"]
    return []


# --- No unhandled exception ---------------------------------------------------------------------

# A log record's first line, in Celery's format or the project's ``plain`` one.
_RECORD = re.compile(
    r"^(?:\[[^\]]*: (?P<celery>[A-Z]+)/[^\]]*\]|\d{4}-\d\d-\d\d [\d:,.]+ (?P<plain>[A-Z]+) )"
)
SERIOUS = {"ERROR", "CRITICAL"}


@dataclass(frozen=True)
class LoggedTraceback:
    """One traceback in a worker's output, with the record it belongs to."""

    log: str
    level: str
    record: str
    exception: str

    def __str__(self) -> str:
        return f"{self.log}: {self.level} {self.record[:160]!r} -> {self.exception[:200]}"


class _Reader:
    """Walks a log's lines, closing a traceback at the next record or at the end."""

    def __init__(self, log: str) -> None:
        self.log = log
        self.found: list[LoggedTraceback] = []
        self.level, self.record, self.exception = "UNLOGGED", "", ""
        self.in_traceback = self.awaiting_exception = False

    def line(self, line: str) -> None:
        header = _RECORD.match(line)
        if header:
            self.close()
            self.level, self.record = header["celery"] or header["plain"], line
        elif line.startswith("Traceback (most recent call last)"):
            self.in_traceback = self.awaiting_exception = True
        elif self.awaiting_exception and line.strip() and not line[0].isspace():
            # The first unindented line after the frames names the exception (chained
            # tracebacks: the last one wins); the lines after it continue its message.
            self.exception, self.awaiting_exception = line, False

    def close(self) -> None:
        if self.in_traceback:
            self.found.append(LoggedTraceback(self.log, self.level, self.record, self.exception))
        self.level, self.record, self.exception = "UNLOGGED", "", ""
        self.in_traceback = self.awaiting_exception = False


def logged_tracebacks(logs: Iterable[Path]) -> list[LoggedTraceback]:
    """Every traceback in the logs: the level and first line of its record, its last line.

    Chained tracebacks of one record count once, with the last exception raised.
    """
    found = []
    for log in logs:
        if not log.exists():
            continue
        reader = _Reader(log.name)
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            reader.line(line)
        reader.close()
        found += reader.found
    return found


def unhandled_exceptions(logs: Iterable[Path], *, allowed: Sequence[str] = ()) -> list[str]:
    """Tracebacks logged as errors (or printed bare) that no ``allowed`` pattern explains.

    A traceback attached to a WARNING is an exception the code caught and chose to report
    (e.g. a live update that could not be sent); it is listed in the summary, not failed on.
    """
    patterns = [re.compile(p) for p in allowed]
    return [
        f"unhandled exception in {tb}"
        for tb in logged_tracebacks(logs)
        if (tb.level in SERIOUS or tb.level == "UNLOGGED")
        and not any(p.search(f"{tb.record}\n{tb.exception}") for p in patterns)
    ]


# --- All of it --------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What the scenario left behind, for the test's report."""

    statuses: Counter[str] = field(default_factory=Counter)
    failed: list[str] = field(default_factory=list)
    escalations: Counter[str] = field(default_factory=Counter)
    side_effects: dict[str, int] = field(default_factory=dict)
    tracebacks: Counter[str] = field(default_factory=Counter)

    def __str__(self) -> str:
        lines = [
            f"statuses: {dict(sorted(self.statuses.items()))}",
            f"escalations (kind/reason/status): {dict(sorted(self.escalations.items()))}",
            f"side effects: {self.side_effects}",
        ]
        lines += [f"failed: {line}" for line in self.failed]
        lines += [f"traceback x{n}: {what}" for what, n in sorted(self.tracebacks.items())]
        return "\n".join(lines)


def outcome_of(ids: Sequence[str], logs: Iterable[Path] = ()) -> Outcome:
    outcome = Outcome()
    for inquiry in _inquiries(ids):
        outcome.statuses[inquiry.status] += 1
        for escalation in inquiry.escalations.all():
            key = f"{escalation.kind}/{escalation.reason}/{escalation.status}"
            outcome.escalations[key] += 1
        if inquiry.status == InquiryStatus.FAILED:
            reasons = [f"{e.reason}: {e.summary}" for e in _open(inquiry.escalations.all())]
            outcome.failed.append(f"{_name(inquiry)} -> {'; '.join(reasons) or 'no escalation'}")
    outcome.side_effects = {m.__name__: _agent_made(m).count() for m in SIDE_EFFECTS}
    for tb in logged_tracebacks(logs):
        outcome.tracebacks[f"{tb.level} {tb.exception[:120]}"] += 1
    return outcome


@dataclass(frozen=True)
class KnownBug:
    """A product bug this suite found and reported, awaiting its fix.

    A scenario whose violations all match known bugs is marked xfailed (naming them); any
    other violation fails it. Each bug also has a deterministic reproduction marked
    ``xfail(strict=True)``: when that starts passing, remove the bug from ``KNOWN_BUGS``.
    """

    name: str
    reason: str
    signature: str  # a regex searched in each violation

    def explains(self, violation: str) -> bool:
        return re.search(self.signature, violation) is not None


# Every bug this suite found so far has been fixed; its reproduction stays as a plain test.
KNOWN_BUGS: tuple[KnownBug, ...] = ()


def assert_invariants(
    ids: Sequence[str],
    *,
    logs: Iterable[Path] = (),
    allowed_exceptions: Sequence[str] = (),
    known_bugs: Sequence[KnownBug] = KNOWN_BUGS,
) -> Outcome:
    """Check every invariant; fail once with all violations. Returns the outcome to report.

    Violations that only known bugs explain mark the test xfailed instead (see ``KnownBug``).
    """
    logs = list(logs)
    outcome = outcome_of(ids, logs)
    print(f"\n{outcome}")  # the scenario's report, shown with -s or on failure
    violations = (
        lost_inquiries(ids)
        + duplicated_side_effects()
        + policy_violations(ids)
        + unhandled_exceptions(logs, allowed=allowed_exceptions)
    )
    unexplained = [v for v in violations if not any(b.explains(v) for b in known_bugs)]
    assert not unexplained, "invariants violated:\n" + "\n".join(
        unexplained + [f"(known bug) {v}" for v in violations if v not in unexplained]
    )
    if violations:
        hit = [b.name for b in known_bugs if any(b.explains(v) for v in violations)]
        print("violations, all from known bugs:\n" + "\n".join(violations))
        pytest.xfail(f"known product bugs: {'; '.join(hit)}")
    return outcome


def _name(inquiry: Inquiry) -> str:
    return f"inquiry {inquiry.pk} ({inquiry.customer.code}: {inquiry.text[:30]!r})"
