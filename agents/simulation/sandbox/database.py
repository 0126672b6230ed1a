"""The sandbox database: where it is, and making it exist.

Beside the shop's database on the same server, named by ``naming.sandbox_name``. The child
connects as the schema owner when ``MIGRATION_DATABASE_URL`` is set (it migrates and seeds a
database that is the simulation's alone); created on demand, migrated by the child.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import psycopg
from django.conf import settings
from django.db import connection
from psycopg import sql

from agents.simulation.sandbox.naming import sandbox_name


def sandbox_url() -> str:
    """The URL the sandbox child connects with: the shop's server and role (the owner's when
    there is one), the sandbox database."""
    source = (
        _parsed(settings.MIGRATION_DATABASE_URL)
        if settings.MIGRATION_DATABASE_URL
        else connection.settings_dict
    )
    return _url(source, sandbox_name(str(connection.settings_dict["NAME"])))


def _parsed(url: str) -> dict[str, Any]:
    import dj_database_url

    return dict(dj_database_url.parse(url))


def _url(parts: dict[str, Any], name: str) -> str:
    user = quote(str(parts.get("USER") or ""), safe="")
    password = quote(str(parts.get("PASSWORD") or ""), safe="")
    login = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = parts.get("HOST") or "127.0.0.1"
    port = f":{parts['PORT']}" if parts.get("PORT") else ""
    return f"postgres://{login}{host}{port}/{quote(name, safe='')}"


def sandbox_database_ensure(url: str) -> bool:
    """Create the sandbox database of ``url`` if it does not exist; True when it was made."""
    name = url.rsplit("/", 1)[1]
    server = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as admin:
        found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if found:
            return False
        try:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except psycopg.errors.DuplicateDatabase:
            return False  # another run made it meanwhile
    return True
