"""Database hygiene for graph nodes that may run on LangGraph's worker threads.

LangGraph runs parallel branches on threads of its own; each thread that touches the ORM
opens its own connection, which nobody would close. Nodes that use the database release it
when they finish (unless an enclosing transaction still needs it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import connection

P = ParamSpec("P")
R = TypeVar("R")


def releases_db_connection(node: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(node)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return node(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return wrapper
