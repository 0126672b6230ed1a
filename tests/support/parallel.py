"""Parallel runs (pytest-xdist): each worker process gets a Redis database of its own.

pytest-django already gives each worker a test database of its own (``test_<name>_gw0``,
``test_<name>_gw1``, ...). Here, before the workers start, worker ``gwN`` is given
``REDIS_URL`` with the database number ``TEST_REDIS_URL`` names plus N, set in its
environment before it loads the settings (which read ``REDIS_URL`` once: broker, channel
layer, throttle cache). Everything a test starts (Celery workers, daphne, management
commands) takes ``REDIS_URL`` from the worker's environment and ``DATABASE_URL`` from its
connection (``tests.support.workers.worker_env``), so it lands on the same worker's pair,
and the session's ``flushdb`` only empties the worker's own Redis database.

Without xdist (``-n 0``) nothing changes: the run uses ``REDIS_URL`` as it is.
Registered from ``tests/conftest.py`` (``pytest_plugins``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

REDIS_DATABASES = 16  # redis-server's default ``databases``


def worker_redis_url(url: str, index: int) -> str:
    """``url`` with its database number moved up by ``index``."""
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + index
    if database >= REDIS_DATABASES:
        raise pytest.UsageError(
            f"xdist worker gw{index} would use Redis database {database} ({url} plus {index}):"
            f" point TEST_REDIS_URL at database {REDIS_DATABASES - 1 - index} or lower, or run"
            " fewer workers (TEST_WORKERS)"
        )
    return urlunsplit(parts._replace(path=f"/{database}"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: Sequence[Any]) -> None:
    """In the controller, before any worker starts: each worker's own ``REDIS_URL``."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        return
    for spec in specs:
        found = re.fullmatch(r"gw(\d+)", spec.id or "")
        if found is None:
            raise pytest.UsageError(f"unexpected xdist worker id {spec.id!r}")
        spec.env["REDIS_URL"] = worker_redis_url(url, int(found[1]))
