"""Work released at the same moment on several threads, as parallel requests arrive.

For the concurrency tests against the real database: a barrier lets every thread start its
work together, and each thread closes its own connection when it is done.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from django.db import connection

T = TypeVar("T")
R = TypeVar("R")


def released_together(work: Callable[[T], R], args: Sequence[T], timeout: float = 60) -> list[R]:
    """``work`` on each of ``args`` in a thread of its own, all started at once; the results
    in the order of ``args`` (an exception in a thread is raised here)."""
    barrier = threading.Barrier(len(args))

    def run(arg: T) -> R:
        barrier.wait(timeout)
        try:
            return work(arg)
        finally:
            connection.close()  # the thread's own connection

    with ThreadPoolExecutor(max_workers=len(args)) as pool:
        return list(pool.map(run, args, timeout=timeout))
