"""Who can rewrite the audit log: the app's own role cannot; a stronger attacker is caught.

The app connects as a PostgreSQL role that owns nothing and may only SELECT and INSERT on the
log (``manage.py db_roles``). Here that role is ``netshop_app_test`` (roles are cluster-wide,
so it is made idempotently). Attacks it cannot even try are refused by PostgreSQL; what the
table's owner can do without the audit key is named by ``verify_audit`` with its seq, against
the anchors written outside the database.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import ProgrammingError, connection, transaction

from netshop.audit import audit_anchor, audit_record, audit_verify
from netshop.audit.anchors import Anchor, FileAnchorSink, anchor_sign
from netshop.audit.chain import entry_hash, entry_signature
from netshop.audit.keys import keyring
from netshop.audit.models import GENESIS, AuditEntry
from netshop.db_roles import db_roles_problems
from netshop.tasks import audit_anchor as audit_anchor_task
from tests.netshop.conftest import connect_as

NEW_KEY = "k2:second-test-only-audit-key-0123456789abcdef"


def _append(n: int) -> list[AuditEntry]:
    return [
        audit_record(action="side_effect.refund", actor="sato", data={"amount": 7280, "i": i})
        for i in range(n)
    ]


def _verify() -> tuple[int, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_audit", stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), err.getvalue()
    return 0, out.getvalue()


@contextmanager
def as_superuser_without_triggers() -> Iterator[Any]:
    """The stronger attacker: the table's owner (here the superuser) with the triggers off."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        yield cursor


# --- The app's own role ----------------------------------------------------------------------


def test_the_granted_role_is_least_privilege_and_the_superuser_is_not(
    app_role: str, django_db_blocker: Any
) -> None:
    with django_db_blocker.unblock():
        assert db_roles_problems(role=app_role) == []
        assert db_roles_problems(role="postgres")[:3] == [
            "is a superuser",
            "may create roles",
            "may create databases",
        ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("attack", "refusal"),
    [
        ("UPDATE netshop_auditentry SET data = '{\"amount\": 1}'", "permission denied"),
        ("DELETE FROM netshop_auditentry", "permission denied"),
        ("TRUNCATE netshop_auditentry", "permission denied"),
        ("ALTER TABLE netshop_auditentry DISABLE TRIGGER ALL", "must be owner"),
        ("SET session_replication_role = replica", "permission denied"),
        ("CREATE TABLE netshop_shadow (id int)", "permission denied for schema public"),
        ("DROP TABLE netshop_auditentry", "must be owner"),
    ],
    ids=["update", "delete", "truncate", "disable-trigger", "replica-mode", "ddl", "drop"],
)
def test_the_app_role_cannot_touch_written_entries(
    app_role: str, attack: str, refusal: str
) -> None:
    entries = _append(3)

    with connect_as(app_role) as conn, pytest.raises(psycopg.Error, match=refusal):
        conn.execute(attack)

    assert list(AuditEntry.objects.values_list("seq", "hash", "data")) == [
        (e.seq, e.hash, e.data) for e in entries
    ]
    assert audit_verify().ok


def _forge_through_the_normal_path(conn: psycopg.Connection[Any], key_id: str = "test") -> int:
    """What the app's role can do: take the lock and a seq, chain to the head, guess a MAC
    (or write the entry as one from before the key, ``key_id=""``, which needs no key)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(31089109856708980)")
        head = conn.execute("SELECT hash FROM netshop_auditentry ORDER BY seq DESC LIMIT 1")
        prev_hash = head.fetchone()[0]  # type: ignore[index]
        seq = conn.execute("SELECT nextval(pg_get_serial_sequence('netshop_auditentry', 'seq'))")
        forged = AuditEntry(
            seq=seq.fetchone()[0],  # type: ignore[index]
            created_at=AuditEntry.objects.latest("seq").created_at,
            action="decision.recorded",
            actor="manager",
            data={"order": "ORD-4003", "amount": 12800},
            prev_hash=prev_hash,
            key_id=key_id,
        )
        forged.hash = entry_hash(forged)  # the best they can do without the key
        conn.execute(
            "INSERT INTO netshop_auditentry (seq, created_at, action, actor, operation_id,"
            " verdict, reason, data, prev_hash, hash, key_id)"
            " VALUES (%s, %s, %s, %s, '', '', '', %s, %s, %s, %s)",
            [
                forged.seq,
                forged.created_at,
                forged.action,
                forged.actor,
                json.dumps(forged.data),
                forged.prev_hash,
                forged.hash,
                forged.key_id,
            ],
        )
    return forged.seq


@pytest.mark.django_db(transaction=True)
def test_an_entry_forged_by_the_app_role_is_named_and_never_anchored(app_role: str) -> None:
    _append(3)
    assert audit_anchor().status == "anchored"
    with connect_as(app_role) as conn:
        seq = _forge_through_the_normal_path(conn)

    code, err = _verify()
    refused = audit_anchor()

    assert code == 1
    assert err.startswith(f"audit chain BROKEN at seq {seq}: forged: its MAC does not match")
    assert (refused.status, refused.detail) == (
        "refused",
        f"the head, seq {seq}, is not signed with the audit key",
    )
    assert len(list(FileAnchorSink().lines())) == 1


@pytest.mark.django_db(transaction=True)
def test_the_next_writer_reports_a_forged_head_and_verify_still_calls_it_forged(
    app_role: str,
) -> None:
    _append(2)
    with connect_as(app_role) as conn:
        seq = _forge_through_the_normal_path(conn)

    after = audit_record(action="reply.sent", actor="agent:writer")
    assert audit_anchor().status == "anchored"  # the genuine head may be anchored again

    reported = AuditEntry.objects.get(seq=after.seq - 1)
    assert (reported.action, reported.data) == (
        "audit.tamper_detected",
        {"seq": seq, "found": "invalid"},
    )
    report = audit_verify()
    assert (report.broken_seq, report.problem) == (seq, "forged")
    assert "found it at the head" in report.detail


def _insert_raw(conn: psycopg.Connection[Any], *, seq: int, prev_hash: str) -> None:
    conn.execute(
        "INSERT INTO netshop_auditentry (seq, created_at, action, actor, operation_id,"
        " verdict, reason, data, prev_hash, hash, key_id)"
        " VALUES (%s, now(), 'decision.recorded', 'manager', '', '', '', '{}', %s, %s, 'test')",
        [seq, prev_hash, "f" * 64],
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("where", "seq_of", "prev_of"),
    [
        ("the next link taken below the head", lambda head: -1, lambda head: head.hash),
        ("a seq far above the sequence's", lambda head: head.seq + 10**9, lambda head: head.hash),
        ("beside the head", lambda head: head.seq + 1, lambda head: head.prev_hash),
    ],
)
def test_the_app_role_cannot_jam_the_chain_with_a_row_off_its_head(
    app_role: str, where: str, seq_of: Any, prev_of: Any
) -> None:
    # Given a chain, and the app's role trying to plant a row the next writer would trip on
    _append(2)
    head = AuditEntry.objects.latest("seq")
    with connect_as(app_role) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        _insert_raw(conn, seq=seq_of(head), prev_hash=prev_of(head))

    # When the shop writes again, then it is written and the chain is whole
    after = audit_record(action="reply.sent", actor="agent:writer")
    assert (after.prev_hash, AuditEntry.objects.count()) == (head.hash, 3)
    assert audit_verify().ok, where


@pytest.mark.django_db(transaction=True)
def test_an_unkeyed_entry_on_a_keyed_chain_is_never_anchored_and_the_next_writer_reports_it(
    app_role: str,
) -> None:
    # Given a keyed chain, anchored, and an entry the app's role wrote as if from before the
    # key: a plain SHA-256 that anyone can compute, correctly chained to the head
    _append(3)
    assert audit_anchor().status == "anchored"
    with connect_as(app_role) as conn:
        seq = _forge_through_the_normal_path(conn, key_id="")

    # When the beat task tries to anchor it, and a writer appends after it
    refused = audit_anchor()
    after = audit_record(action="reply.sent", actor="agent:writer")

    # Then the anchor refuses to vouch for it, the writer reports it, and it stays forged
    assert (refused.status, refused.detail) == (
        "refused",
        f"the head, seq {seq}, is not signed with the audit key",
    )
    reported = AuditEntry.objects.get(seq=after.seq - 1)
    assert (reported.action, reported.data) == (
        "audit.tamper_detected",
        {"seq": seq, "found": "invalid"},
    )
    assert len(list(FileAnchorSink().lines())) == 1
    report = audit_verify()
    assert (report.broken_seq, report.problem) == (seq, "forged")


# --- The owner, without the key (stronger than the app) ---------------------------------------


@pytest.mark.django_db
def test_truncate_is_refused_by_a_trigger_even_for_the_owner() -> None:
    entries = _append(2)

    with (
        pytest.raises(ProgrammingError, match="append-only: TRUNCATE refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("TRUNCATE netshop_auditentry")

    assert AuditEntry.objects.count() == len(entries)


@pytest.mark.django_db
def test_an_amount_edited_with_the_hashes_recomputed_forward_is_edited_at_its_seq() -> None:
    entries = _append(8)
    audit_anchor()
    target = entries[3]
    with as_superuser_without_triggers():
        prev_hash = entries[2].hash
        for entry in AuditEntry.objects.filter(seq__gte=target.seq).order_by("seq"):
            if entry.seq == target.seq:
                entry.data = {**entry.data, "amount": 1}
            entry.prev_hash = prev_hash
            entry.hash = prev_hash = entry_hash(entry)  # recomputed, but without the key
            entry.save()

    code, err = _verify()

    assert AuditEntry.objects.get(seq=target.seq).data["amount"] == 1
    assert code == 1
    assert err.startswith(f"audit chain BROKEN at seq {target.seq}: edited: its MAC")
    assert "an anchor covers it" in err


@pytest.mark.django_db
def test_a_truncated_table_is_truncated_at_the_anchored_seq() -> None:
    entries = _append(4)
    audit_anchor()
    with as_superuser_without_triggers() as cursor:
        cursor.execute("TRUNCATE netshop_auditentry")

    code, err = _verify()

    assert code == 1
    assert err == (
        f"audit chain BROKEN at seq {entries[-1].seq}: truncated: the table is empty; the anchor"
        f" of {_anchors()[-1]['at']} recorded 4 entries\n"
    )


@pytest.mark.django_db
def test_a_truncated_table_that_started_again_is_truncated_too() -> None:
    entries = _append(3)
    audit_anchor()
    with as_superuser_without_triggers() as cursor:
        cursor.execute("TRUNCATE netshop_auditentry")
    restarted = _append(2)

    report = audit_verify()

    assert (report.broken_seq, report.problem) == (entries[-1].seq, "truncated")
    assert f"the chain restarts at seq {restarted[0].seq}" in report.detail


@pytest.mark.django_db
def test_the_newest_entries_deleted_are_a_tail_missing() -> None:
    entries = _append(10)
    audit_anchor()
    with as_superuser_without_triggers():
        AuditEntry.objects.filter(seq__gte=entries[5].seq).delete()

    code, err = _verify()

    assert code == 1
    assert err.startswith(
        f"audit chain BROKEN at seq {entries[-1].seq}: tail missing: the table ends at seq "
        f"{entries[4].seq}"
    )


@pytest.mark.django_db
def test_an_anchor_line_not_written_with_the_key_is_forged() -> None:
    _append(2)
    audit_anchor()
    record = {**_anchors()[-1], "count": 1}
    with settings.NETSHOP_AUDIT_ANCHOR_PATH.open("a") as file:
        file.write(json.dumps(record) + "\n")

    report = audit_verify()

    assert (report.problem, report.broken_seq) == ("forged", None)
    assert report.detail == (
        "anchor line 2 is not genuine: its anchor_mac does not match: not written with the"
        " audit key"
    )


# --- Anchors ---------------------------------------------------------------------------------


def _anchors() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FileAnchorSink().lines()]


@pytest.mark.django_db
def test_an_anchor_records_the_signed_head_once_per_change() -> None:
    assert audit_anchor().status == "empty"
    entries = _append(3)

    first, again = audit_anchor(), audit_anchor()
    _append(1)
    out = StringIO()
    call_command("audit_anchor", stdout=out)

    assert (first.status, again.status) == ("anchored", "unchanged")
    records = _anchors()
    assert [(r["seq"], r["mac"], r["count"], r["key_id"]) for r in records[:1]] == [
        (entries[-1].seq, entries[-1].hash, 3, "test")
    ]
    assert len(records) == 2
    assert out.getvalue() == (
        f"anchored: seq {records[1]['seq']} (4 entries) in {settings.NETSHOP_AUDIT_ANCHOR_PATH}\n"
    )
    assert oct(Path(settings.NETSHOP_AUDIT_ANCHOR_PATH).stat().st_mode & 0o777) == "0o600"
    assert audit_verify().anchors == 2


@pytest.mark.django_db
def test_the_beat_task_anchors_every_minute() -> None:
    _append(1)

    assert audit_anchor_task() == "anchored"
    assert settings.CELERY_BEAT_SCHEDULE["audit-anchor"] == {
        "task": "netshop.tasks.audit_anchor",
        "schedule": 60.0,
    }


# --- Keys ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_new_key_starts_a_segment_the_old_key_hands_over_to(settings: Any) -> None:
    before = _append(2)
    settings.NETSHOP_AUDIT_KEY = NEW_KEY
    settings.NETSHOP_AUDIT_KEYS_OLD = os.environ["NETSHOP_AUDIT_KEY"]

    after = _append(2)

    rotation = AuditEntry.objects.get(seq=after[0].seq - 1)
    assert (rotation.action, rotation.key_id, rotation.data) == (
        "audit.key_rotated",
        "test",
        {"previous_key_id": "test", "new_key_id": "k2"},
    )
    assert [e.key_id for e in AuditEntry.objects.all()] == ["test", "test", "test", "k2", "k2"]
    assert rotation.prev_hash == before[-1].hash
    audit_anchor()
    assert audit_verify().ok

    settings.NETSHOP_AUDIT_KEYS_OLD = ""  # the old key forgotten: its entries cannot be checked
    report = audit_verify()
    assert (report.broken_seq, report.problem) == (before[0].seq, "forged")
    assert report.detail.startswith("signed by key 'test', which is not in the keyring")


@pytest.mark.django_db
def test_a_key_changed_without_the_old_one_leaves_a_visible_break(settings: Any) -> None:
    _append(1)
    settings.NETSHOP_AUDIT_KEY = NEW_KEY  # the old key not kept in NETSHOP_AUDIT_KEYS_OLD

    after = _append(1)[0]

    settings.NETSHOP_AUDIT_KEYS_OLD = os.environ["NETSHOP_AUDIT_KEY"]
    report = audit_verify()
    assert (report.broken_seq, report.problem) == (after.seq - 1, "forged")
    assert "no audit.key_rotated entry hands over to it" in report.detail
    assert entry_signature(after, keyring()) == "valid"


def _settings_in_a_fresh_process(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("NETSHOP_AUDIT_KEY")}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={**base, "DJANGO_SETTINGS_MODULE": "netshop.settings", **env},
        cwd=Path(settings.BASE_DIR),
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_production_shape_refuses_to_start_without_the_audit_key() -> None:
    done = _settings_in_a_fresh_process()

    assert done.returncode == 1
    assert "ImproperlyConfigured: NETSHOP_AUDIT_KEY must be set" in done.stderr


def test_a_short_audit_key_is_refused_at_start() -> None:
    done = _settings_in_a_fresh_process(NETSHOP_AUDIT_KEY="k1:too-short")

    assert done.returncode == 1
    assert "an audit key's secret needs at least 32 characters" in done.stderr


def test_a_key_id_naming_two_secrets_is_refused() -> None:
    done = _settings_in_a_fresh_process(
        NETSHOP_AUDIT_KEY="k1:" + "a" * 32, NETSHOP_AUDIT_KEYS_OLD="k1:" + "b" * 32
    )

    assert done.returncode == 1
    assert "audit key id 'k1' names two different secrets" in done.stderr


@pytest.mark.django_db
def test_another_databases_anchors_in_the_same_sink_are_not_this_ones() -> None:
    entries = _append(2)
    other = anchor_sign(
        Anchor(
            seq=999,
            mac="0" * 64,
            count=999,
            at="2026-12-01T00:00:00+00:00",
            key_id="test",
            db="other",
        ),
        keyring(),
    )
    FileAnchorSink().append(other.line())
    audit_anchor()

    report = audit_verify()

    assert (report.ok, report.anchors, report.head_seq) == (True, 1, entries[-1].seq)
    assert _anchors()[-1]["db"] == connection.settings_dict["NAME"]


@pytest.mark.django_db
def test_the_first_keyed_entry_after_unkeyed_ones_says_the_chain_is_keyed_from_there() -> None:
    # Given an entry from before the key (plain SHA-256, no key id), as an upgrade finds it
    legacy = AuditEntry(
        seq=1,
        created_at=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
        action="reply.sent",
        actor="agent:writer",
        prev_hash=GENESIS,
    )
    legacy.hash = entry_hash(legacy)
    legacy.save(force_insert=True)

    entry = audit_record(action="inquiry.received", actor="storefront")

    rotation = AuditEntry.objects.get(seq=entry.seq - 1)
    assert (rotation.action, rotation.key_id, rotation.data, rotation.prev_hash) == (
        "audit.key_rotated",
        "test",
        {"previous_key_id": "", "new_key_id": "test"},
        legacy.hash,
    )
    assert audit_verify().ok
