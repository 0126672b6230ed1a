"""The Celery broker transport: kombu's Redis transport, surviving a broker restart.

When the broker goes away, Celery's consumer (5.7) collects the connection, which empties its
transport, and then closes it; tasks still running on the worker's threads acknowledge their
messages through it as they finish. Either reaches kombu's Redis channel with no connection
behind it, which fails with an AttributeError ("'NoneType' object has no attribute
'hostname'"): not a connection error, so the worker stops for good. Here that case is the
connection error it is, which Celery already handles: the close is skipped, a late
acknowledgement is logged as lost (the message comes back after the visibility timeout, and
runs are idempotent), and the consumer reconnects.
"""

from __future__ import annotations

from typing import Any

import redis
from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> Any:
        if self.connection.client is None:
            raise redis.ConnectionError("the broker connection was collected after it was lost")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
