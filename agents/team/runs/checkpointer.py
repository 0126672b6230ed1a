"""The graph's checkpointer: PostgresSaver in the production shape, SQLite when embedded.

One saver per process, created on first use. The PostgreSQL one uses a connection pool with
the settings the saver requires (autocommit, dict rows). Its tables are created by a
migration (``agents/migrations/0002``), run as the schema owner; here they are only confirmed.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from django.conf import settings
from langgraph.checkpoint.base import BaseCheckpointSaver

_lock = threading.Lock()
_saver: BaseCheckpointSaver | None = None


def postgres_conninfo() -> str:
    db = settings.DATABASES["default"]
    parts = {
        "dbname": db["NAME"],
        "user": db.get("USER") or "",
        "password": db.get("PASSWORD") or "",
        "host": db.get("HOST") or "",
        "port": str(db.get("PORT") or ""),
    }
    return " ".join(f"{key}={value}" for key, value in parts.items() if value)


def _postgres_saver() -> BaseCheckpointSaver:
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    pool: ConnectionPool[Any] = ConnectionPool(
        conninfo=postgres_conninfo(),
        min_size=1,
        max_size=int(getattr(settings, "NETSHOP_CHECKPOINT_POOL_SIZE", 8)),
        kwargs={"autocommit": True, "row_factory": dict_row, "prepare_threshold": None},
        # A connection the server dropped while idle is replaced, not handed to a run.
        check=ConnectionPool.check_connection,
        open=True,
    )
    return PostgresSaver(pool)


def _sqlite_saver() -> BaseCheckpointSaver:
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = settings.VAR_DIR / "checkpoints.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, check_same_thread=False, timeout=30)
    return SqliteSaver(connection)


def get_checkpointer() -> BaseCheckpointSaver:
    global _saver
    with _lock:
        if _saver is None:
            vendor = settings.DATABASES["default"]["ENGINE"]
            if "postgresql" in vendor:
                _saver = _postgres_saver()
                _confirm_postgres_tables(_saver)
            else:
                _saver = _sqlite_saver()
                _saver.setup()  # type: ignore[attr-defined]
        return _saver


def _confirm_postgres_tables(saver: BaseCheckpointSaver) -> None:
    """The tables are the migrations' (run by the schema owner): the app's role may not create
    them, so ``setup()``, which starts with a CREATE TABLE, is not called here."""
    latest = len(saver.MIGRATIONS) - 1  # type: ignore[attr-defined]
    with saver.conn.connection() as conn:  # type: ignore[attr-defined]
        row = conn.execute("SELECT max(v) AS v FROM checkpoint_migrations").fetchone()
    if row is None or row["v"] is None or row["v"] < latest:
        raise RuntimeError("the checkpoint tables are missing or old: run manage.py migrate")


def close_checkpointer() -> None:
    """Close the saver's connections (tests and shutdown: a dropped database needs them gone)."""
    global _saver
    with _lock:
        pool = getattr(_saver, "conn", None)
        if pool is not None and hasattr(pool, "close"):
            pool.close()
        _saver = None
