"""Settings of the sandbox process: the product's own, with every way out closed.

The child that runs a simulation starts with ``DJANGO_SETTINGS_MODULE`` pointing here and
``DATABASE_URL`` at the sandbox database (``agents.simulation.sandbox.database``); the parent
gives it no ``REDIS_URL``, its own audit key and anchor file. On top of that:

- mail stays in memory (``locmem``), whatever ``EMAIL_HOST`` says;
- tasks (runs, webhook deliveries, notifications) go to Celery's in-memory broker, which no
  worker reads: nothing is delivered, nothing runs behind the simulation's back;
- live events go to an in-memory channel layer, caches are the process's own;
- the carrier and the gateway are the built-in simulators, without latency or faults.

It refuses to start on a database whose name does not end in ``SANDBOX_SUFFIX``: a wrong
environment must not seed the demo over a shop.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from agents.simulation.sandbox.naming import SANDBOX_SUFFIX
from netshop.settings import *  # noqa: F403  (the product's settings, then the overrides)
from netshop.settings import DATABASES

if not str(DATABASES["default"].get("NAME", "")).endswith(SANDBOX_SUFFIX):
    raise ImproperlyConfigured(f"the sandbox runs only on a database named *{SANDBOX_SUFFIX}")

NETSHOP_SANDBOX = True
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
EMAIL_HOST = ""
NETSHOP_EMBEDDED_WORKER = False  # tasks are sent, to a broker nobody reads
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT = ""  # kombu picks the transport from the URL
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CACHES = {
    name: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": name}
    for name in ("default", "throttle", "runs")
}
NETSHOP_CARRIER = {"latency_ms": 0, "fault_rate": 0.0}
NETSHOP_GATEWAY = {"latency_ms": 0, "fault_rate": 0.0}
NETSHOP_AUDIT_ANCHOR_SINK = "netshop.audit.anchors.FileAnchorSink"
