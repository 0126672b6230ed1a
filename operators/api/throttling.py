"""How fast one storefront token may submit inquiries (ninja's throttling, per token).

A storefront speaks for all of its customers, so the limit is per token, not per customer or
address, and generous: it stops a runaway or abused integration, not a busy shop. The rate
is ``settings.NETSHOP_INTAKE_RATE`` (``NETSHOP_INTAKE_RATE``, e.g. ``600/m``; empty turns it
off), read on each request. The counts live in the ``throttle`` cache (Redis in the
production shape, so every web process counts against the same limit).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from ninja.throttling import AuthRateThrottle

logger = logging.getLogger(__name__)


class StorefrontRateThrottle(AuthRateThrottle):
    """Requests per storefront token over a window; a 429 with ``Retry-After`` past it."""

    scope = "intake"

    def __init__(self) -> None:
        super().__init__(rate="1/s")  # replaced by the configured rate on every request
        if settings.NETSHOP_INTAKE_RATE:  # a typo in the setting fails at start, not per request
            self.parse_rate(settings.NETSHOP_INTAKE_RATE)

    def get_cache_key(self, request: HttpRequest) -> str:
        token = getattr(request, "auth", None)
        ident = getattr(token, "pk", None) or self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: HttpRequest) -> bool:
        rate = settings.NETSHOP_INTAKE_RATE
        if not rate:
            return True
        self.rate = rate
        self.num_requests, self.duration = self.parse_rate(rate)
        self.cache = caches["throttle"]  # looked up per request: the handler's is per thread
        try:
            return super().allow_request(request)
        except Exception:  # the counter's store is down: take the inquiry, never lose it
            logger.warning("intake throttle unavailable; request let through", exc_info=True)
            return True
