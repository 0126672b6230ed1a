"""The demo shop for tests that commit their data, seeded once per run and copied back after.

``seed_demo`` writes a few thousand rows through upserts (about a second each time, more on a
loaded machine), and every transactional test that needs the shop pays for it again after
pytest-django's flush. ``demo_shop_seed`` seeds for real the first time, keeps each table's
rows (``COPY ... TO STDOUT``) and, in later tests, copies them back into the emptied tables
in one statement per table: the same rows, ids included.

Kept honest by construction: it copies only when the tables it would fill are empty, as they
are after a flush, and seeds for real otherwise. Group permissions point at permission rows a
flush recreates with new ids, so they are not copied; ``ensure_role_groups`` (what seeding
calls) grants them again. ``tests/support/test_demo_snapshot.py`` checks that a copied shop
is one that seeding again finds nothing to change in.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper
from django.utils import timezone
from psycopg import sql

from netshop.demo.seed import seed_demo
from netshop.roles import ensure_role_groups

# What a flush leaves filled (post_migrate recreates them): neither copied nor required empty.
RECREATED_BY_FLUSH = frozenset({"django_content_type", "auth_permission"})
# Filled by seeding but pointing at recreated rows: granted again instead of copied.
GRANTED_AGAIN = frozenset({"auth_group_permissions"})
# The audit chain only grows at its head (a trigger refuses rows copied into it): the entries
# seeding writes (the import of the demo's help articles) are left out of a copied shop.
NOT_COPIED = frozenset({"netshop_auditentry"})


@dataclass(frozen=True)
class TableCopy:
    table: str
    columns: tuple[str, ...]
    data: bytes


_snapshots: dict[tuple[str, str, str], tuple[TableCopy, ...]] = {}


def demo_shop_seed(*, password: str) -> None:
    """``seed_demo(password=...)`` for a test whose database a flush emptied."""
    key = (password, settings.PASSWORD_HASHERS[0], timezone.localdate().isoformat())
    tables = connection.introspection.django_table_names(only_existing=True)
    if _filled(tables) - RECREATED_BY_FLUSH:
        seed_demo(password=password)  # not a flushed database: seed as the product does
        return
    if key in _snapshots:
        _restore(_snapshots[key])
        return
    seed_demo(password=password)
    snapshot = _take(_filled(tables) - RECREATED_BY_FLUSH)
    if snapshot is not None:
        _snapshots[key] = snapshot


def _filled(tables: list[str]) -> set[str]:
    with connection.cursor() as cursor:
        filled = set()
        for table in tables:
            cursor.execute(
                sql.SQL("SELECT EXISTS (SELECT 1 FROM {})").format(sql.Identifier(table))
            )
            if cursor.fetchone()[0]:
                filled.add(table)
        return filled


def _take(tables: set[str]) -> tuple[TableCopy, ...] | None:
    """Each filled table's rows; None when seeding filled a table that cannot be copied."""
    if _pointing_at_recreated(tables - GRANTED_AGAIN):
        return None
    copies = []
    with connection.cursor() as cursor:
        for table in sorted(tables - GRANTED_AGAIN - NOT_COPIED):
            columns = tuple(
                c.name for c in connection.introspection.get_table_description(cursor, table)
            )
            statement = sql.SQL("COPY {} ({}) TO STDOUT").format(
                sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
            )
            with cursor.cursor.copy(statement) as copy:
                data = b"".join(bytes(chunk) for chunk in copy)
            copies.append(TableCopy(table=table, columns=columns, data=data))
    return tuple(copies)


def _copy(table: str, columns: tuple[str, ...], direction: str) -> sql.Composed:
    names = sql.SQL(", ").join(map(sql.Identifier, columns))
    return sql.SQL("COPY {} ({}) " + direction).format(sql.Identifier(table), names)


def _pointing_at_recreated(tables: set[str]) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT conrelid::regclass::text FROM pg_constraint"
            " WHERE contype = 'f' AND confrelid::regclass::text = ANY(%s)",
            [sorted(RECREATED_BY_FLUSH)],
        )
        return bool(tables & {row[0] for row in cursor.fetchall()})


@transaction.atomic
def _restore(snapshot: tuple[TableCopy, ...]) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table in snapshot:
            with cursor.cursor.copy(_copy(table.table, table.columns, "FROM STDIN")) as copy:
                copy.write(table.data)
            _sequence_past_rows(cursor, table)
    ensure_role_groups()


def _sequence_past_rows(cursor: CursorWrapper, table: TableCopy) -> None:
    """A flush does not reset sequences; only ever move one forward, past the copied ids."""
    if "id" not in table.columns:
        return
    cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table.table])
    (sequence,) = cursor.fetchone()
    if sequence is None:
        return
    cursor.execute(
        sql.SQL(
            "SELECT setval(%s::regclass,"
            " GREATEST((SELECT MAX(id) FROM {}), (SELECT last_value FROM {})))"
        ).format(sql.Identifier(table.table), sql.SQL(sequence)),
        [sequence],
    )
