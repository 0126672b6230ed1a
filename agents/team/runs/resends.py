"""Which runs recovery sent again that no worker has taken yet (``runs_recover``).

A task waiting in a busy queue looks to recovery like one lost with its worker: nobody holds
the run's lease. Each run sent again is marked for ``NETSHOP_RUN_REDISPATCH_S``, and a marked
run is not sent again: it gets one copy behind the waiting task, not one per sweep. The worker
that takes the run takes the mark off, so if it dies too, the run is sent again at the next
sweep; if it lets go normally, the mark is put back for a full window: a run recovery keeps
counting as in flight (a worker had it and found nothing to do) is not sent round every sweep.

The marks live in the ``runs`` cache (Redis, with the broker's queue); they only spare
duplicate messages, so when the cache is unreachable recovery sends without them and a
worker runs without them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import BaseCache, caches
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

CACHE_UNREACHABLE = (RedisError, OSError)


def _key(inquiry_id: str) -> str:
    return f"run-sent-again:{inquiry_id}"


def _marks() -> BaseCache:
    return caches["runs"]


def resends_claim(candidates: Sequence[str], *, limit: int) -> list[str]:
    """The first ``candidates`` (at most ``limit``) not sent again lately, marked now; the
    marking is atomic, so two sweeps at once claim each run once."""
    marks, window = _marks(), settings.NETSHOP_RUN_REDISPATCH_S
    try:
        already = marks.get_many([_key(inquiry_id) for inquiry_id in candidates])
        claimed: list[str] = []
        for inquiry_id in candidates:
            if len(claimed) == limit:
                break
            key = _key(inquiry_id)
            if key not in already and marks.add(key, 1, timeout=window):
                claimed.append(inquiry_id)
    except CACHE_UNREACHABLE:
        logger.warning("resend marks unreachable: recovery sends without them", exc_info=True)
        return list(candidates[:limit])
    return claimed


def resend_forget(inquiry_id: str) -> None:
    """Take the mark off a run whose copy never left (the broker refused it)."""
    try:
        _marks().delete(_key(inquiry_id))
    except CACHE_UNREACHABLE:
        logger.warning("resend mark of %s not taken off", inquiry_id, exc_info=True)


@contextmanager
def run_taken(inquiry_id: str) -> Iterator[None]:
    """Around a worker's turn with the inquiry's lease held (see the module's docstring)."""
    marks, key = _marks(), _key(inquiry_id)
    try:
        was_sent = bool(marks.delete(key))
    except CACHE_UNREACHABLE:
        logger.warning("resend mark of %s not read", inquiry_id, exc_info=True)
        was_sent = False
    try:
        yield
    finally:
        if was_sent:
            with _unless_unreachable(inquiry_id):
                marks.set(key, 1, timeout=settings.NETSHOP_RUN_REDISPATCH_S)


@contextmanager
def _unless_unreachable(inquiry_id: str) -> Iterator[None]:
    try:
        yield
    except CACHE_UNREACHABLE:
        logger.warning("resend mark of %s not put back", inquiry_id, exc_info=True)
