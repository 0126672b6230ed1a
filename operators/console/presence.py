"""Who is looking at an escalation right now.

One set of viewers per escalation, keyed by socket: in Redis when the app runs as several
processes, in this process in the embedded shape. Presence is a courtesy, never a lock (the
claim is the lock), so a Redis hiccup only costs the list, and entries expire.
"""

from __future__ import annotations

import logging
from collections import defaultdict

import redis.asyncio as aioredis
from django.conf import settings
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

PRESENCE_TTL_S = 6 * 60 * 60
_local: defaultdict[str, dict[str, str]] = defaultdict(dict)


def viewers_group(escalation_id: object) -> str:
    """The channel-layer group of one escalation's open detail pages."""
    return f"console.viewers.{escalation_id}"


def _key(escalation_id: object) -> str:
    return f"netshop:console:viewers:{escalation_id}"


async def viewer_join(*, escalation_id: object, channel: str, username: str) -> list[str]:
    """Add one socket's viewer; returns everyone viewing now (names, sorted, once each)."""
    if not settings.REDIS_URL:
        _local[str(escalation_id)][channel] = username
        return _names(_local[str(escalation_id)].values())
    return await _redis(escalation_id, add=(channel, username))


async def viewer_leave(*, escalation_id: object, channel: str) -> list[str]:
    if not settings.REDIS_URL:
        viewers = _local[str(escalation_id)]
        viewers.pop(channel, None)
        if not viewers:
            _local.pop(str(escalation_id), None)
        return _names(viewers.values())
    return await _redis(escalation_id, remove=channel)


async def _redis(
    escalation_id: object, *, add: tuple[str, str] | None = None, remove: str | None = None
) -> list[str]:
    key = _key(escalation_id)
    client = aioredis.from_url(settings.REDIS_URL)
    try:
        async with client.pipeline(transaction=True) as pipe:
            if add is not None:
                pipe.hset(key, add[0], add[1])
                pipe.expire(key, PRESENCE_TTL_S)
            if remove is not None:
                pipe.hdel(key, remove)
            pipe.hvals(key)
            values = (await pipe.execute())[-1]
    except RedisError:
        logger.warning("presence of %s unavailable", escalation_id, exc_info=True)
        return [add[1]] if add else []
    finally:
        await client.aclose()
    return _names(v.decode() if isinstance(v, bytes) else str(v) for v in values)


def _names(names: object) -> list[str]:
    return sorted(set(names))  # type: ignore[call-overload]
