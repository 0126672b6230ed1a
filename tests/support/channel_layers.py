"""The real Redis channel layer for a test, under a prefix of its own.

Tests that listen to live events use the production layer on the test Redis; the prefix
keeps parallel test runs (and tests of one run) from hearing each other.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings as django_settings


def use_redis_channel_layer(settings: Any) -> None:
    """Point ``settings`` (pytest-django's, restored after the test) at its own layer."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [django_settings.REDIS_URL],
                "prefix": f"test-{uuid.uuid4().hex}",
            },
        }
    }


def listener(group: str) -> str:
    """A fresh channel joined to ``group``, as a socket's would be; read it with ``heard``."""
    layer = get_channel_layer()

    async def join() -> str:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        return str(channel)

    return async_to_sync(join)()


def heard(channel: str, *, quiet_for: float = 0.3) -> list[dict[str, Any]]:
    """Every message ``channel`` received, as sent, until it stays quiet ``quiet_for`` seconds.

    Read a channel once: channels-redis binds its buffer to the loop that first reads it.
    """
    layer = get_channel_layer()

    async def drain() -> list[dict[str, Any]]:
        received = []
        while True:
            try:
                received.append(await asyncio.wait_for(layer.receive(channel), quiet_for))
            except TimeoutError:
                return received

    return async_to_sync(drain)()
