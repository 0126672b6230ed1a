"""The audit log: an append-only keyed chain that shows any edited, deleted or inserted entry.

Tampering with the app's own database role, and against the anchors outside the database, is
in ``test_audit_custody.py``.
"""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import IntegrityError, ProgrammingError, connection, transaction
from django.utils import timezone

from netshop.audit import AuditAction, audit_record, audit_verify, inquiry_id_from_ref
from netshop.audit.chain import canonical_json, entry_hash, entry_mac, entry_signature
from netshop.audit.keys import keyring
from netshop.audit.models import GENESIS, AuditEntry
from netshop.audit.verify import verify_entries
from netshop.errors import DomainError
from netshop.services.coupons import coupon_issue
from netshop.services.orders import order_cancel
from netshop.services.refunds import refund_create
from netshop.services.shipping import delivery_date_change, redelivery_arrange
from netshop.shop_time import shop_today
from tests.factories import (
    CustomerFactory,
    absent_returned_order,
    delivered_order,
    in_transit_order,
    pending_order,
)

INQUIRY = "3f1c2a9e-7d4b-4c1e-9a61-0b5e2f8d7c10"


def _append(n: int, **fields: Any) -> list[AuditEntry]:
    return [
        audit_record(action="agent.started", actor=f"agent:order{i}", **fields) for i in range(n)
    ]


def _verify_command() -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_audit", stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@contextmanager
def triggers_off() -> Iterator[None]:
    """Tamper as a superuser would: with the append-only trigger disabled, in this test only."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        try:
            yield
        finally:
            cursor.execute("SET LOCAL session_replication_role = origin")


class _RollbackError(Exception):
    pass


def _rolled_back_append() -> None:
    """An append whose transaction rolls back: PostgreSQL's sequence skips its seq."""
    with suppress(_RollbackError), transaction.atomic():
        audit_record(action="agent.started", actor="agent:lost")
        raise _RollbackError


# --- The chain ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_append_links_to_the_one_before_and_the_chain_verifies() -> None:
    entries = _append(25)

    assert [e.prev_hash for e in entries] == [GENESIS] + [e.hash for e in entries[:-1]]
    assert [e.seq for e in entries] == sorted(e.seq for e in entries)
    report = audit_verify(chunk_size=7)
    assert (report.ok, report.entries, report.head_seq, report.head_hash) == (
        True,
        25,
        entries[-1].seq,
        entries[-1].hash,
    )


@pytest.mark.django_db
def test_a_stored_entry_hashes_to_what_was_written() -> None:
    written = audit_record(
        action=AuditAction.SIDE_EFFECT_REFUND,
        actor="sato",
        inquiry_id=INQUIRY,
        operation_id="op-1",
        verdict="HEALTHY",
        reason="refund_approval",
        data={"order": "ORD-4003", "amount": 12800, "when": dt.date(2026, 12, 1), "ratio": 1e20},
    )

    stored = AuditEntry.objects.get(seq=written.seq)
    assert entry_mac(stored, keyring().current) == stored.hash == written.hash
    assert (stored.key_id, entry_signature(stored, keyring())) == ("test", "valid")
    assert stored.data == {
        "order": "ORD-4003",
        "amount": 12800,
        "when": "2026-12-01",
        "ratio": 10**20,
    }
    assert (stored.action, str(stored.inquiry_id), stored.verdict) == (
        "side_effect.refund",
        INQUIRY,
        "HEALTHY",
    )


@pytest.mark.django_db
def test_values_postgresql_would_refuse_are_made_storable() -> None:
    written = audit_record(
        action="agent.envelope",
        actor="agent:faq",
        data={"score": float("nan"), "ratio": float("inf"), "id": "a\x00b"},
    )

    stored = AuditEntry.objects.get(seq=written.seq)
    assert stored.data == {"score": None, "ratio": None, "id": "ab"}
    assert entry_signature(stored, keyring()) == "valid"


@pytest.mark.django_db
def test_an_entry_needs_an_action_and_an_actor() -> None:
    with pytest.raises(ValueError, match="action"):
        audit_record(action=" ", actor="sato")
    with pytest.raises(ValueError, match="actor"):
        audit_record(action="reply.sent", actor="")
    assert not AuditEntry.objects.exists()


@pytest.mark.django_db
def test_verify_audit_reports_an_intact_chain() -> None:
    entries = _append(3)

    code, out, err = _verify_command()

    assert (code, err) == (0, "")
    assert out.splitlines()[:2] == [
        "audit chain intact: 3 entries, 0 anchors match",
        f"head: seq {entries[-1].seq} mac {entries[-1].hash}",
    ]


@pytest.mark.django_db
def test_an_empty_log_without_anchors_is_intact_and_says_nothing_vouches_for_it() -> None:
    code, out, err = _verify_command()

    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "audit chain intact: 0 entries, 0 anchors match"
    assert out.splitlines()[1].startswith("warning: no anchors in ")


@pytest.mark.django_db
def test_a_gap_left_by_a_rolled_back_append_is_not_tampering() -> None:
    first = _append(1)[0]
    _rolled_back_append()
    second = _append(1)[0]

    assert second.seq > first.seq + 1
    assert second.prev_hash == first.hash
    assert audit_verify().ok


# --- Tampering ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_edited_entry_is_reported_at_its_seq() -> None:
    entries = _append(5)
    with triggers_off():
        AuditEntry.objects.filter(seq=entries[2].seq).update(actor="someone-else")

    report = audit_verify()
    code, out, err = _verify_command()

    assert (report.ok, report.broken_seq, report.problem) == (False, entries[2].seq, "edited")
    assert (code, out) == (1, "")
    assert err.startswith(f"audit chain BROKEN at seq {entries[2].seq}: edited")
    assert f"but seq {entries[3].seq} was chained to it" in report.detail


@pytest.mark.django_db
def test_a_deleted_entry_is_reported_at_the_entry_after_it() -> None:
    entries = _append(5)
    with triggers_off():
        AuditEntry.objects.filter(seq=entries[2].seq).delete()

    report = audit_verify()
    code, _, err = _verify_command()

    assert (report.broken_seq, report.problem) == (entries[3].seq, "deleted")
    assert f"does not match the MAC of seq {entries[1].seq}" in report.detail
    assert code == 1
    assert err.startswith(f"audit chain BROKEN at seq {entries[3].seq}: deleted: entries missing")


@pytest.mark.django_db
def test_deleting_the_first_entry_is_reported() -> None:
    entries = _append(3)
    with triggers_off():
        AuditEntry.objects.filter(seq=entries[0].seq).delete()

    report = audit_verify()

    assert (report.broken_seq, report.problem) == (entries[1].seq, "deleted")
    assert "the start of the chain" in report.detail


@pytest.mark.django_db
def test_an_inserted_entry_is_reported_at_its_seq() -> None:
    # The database refuses an entry off the head (test_custody), so this forger is the table's
    # owner with the triggers off: a seq a rollback left free, a guessed MAC (they have no
    # key), and no way to name the right predecessor (that one already has a successor).
    before = _append(2)
    _rolled_back_append()
    after = _append(2)
    forged = AuditEntry(
        seq=before[-1].seq + 1,
        created_at=timezone.now(),
        action="side_effect.refund",
        actor="sato",
        operation_id="op-forged",
        data={"order": "ORD-4003", "amount": 99999},
        prev_hash="f" * 64,
        key_id="test",
    )
    forged.hash = entry_hash(forged)
    with transaction.atomic(), triggers_off():
        forged.save(force_insert=True)

    report = audit_verify()
    code, _, err = _verify_command()

    assert (report.broken_seq, report.problem) == (forged.seq, "inserted")
    assert f"the next entry (seq {after[0].seq}) links past it" in report.detail
    assert (code, err.split(":")[0]) == (1, f"audit chain BROKEN at seq {forged.seq}")


@pytest.mark.django_db
def test_the_database_refuses_a_second_successor_of_an_entry() -> None:
    first, _second = _append(2)
    fork = AuditEntry(
        seq=10_000, created_at=timezone.now(), action="x.y", actor="z", prev_hash=first.hash
    )
    fork.hash = entry_hash(fork)

    with pytest.raises(IntegrityError), transaction.atomic():
        fork.save(force_insert=True)


def _chain(n: int) -> list[AuditEntry]:
    """Correctly chained entries in memory, for the cases the database itself refuses."""
    entries: list[AuditEntry] = []
    for seq in range(1, n + 1):
        entry = AuditEntry(
            seq=seq,
            created_at=dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
            action="agent.started",
            actor="agent:order",
            prev_hash=entries[-1].hash if entries else GENESIS,
            key_id="test",
        )
        entry.hash = entry_mac(entry, keyring().current)
        entries.append(entry)
    return entries


def _forge(entry: AuditEntry) -> AuditEntry:
    """What someone without the key can do: name the key, compute some other hash."""
    entry.key_id = "test"
    entry.hash = entry_hash(entry)
    return entry


def test_an_inserted_entry_that_names_the_right_predecessor_is_still_found() -> None:
    entries = _chain(4)
    intruder = AuditEntry(
        seq=25,  # placed between 2 and 3 by the walk's order below
        created_at=entries[1].created_at,
        action="side_effect.refund",
        actor="sato",
        prev_hash=entries[1].hash,
    )
    _forge(intruder)

    report = verify_entries([entries[0], entries[1], intruder, entries[2], entries[3]])

    assert (report.broken_seq, report.problem) == (25, "inserted")


def test_an_entry_rewritten_with_a_recomputed_hash_is_reported_as_edited() -> None:
    entries = _chain(4)
    entries[1].actor = "someone-else"
    _forge(entries[1])

    report = verify_entries(entries)

    assert (report.broken_seq, report.problem) == (2, "edited")
    assert "its MAC does not match its contents" in report.detail


def test_an_unkeyed_prefix_from_before_the_key_verifies_and_the_keyed_chain_covers_it() -> None:
    # Given entries written before the chain was keyed (plain SHA-256, no key id)
    legacy: list[AuditEntry] = []
    for seq in (1, 2):
        entry = AuditEntry(
            seq=seq,
            created_at=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
            action="agent.started",
            actor="agent:order",
            prev_hash=legacy[-1].hash if legacy else GENESIS,
        )
        entry.hash = entry_hash(entry)
        legacy.append(entry)
    keyed = AuditEntry(
        seq=3,
        created_at=dt.datetime(2026, 12, 1, tzinfo=dt.UTC),
        action="audit.key_rotated",
        actor="system",
        data={"previous_key_id": "", "new_key_id": "test"},
        prev_hash=legacy[-1].hash,
        key_id="test",
    )
    keyed.hash = entry_mac(keyed, keyring().current)
    # an unkeyed entry after the first keyed one is what anyone could write
    late = AuditEntry(
        seq=4,
        created_at=keyed.created_at,
        action="decision.approve",
        actor="sato",
        prev_hash=keyed.hash,
    )
    late.hash = entry_hash(late)

    assert verify_entries([*legacy, keyed]).ok
    report = verify_entries([*legacy, keyed, late])
    assert (report.broken_seq, report.problem) == (4, "forged")
    assert "unkeyed (plain SHA-256) entry after the chain was keyed" in report.detail


# --- Append-only in PostgreSQL ---------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change",
    [
        lambda seq: AuditEntry.objects.filter(seq=seq).update(actor="x"),
        lambda seq: AuditEntry.objects.filter(seq=seq).delete(),
        lambda seq: AuditEntry.objects.get(seq=seq).delete(),
    ],
    ids=["update", "queryset-delete", "instance-delete"],
)
def test_postgresql_refuses_update_and_delete(change: Callable[[int], object]) -> None:
    entry = _append(1)[0]

    with pytest.raises(ProgrammingError, match="append-only"), transaction.atomic():
        change(entry.seq)

    stored = AuditEntry.objects.get(seq=entry.seq)
    assert (stored.actor, stored.hash) == (entry.actor, entry.hash)


@pytest.mark.django_db
def test_raw_sql_update_is_refused_too() -> None:
    entry = _append(1)[0]

    with (
        pytest.raises(ProgrammingError, match="UPDATE refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE netshop_auditentry SET actor = 'x' WHERE seq = %s", [entry.seq])


# --- Concurrency -----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_from_threads_keep_the_chain_linear() -> None:
    threads, per_thread = 8, 12
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def append(worker: int) -> None:
        try:
            start.wait()
            for i in range(per_thread):
                audit_record(action="agent.envelope", actor=f"agent:w{worker}", data={"i": i})
        except BaseException as exc:  # reported to the main thread
            errors.append(exc)
        finally:
            connection.close()

    workers = [threading.Thread(target=append, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert errors == []
    report = audit_verify()
    assert (report.ok, report.entries) == (True, threads * per_thread)
    links = list(AuditEntry.objects.values_list("prev_hash", flat=True))
    assert len(set(links)) == threads * per_thread


# --- Content guard ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_content_never_reaches_the_log() -> None:
    marker = f"MARKER-{uuid.uuid4().hex}"
    entry = audit_record(
        action=AuditAction.AGENT_ENVELOPE,
        actor="agent:payment",
        data={
            "status": "success",
            "text": marker,
            "summary": f"お客様のご依頼 {marker} " + "あ" * 120,
            "nested": {"prompt": marker, "args": {"amount": 1}, "ok": True},
            "tool_calls": ["call_1", marker * 4],
        },
    )

    stored = AuditEntry.objects.get(seq=entry.seq)
    assert marker not in canonical_json(stored.data)
    assert stored.data == {
        "status": "success",
        "nested": {"ok": True},
        "tool_calls": ["call_1"],
        "_redacted": ["nested.args", "nested.prompt", "summary", "text", "tool_calls[]"],
    }
    assert not AuditEntry.objects.filter(data__icontains=marker).exists()
    assert audit_verify().ok


# --- Side effects of the shop's services ----------------------------------------------------


def _op(skill: str) -> str:
    return f"{INQUIRY}:{skill}:0123456789abcdef"


def _side_effects() -> list[tuple[str, str, str, str | None, dict[str, Any]]]:
    return [
        (e.action, e.actor, e.operation_id, str(e.inquiry_id) if e.inquiry_id else None, e.data)
        for e in AuditEntry.objects.filter(action__startswith="side_effect.")
    ]


@pytest.mark.django_db
def test_a_refund_is_audited_once_and_not_on_a_replay() -> None:
    order = delivered_order(captured=12800, number="ORD-A1003")
    op = _op("process_refund")

    for _ in range(2):
        refund = refund_create(
            order=order, amount=5000, reason="破損", operation_id=op, actor="sato"
        )

    assert _side_effects() == [
        (
            "side_effect.refund",
            "sato",
            op,
            INQUIRY,
            {
                "order": "ORD-A1003",
                "amount": 5000,
                "refund_id": refund.pk,
                "gateway_refund_id": refund.gateway_refund_id,
                "payment_status": "partially_refunded",
            },
        )
    ]


@pytest.mark.django_db
def test_a_cancellation_is_audited_once_and_not_on_a_replay() -> None:
    order = pending_order(authorized=3980, number="ORD-A1001")
    op = _op("cancel_order")

    for _ in range(2):
        cancellation = order_cancel(order=order, operation_id=op, actor="tanaka", reason="重複注文")

    assert _side_effects() == [
        (
            "side_effect.cancel",
            "tanaka",
            op,
            INQUIRY,
            {
                "order": "ORD-A1001",
                "amount": 3980,
                "cancellation_id": cancellation.pk,
                "previous_status": "pending",
                "authorization_released": True,
            },
        )
    ]


@pytest.mark.django_db
def test_a_redelivery_is_audited_once_and_not_on_a_replay() -> None:
    order = absent_returned_order(number="ORD-A1004")
    slot = shop_today() + dt.timedelta(days=2)
    op = _op("arrange_redelivery")

    for _ in range(2):
        redelivery = redelivery_arrange(
            shipment=order.shipment,
            slot_date=slot,
            slot_window="14-16",
            operation_id=op,
            actor="agent:shipping",
        )

    assert _side_effects() == [
        (
            "side_effect.redelivery",
            "agent:shipping",
            op,
            INQUIRY,
            {
                "order": "ORD-A1004",
                "redelivery_id": redelivery.pk,
                "tracking_number": order.shipment.tracking_number,
                "slot_date": slot.isoformat(),
                "slot_window": "14-16",
                "carrier_booking_id": redelivery.carrier_booking_id,
            },
        )
    ]


@pytest.mark.django_db
def test_a_delivery_date_change_is_audited_once_and_not_on_a_replay() -> None:
    order = in_transit_order(number="ORD-A1002", scheduled_in_days=2)
    previous = order.shipment.scheduled_date
    assert previous is not None
    new_date = previous + dt.timedelta(days=3)

    for _ in range(2):
        change = delivery_date_change(
            shipment=order.shipment, new_date=new_date, operation_id="op-7", actor="sato"
        )

    assert _side_effects() == [
        (
            "side_effect.delivery_date_change",
            "sato",
            "op-7",
            None,  # not an agents' operation id: filed under no inquiry
            {
                "order": "ORD-A1002",
                "date_change_id": change.pk,
                "tracking_number": order.shipment.tracking_number,
                "previous_date": previous.isoformat(),
                "new_date": new_date.isoformat(),
                "carrier_booking_id": change.carrier_booking_id,
            },
        )
    ]


@pytest.mark.django_db
def test_a_coupon_is_audited_once_without_its_code() -> None:
    customer = CustomerFactory.create(code="C9001")
    late = absent_returned_order(customer=customer)  # the coupon's cause
    op = _op("apply_coupon")

    for _ in range(2):
        coupon = coupon_issue(
            customer=customer,
            value=500,
            inquiry_ref=INQUIRY,
            operation_id=op,
            actor="agent:payment",
        )

    assert _side_effects() == [
        (
            "side_effect.coupon",
            "agent:payment",
            op,
            INQUIRY,
            {
                "customer": "C9001",
                "amount": 500,
                "coupon_id": coupon.pk,
                "cause": "delivery_missed",
                "order": late.number,
            },
        )
    ]
    assert coupon.code not in canonical_json(AuditEntry.objects.get().data)


@pytest.mark.django_db
def test_a_refused_side_effect_is_not_audited() -> None:
    order = pending_order()  # authorized, not captured: a refund is refused

    with pytest.raises(DomainError, match="captured"):
        refund_create(order=order, amount=100, reason="x", operation_id="op-r", actor="sato")

    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        (f"{INQUIRY}:process_refund:abc", INQUIRY),
        (INQUIRY, INQUIRY),
        (INQUIRY.upper(), INQUIRY),
        ("op-1", None),
        ("", None),
    ],
)
def test_inquiry_id_from_ref(ref: str, expected: str | None) -> None:
    assert inquiry_id_from_ref(ref) == expected
