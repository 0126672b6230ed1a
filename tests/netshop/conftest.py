"""Fixtures for the netshop tests: the app's own, least-privileged database role."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.db import connection

from netshop.db_roles import db_roles_grant

# Roles are cluster-wide and several test databases share the cluster: one name, made
# idempotently, granted in each test database.
APP_ROLE = "netshop_app_test"


@pytest.fixture(scope="session")
def app_role(django_db_setup: None, django_db_blocker: Any) -> str:
    """``netshop_app_test`` with exactly the grants ``manage.py db_roles`` gives (committed)."""
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "DO $$ BEGIN CREATE ROLE netshop_app_test LOGIN;"
            " EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
        )
        db_roles_grant(role=APP_ROLE)
    return APP_ROLE


@contextmanager
def connect_as(role: str) -> Iterator[psycopg.Connection[Any]]:
    db = connection.settings_dict
    with psycopg.connect(
        dbname=db["NAME"], user=role, host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432
    ) as conn:
        yield conn
