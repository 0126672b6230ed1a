"""Least privilege in PostgreSQL: the app's role may use the tables, never reshape them.

Two roles (README, "Database roles"): an owner that owns the schema and runs the migrations
(``MIGRATION_DATABASE_URL``), and the app's role (``DATABASE_URL``) that owns nothing, is not
a superuser and may only SELECT and INSERT on the audit log. Without ownership the app cannot
``ALTER TABLE ... DISABLE TRIGGER``; without superuser it cannot silence triggers
(``session_replication_role``); without UPDATE, DELETE and TRUNCATE it cannot touch a
written entry even with the triggers gone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import unquote, urlsplit

import dj_database_url
from django.conf import settings
from django.db import connection, connections
from psycopg import sql

from netshop.audit.models import AuditEntry

AUDIT_TABLE = AuditEntry._meta.db_table

_GRANTS = [
    "GRANT USAGE ON SCHEMA public TO {role}",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
    "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
    # Tables a later migration creates are usable before the next db_roles run...
    "ALTER DEFAULT PRIVILEGES IN SCHEMA public"
    " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {role}",
    "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {role}",
    # ...but the audit log is append-only for the app, whatever was granted before.
    "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {audit} FROM {role}, PUBLIC",
]

_PROBLEMS = """
SELECT r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolbypassrls,
       (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relowner = r.oid AND n.nspname = 'public'),
       pg_has_role(r.oid, (SELECT relowner FROM pg_class WHERE oid = %(audit)s::regclass), 'USAGE'),
       has_table_privilege(r.oid, %(audit)s, 'UPDATE'),
       has_table_privilege(r.oid, %(audit)s, 'DELETE'),
       has_table_privilege(r.oid, %(audit)s, 'TRUNCATE'),
       has_schema_privilege(r.oid, 'public', 'CREATE'),
       has_database_privilege(r.oid, current_database(), 'CREATE'),
       has_table_privilege(r.oid, %(audit)s, 'INSERT')
         AND has_table_privilege(r.oid, %(audit)s, 'SELECT')
  FROM pg_roles r WHERE r.rolname = %(role)s
"""
_WRONG = [
    "is a superuser",
    "may create roles",
    "may create databases",
    "bypasses row security",
    "owns tables in the schema",
    "has the rights of the audit log's owner",
    "may UPDATE the audit log",
    "may DELETE from the audit log",
    "may TRUNCATE the audit log",
    "may create objects in the schema (DDL)",
    "may create schemas (DDL)",
]


def db_roles_grant(*, role: str) -> None:
    """Give ``role`` what the app needs and nothing more (idempotent; run as the owner)."""
    names = {"role": sql.Identifier(role), "audit": sql.Identifier(AUDIT_TABLE)}
    with connection.cursor() as cursor:
        for statement in _GRANTS:
            cursor.execute(sql.SQL(statement).format(**names).as_string(cursor.connection))


def db_roles_problems(*, role: str) -> list[str]:
    """What ``role`` may do that the app must not (or lacks); empty when it is least privilege."""
    with connection.cursor() as cursor:
        cursor.execute(_PROBLEMS, {"role": role, "audit": AUDIT_TABLE})
        row = cursor.fetchone()
    if row is None:
        return [f"role {role!r} does not exist"]
    *wrong, can_append = row
    problems = [what for what, found in zip(_WRONG, wrong, strict=True) if found]
    return problems + ([] if can_append else ["may not SELECT and INSERT on the audit log"])


def url_user(url: str) -> str:
    return unquote(urlsplit(url).username or "")


@contextmanager
def migration_database() -> Iterator[None]:
    """Point the default connection at ``MIGRATION_DATABASE_URL`` (the owner) while inside.

    Switching the default alias itself, rather than adding one, keeps migrations that read
    ``settings.DATABASES["default"]`` (the checkpoint tables' setup) on the owner too.
    """
    url = settings.MIGRATION_DATABASE_URL
    if not url:
        yield
        return
    default = connections["default"]
    saved = dict(default.settings_dict)
    default.close()
    default.settings_dict.update(dj_database_url.parse(url, conn_max_age=0))
    try:
        yield
    finally:
        default.close()
        default.settings_dict.clear()
        default.settings_dict.update(saved)
