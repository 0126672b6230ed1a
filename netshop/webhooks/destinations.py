"""Where a webhook may go: only to globally reachable addresses.

Whoever sets a storefront token's callback URL chooses where the workers send POSTs. Left
unchecked, that points them at the machine itself (``127.0.0.1``: the server, Redis,
PostgreSQL), the private network, or the cloud's metadata service (``169.254.169.254``):
server-side request forgery. So a callback host must be, or resolve only to, global
addresses: refused when the URL is saved (a clear error), and checked again at every
connection, on the very address connected to, because a name that resolved to a public
address when it was saved may resolve to loopback when a worker sends (DNS rebinding).

``NETSHOP_WEBHOOK_ALLOW_PRIVATE`` lifts the check: a receiver on the developer's own machine,
the tests' local receiver, the benchmarks.
"""

from __future__ import annotations

import ipaddress
import re
import socket

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# One part of an IPv4 address as the C library's inet_aton reads it (and so getaddrinfo, and
# so the connection): hex with 0x, octal with a leading 0, else decimal.
_INET_ATON_PART = re.compile(r"0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*")


class DestinationRefusedError(Exception):
    """``host`` is, or resolves to, ``address``, which webhooks may not go to."""

    # Not a frozen dataclass: raising sets ``__traceback__`` on it (contextlib does).
    def __init__(self, *, host: str, address: str) -> None:
        super().__init__(host, address)
        self.host, self.address = host, address

    def __str__(self) -> str:
        if self.host == self.address:
            return f"{self.host} is not a public address"
        return f"{self.host} resolves to {self.address}, which is not a public address"


def literal_address(host: str) -> IPAddress | None:
    """The address ``host`` spells, in any spelling the system resolver reads as one
    (``127.0.0.1``, ``[::1]``, ``2130706433``, ``0x7f.1``, ``0177.0.0.1``); ``None`` for a name.
    """
    host = host.strip("[]").rstrip(".").lower()
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])  # a zone id names no address
        except ValueError:
            return None
    return _inet_aton(host)


def _inet_aton(host: str) -> ipaddress.IPv4Address | None:
    """``a.b.c.d``, ``a.b.c`` (c is 16 bits), ``a.b`` (b is 24 bits) or ``a`` (32 bits)."""
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(_INET_ATON_PART.fullmatch(p) for p in parts):
        return None
    *head, last = [_aton_number(part) for part in parts]
    if any(number > 0xFF for number in head) or last >= 1 << (8 * (5 - len(parts))):
        return None
    value = last
    for index, number in enumerate(head):
        value |= number << (24 - 8 * index)
    return ipaddress.IPv4Address(value)


def _aton_number(part: str) -> int:
    if part.startswith("0x"):
        return int(part[2:] or "0", 16)
    return int(part, 8) if part.startswith("0") else int(part)


def is_public(address: IPAddress) -> bool:
    """Globally reachable, and so is any IPv4 address it carries (mapped, 6to4, Teredo)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return is_public(address.ipv4_mapped)
        carried = [address.sixtofour, *(address.teredo or ())]
        if any(v4 is not None and not is_public(v4) for v4 in carried):
            return False
    return address.is_global and not address.is_multicast


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to (the system resolver; ``socket.gaierror`` if none)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses = (ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos)
    return list(dict.fromkeys(addresses))


def public_addresses(host: str, port: int) -> list[IPAddress]:
    """The addresses to connect to for ``host``: all of them public, else refused.

    ``localhost`` and its subdomains are loopback by definition (RFC 6761) and refused
    unresolved; an address literal is judged as spelled; a name is resolved, and one
    non-public address among its answers refuses it (the answer order is the resolver's).
    Raises ``DestinationRefusedError``, or ``socket.gaierror`` when a name resolves to nothing.
    """
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        raise DestinationRefusedError(host=host, address=name)
    literal = literal_address(name)
    addresses = [literal] if literal is not None else resolve(name, port)
    for address in addresses:
        if not is_public(address):
            raise DestinationRefusedError(host=host, address=str(address))
    return addresses
