"""Latency and fault injection for the built-in carrier and gateway simulators.

Real providers are slow, time out and answer 5xx now and then; the simulators do the same so
retries, fallbacks and escalations can be exercised. Each simulator call first sleeps
``latency_ms``, then with probability ``fault_rate`` suffers one of ``kinds``:

* ``timeout``: raises ``ExternalServiceError(kind="timeout")`` (at once, without waiting out a
  client timeout, to keep tests fast);
* ``server_error``: raises ``ExternalServiceError(kind="server_error")`` (an HTTP 5xx);
* ``slow``: sleeps a further ``slow_ms`` and then answers normally.

With a ``seed`` the sequence of faults is deterministic within a process: one random
generator per (service, seed) lives as long as the process (``reset_fault_state`` forgets it).

Configuration, later layers overriding single fields of earlier ones:

1. ``settings.NETSHOP_CARRIER`` / ``settings.NETSHOP_GATEWAY`` (from ``NETSHOP_*_LATENCY_MS`` and
   ``NETSHOP_*_FAULT_RATE``);
2. the ``NETSHOP_FAULTS`` environment variable, read again on every call. It holds JSON keyed
   by service, e.g. ``{"gateway": {"fault_rate": 1, "kinds": ["timeout"],
   "operations": ["refund"]}}``, or ``@/path/to/faults.json`` naming a file with that JSON,
   also re-read on every call (a missing file means no override).

Across processes: a child process (a Celery worker or web server a test starts) inherits
``NETSHOP_FAULTS``; pointing it at a file lets a test change faults while that process runs,
by rewriting the file. A file per test keeps parallel test runs from disturbing one another,
which a shared Redis key would not.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from django.utils.module_loading import import_string

from netshop.errors import ExternalServiceError

logger = logging.getLogger(__name__)

ENV_VAR: Final = "NETSHOP_FAULTS"
FAULT_KINDS: Final = ("timeout", "server_error", "slow")


@dataclasses.dataclass(frozen=True)
class FaultConfig:
    """How one service misbehaves; ``operations`` empty means every operation."""

    latency_ms: int = 0
    fault_rate: float = 0.0
    kinds: tuple[str, ...] = FAULT_KINDS
    slow_ms: int = 1500
    seed: int | None = None
    operations: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 0.0 <= self.fault_rate <= 1.0:
            raise ValueError(f"fault_rate must be within 0..1, got {self.fault_rate}")
        unknown = set(self.kinds) - set(FAULT_KINDS)
        if unknown or not self.kinds:
            raise ValueError(f"fault kinds must be a non-empty subset of {FAULT_KINDS}")

    def updated(self, overrides: Mapping[str, Any]) -> FaultConfig:
        """This config with the known fields of ``overrides`` replaced (unknown keys ignored)."""
        fields = {f.name for f in dataclasses.fields(self)}
        changes = {key: _coerce(key, value) for key, value in overrides.items() if key in fields}
        return dataclasses.replace(self, **changes)

    def applies_to(self, operation: str) -> bool:
        return not self.operations or operation in self.operations


def _coerce(key: str, value: Any) -> Any:
    if key in ("kinds", "operations"):
        return tuple(value)
    if key in ("latency_ms", "slow_ms"):
        return int(value)
    if key == "fault_rate":
        return float(value)
    return None if value is None else int(value)


def runtime_overrides(service: str) -> Mapping[str, Any]:
    """The ``NETSHOP_FAULTS`` override for ``service`` as it stands right now."""
    raw = os.environ.get(ENV_VAR, "").strip()
    if raw.startswith("@"):
        try:
            raw = Path(raw[1:]).read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return {}
    if not raw:
        return {}
    overrides = json.loads(raw).get(service, {})
    if not isinstance(overrides, dict):
        raise ValueError(f"{ENV_VAR}[{service!r}] must be a JSON object")
    return overrides


_rngs: dict[tuple[str, int | None], random.Random] = {}
_rngs_lock = threading.Lock()


def _rng(service: str, seed: int | None) -> random.Random:
    with _rngs_lock:
        if (service, seed) not in _rngs:
            _rngs[(service, seed)] = random.Random(seed)  # noqa: S311 (simulation, not crypto)
        return _rngs[(service, seed)]


def reset_fault_state() -> None:
    """Forget the random generators, so a seeded sequence starts over (used by tests)."""
    with _rngs_lock:
        _rngs.clear()


class FaultInjector:
    """Applies a service's current fault configuration before each simulated call."""

    def __init__(
        self,
        service: str,
        base: Mapping[str, Any] | FaultConfig | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.service = service
        if isinstance(base, FaultConfig):
            self._base = base
        else:
            self._base = FaultConfig().updated(base or {})
        self._sleep = sleep

    def config(self) -> FaultConfig:
        """The configuration in force now: settings, then the runtime override."""
        return self._base.updated(runtime_overrides(self.service))

    def before(self, operation: str) -> None:
        """Wait out the latency, then maybe fail or answer slowly, as the config says."""
        config = self.config()
        if config.latency_ms:
            self._sleep(config.latency_ms / 1000)
        if not config.fault_rate or not config.applies_to(operation):
            return
        rng = _rng(self.service, config.seed)
        if rng.random() >= config.fault_rate:
            return
        self._inflict(rng.choice(config.kinds), operation, config)

    def _inflict(self, kind: str, operation: str, config: FaultConfig) -> None:
        logger.warning("injected %s fault on %s.%s", kind, self.service, operation)
        if kind == "slow":
            self._sleep(config.slow_ms / 1000)
            return
        detail = "no answer in time" if kind == "timeout" else "503 Service Unavailable"
        raise ExternalServiceError(self.service, kind, f"{operation}: {detail} (simulated)")


def configured_adapter(
    service: str, config: Mapping[str, Any], simulator: Callable[[FaultInjector], Any]
) -> Any:
    """The adapter a settings dict asks for: ``config["backend"]`` (a class path built with
    the remaining keys), else the built-in simulator with those keys as its fault settings.

    Built afresh on each call so settings overrides apply; seeded fault sequences survive
    because their random generators live here, not in the adapter.
    """
    options = dict(config)
    backend = options.pop("backend", None)
    if backend:
        return import_string(backend)(**options)
    return simulator(FaultInjector(service, options))
