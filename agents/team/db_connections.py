"""Database hygiene for runs: a thread holds a connection only while it queries.

LangGraph runs parallel branches on threads of its own; each thread that touches the ORM
opens its own connection, which nobody would close. Nodes that use the database release it
when they finish, and a run gives its connection back before it waits for a model, so a
worker with dozens of runs in flight needs a few connections, not one per run.

With a connection pool (the production shape) a release is a return to the pool, and costs
microseconds. Without one a release is a disconnect, so the thread that drives the graph keeps
its connection (reconnecting after every step would cost more than the step). Nothing is
released inside a transaction that still needs it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

from django.db import connection

P = ParamSpec("P")
R = TypeVar("R")

_driver = threading.local()


@contextmanager
def driving_graph() -> Iterator[None]:
    """Mark this thread as the one driving a graph run (its connection is kept)."""
    _driver.active = True
    try:
        yield
    finally:
        _driver.active = False


def _pooled() -> bool:
    return bool(connection.settings_dict.get("OPTIONS", {}).get("pool"))


def release_db_connection() -> None:
    """Give this thread's connection back, if a pool takes it and no transaction needs it:
    called before a run waits for a model."""
    if _pooled() and not connection.in_atomic_block:
        connection.close()


def releases_db_connection(node: Callable[P, R]) -> Callable[P, R]:
    """A node that gives its thread's connection back when it finishes."""

    @functools.wraps(node)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return node(*args, **kwargs)
        finally:
            driving = getattr(_driver, "active", False)
            if not connection.in_atomic_block and (_pooled() or not driving):
                connection.close()

    return wrapper
