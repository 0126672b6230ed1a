"""A resolver for tests, which have no DNS: ``socket.getaddrinfo`` answers the names a test
gives it, passes address literals to the real resolver, and knows no other name.

Patched at ``socket.getaddrinfo`` so that everything resolving through the standard library
(the product's checks, httpx's connections) sees the same answers; ``calls`` lists the names
asked, in order.
"""

from __future__ import annotations

import socket
from typing import Any

_real_getaddrinfo = socket.getaddrinfo


class FakeDns:
    """``dns.answer("hooks.shop.test", "93.184.215.14")``: from now on the name resolves so."""

    def __init__(self) -> None:
        self.names: dict[str, list[str]] = {}
        self.calls: list[str] = []
        self._later: dict[str, list[str]] = {}

    def answer(self, name: str, *addresses: str) -> None:
        self.names[name] = list(addresses)
        self._later.pop(name, None)

    def rebind(self, name: str, first: str, later: str) -> None:
        """``name`` resolves to ``first`` once, then to ``later`` (DNS rebinding, TTL 0)."""
        self.names[name], self._later[name] = [first], [later]

    def getaddrinfo(
        self, host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0
    ) -> list[Any]:
        name = host.decode() if isinstance(host, bytes) else str(host)
        try:
            return _real_getaddrinfo(host, port, family, type, proto, flags | socket.AI_NUMERICHOST)
        except socket.gaierror:
            pass  # a name, not an address
        self.calls.append(name)
        if name not in self.names:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        addresses = self.names[name]
        if name in self._later:
            self.names[name] = self._later.pop(name)
        return [
            info
            for address in addresses
            for info in _real_getaddrinfo(address, port, family, type, proto, socket.AI_NUMERICHOST)
        ]
