"""``/healthz``: is the database, the broker and the channel layer reachable?"""

from __future__ import annotations

import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def _check_broker() -> str:
    if not settings.REDIS_URL:
        return "ok (embedded worker)"
    import redis

    redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping()
    return "ok"


def _check_channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = f"healthz.{uuid.uuid4().hex}"
    async_to_sync(layer.send)(channel, {"type": "healthz.ping"})
    async_to_sync(layer.receive)(channel)
    return "ok"


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {}
    healthy = True
    for name, check in (
        ("database", _check_database),
        ("broker", _check_broker),
        ("channel_layer", _check_channel_layer),
    ):
        try:
            checks[name] = check()
        except Exception as exc:  # a health check reports every failure, whatever its kind
            checks[name] = f"error: {type(exc).__name__}"
            healthy = False
    body = {
        "status": "ok" if healthy else "degraded",
        "shape": "embedded" if settings.EMBEDDED else "production",
        "checks": checks,
    }
    return JsonResponse(body, status=200 if healthy else 503)
