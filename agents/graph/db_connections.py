"""Database hygiene for graph nodes that may run on LangGraph's worker threads.

LangGraph runs parallel branches on threads of its own; each thread that touches the ORM
opens its own connection, which nobody would close. Nodes that use the database release it
when they finish, unless they run on the thread that drives the graph (its connection lives
on, and reconnecting after every step would cost more than the step) or inside a
transaction that still needs it.
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


def releases_db_connection(node: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(node)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return node(*args, **kwargs)
        finally:
            if not getattr(_driver, "active", False) and not connection.in_atomic_block:
                connection.close()

    return wrapper
