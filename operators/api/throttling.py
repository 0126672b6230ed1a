"""How fast one storefront token may submit inquiries: a fixed-window counter per token.

A storefront speaks for all of its customers, so the limit is per token, not per customer or
address, and generous: it stops a runaway or abused integration, not a busy shop. The rate
is ``settings.NETSHOP_INTAKE_RATE`` (``NETSHOP_INTAKE_RATE``, e.g. ``600/m``; empty turns it
off), read on each request. The counts live in the ``throttle`` cache (Redis in the
production shape) and are kept with an atomic increment, so every web process and thread
counts against the same limit without losing a request to a read-modify-write race (which
ninja's history-list throttles have). A fixed window lets at most twice the rate through
across a window's edge; that is well inside what the limit is for.
"""

from __future__ import annotations

import logging
import math
import time

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from ninja.throttling import BaseThrottle

logger = logging.getLogger(__name__)

WINDOW_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def intake_rate(rate: str) -> tuple[int, int]:
    """``"600/m"`` -> (600 requests, 60 seconds); a malformed rate raises ValueError."""
    count, _, period = rate.partition("/")
    if not count.isdigit() or period[:1] not in WINDOW_SECONDS:
        raise ValueError(f"NETSHOP_INTAKE_RATE must look like 600/m, not {rate!r}")
    return int(count), WINDOW_SECONDS[period[0]]


class StorefrontRateThrottle(BaseThrottle):
    """Requests per storefront token over a window; a 429 with ``Retry-After`` past it."""

    def __init__(self) -> None:
        self.retry_after: float | None = None
        if settings.NETSHOP_INTAKE_RATE:  # a typo in the setting fails at start, not per request
            intake_rate(settings.NETSHOP_INTAKE_RATE)

    def allow_request(self, request: HttpRequest) -> bool:
        rate = settings.NETSHOP_INTAKE_RATE
        if not rate:
            return True
        limit, window = intake_rate(rate)
        now = time.time()
        token = getattr(request, "auth", None)
        key = f"intake:{getattr(token, 'pk', None) or self.get_ident(request)}:{int(now // window)}"
        counter = caches["throttle"]  # looked up per request: the handler's is per thread
        try:
            counter.add(key, 0, timeout=window + 1)
            count = counter.incr(key)
        except Exception:  # the counter's store is down: take the inquiry, never lose it
            logger.warning("intake throttle unavailable; request let through", exc_info=True)
            return True
        if count <= limit:
            return True
        self.retry_after = math.ceil(window - now % window)
        return False

    def wait(self) -> float | None:
        return self.retry_after
