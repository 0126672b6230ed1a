"""Shared fixtures: every test talks to the real PostgreSQL and Redis configured by scripts/test."""

from __future__ import annotations

import fcntl
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.utils import translation

from netshop.adapters.faults import ENV_VAR, reset_fault_state

pytest_plugins = ["tests.support.conftest_plugin", "tests.support.parallel"]

# makemessages (tests/test_translations.py) writes a passing ``<template>.html.py`` beside each
# template it reads, inside the source tree; the tests that read every ``*.py`` of the tree
# would trip over one. Parallel workers take turns at these modules (one lock for the run).
SOURCE_TREE_TESTS = frozenset(
    {
        "tests/test_translations.py",
        "tests/test_architecture.py",
        "tests/test_customer_wording.py",
        "tests/agents/support/test_vocabulary.py",
        "tests/netshop/test_errors.py",
        "tests/netshop/test_money.py",
    }
)


@pytest.fixture(scope="module", autouse=True)
def _source_tree_turn(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """Held through each of those modules (so before their module fixtures run); under xdist
    the lock file is in the run's temporary folder, which its workers share."""
    if request.node.nodeid.split("::")[0] not in SOURCE_TREE_TESTS:
        yield
        return
    lock = tmp_path_factory.getbasetemp().parent / "source-tree.lock"
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


@pytest.fixture(autouse=True)
def _no_leftover_faults(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts with well-behaved simulators, whatever the shell or last test set."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    reset_fault_state()
    yield
    reset_fault_state()


@pytest.fixture(autouse=True)
def _site_language_each_test() -> Iterator[None]:
    """Each test starts in the site's language. A request's ``LocaleMiddleware`` activates
    the reader's language for the thread and leaves it there: a later test in the same
    worker would read English messages in Japanese."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Demo logins are seeded in many tests; a slow hasher only costs time here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class Faults:
    """Runtime fault switch for the simulators, shared with any process a test starts.

    ``NETSHOP_FAULTS`` points at a file; rewriting the file changes faults at once in this
    process and in children started with ``env`` (e.g. a Celery worker).
    """

    def __init__(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.path = path
        self.path.write_text("{}", encoding="utf-8")
        monkeypatch.setenv(ENV_VAR, f"@{path}")

    @property
    def env(self) -> dict[str, str]:
        return {ENV_VAR: f"@{self.path}"}

    def set(self, **services: dict[str, Any]) -> None:
        """E.g. ``faults.set(gateway={"fault_rate": 1, "kinds": ["timeout"]})``."""
        self.path.write_text(json.dumps(services), encoding="utf-8")

    def clear(self) -> None:
        self.path.write_text("{}", encoding="utf-8")


@pytest.fixture
def faults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Faults:
    return Faults(tmp_path / "faults.json", monkeypatch)


@pytest.fixture(scope="session", autouse=True)
def _empty_redis() -> None:
    """The run owns its Redis database as it owns its PostgreSQL one, and starts it empty
    (under xdist, each worker its own: ``tests.support.parallel``).

    ``purge`` clears only the queue: deliveries an earlier run's killed workers never
    acknowledged stay behind, and Redis hands them back once their visibility timeout passes,
    to this run's workers, for inquiries this run's database never had.
    """
    from django.conf import settings

    if settings.REDIS_URL:
        redis.Redis.from_url(settings.REDIS_URL).flushdb()


@pytest.fixture(autouse=True)
def _no_review_sample(settings: Any) -> None:
    """Without the review sample unless a test draws one (``scripts/test`` does the same for
    the processes the tests start): a sampled review is a wait other features' tests do not
    expect."""
    settings.NETSHOP_REVIEW_SAMPLE = 0


@pytest.fixture(autouse=True)
def _own_audit_anchors(settings: Any, tmp_path: Path) -> None:
    """Each test's anchors in its own file: verify_audit must never read a dev run's."""
    settings.NETSHOP_AUDIT_ANCHOR_PATH = tmp_path / "audit-anchors.jsonl"


@pytest.fixture(scope="session", autouse=True)
def _flush_past_the_audit_log_trigger() -> Iterator[None]:
    """Let pytest-django empty the tables between transactional tests, quickly.

    Its flush is one TRUNCATE of every table, which the audit log's trigger refuses (as it
    must in the product). The test database's superuser silences triggers for that one
    transaction (replica mode), which only a superuser can.

    Replica mode also skips the foreign-key checks, so a DELETE per table empties them as
    well, in milliseconds: a TRUNCATE of every table costs about 0.4 s (new files for each
    table), after each of the suite's few hundred transactional tests. A flush that must
    restart the sequences or cascade keeps Django's TRUNCATE.
    """
    from django.db.backends.postgresql.operations import DatabaseOperations

    original_sql = DatabaseOperations.sql_flush
    original_execute = DatabaseOperations.execute_sql_flush

    def flush_sql(
        self: DatabaseOperations,
        style: Any,
        tables: list[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return original_sql(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [f"DELETE FROM {self.quote_name(table)};" for table in tables]  # noqa: S608  (table names from Django)

    def flush(self: DatabaseOperations, sql_list: list[str]) -> None:
        original_execute(self, ["SET LOCAL session_replication_role = replica", *sql_list])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", flush_sql)
        patch.setattr(DatabaseOperations, "execute_sql_flush", flush)
        yield


@pytest.fixture(scope="session", autouse=True)
def _close_checkpointer_connections(django_db_setup: None) -> Iterator[None]:
    """The checkpointer's pool and the lease connection must let go of the test database
    before pytest drops it."""
    yield
    from agents.team.runs.checkpointer import close_checkpointer
    from agents.team.runs.lease import close_lease_connection

    close_checkpointer()
    close_lease_connection()
