"""Which hosts a webhook may go to: global addresses only, however the host is spelled.

Address literals are read as the system resolver reads them (``2130706433`` and ``0x7f.1`` are
127.0.0.1); names are resolved by the tests' resolver (``dns``), which knows only what a test
tells it.
"""

from __future__ import annotations

import ipaddress
import socket

import pytest

from netshop.webhooks.destinations import (
    DestinationRefusedError,
    is_public,
    literal_address,
    public_addresses,
)
from tests.support.fake_dns import FakeDns

PUBLIC = "93.184.215.14"
PUBLIC6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("10.258", "10.0.1.2"),
        ("169.254.43518", "169.254.169.254"),
        ("0", "0.0.0.0"),  # noqa: S104 (an address to refuse, not one to bind)
        ("127.0.0.1.", "127.0.0.1"),
        ("[::1]", "::1"),
        ("::ffff:127.0.0.1", "::ffff:7f00:1"),
        ("[fe80::1%25eth0]", "fe80::1"),
    ],
)
def test_an_address_literal_is_read_as_the_resolver_reads_it(host: str, address: str) -> None:
    assert literal_address(host) == ipaddress.ip_address(address)


@pytest.mark.parametrize(
    "host", ["shop.example", "0x7g.1", "1.2.3.4.5", "256.1.1.1", "09.1.1.1", ""]
)
def test_a_name_is_no_address_literal(host: str) -> None:
    assert literal_address(host) is None


def test_the_literal_reading_agrees_with_the_system_resolver() -> None:
    for host in ["2130706433", "0x7f.1", "0177.0.0.1", "127.1", "10.258", "169.254.43518"]:
        [info, *_] = socket.getaddrinfo(host, 80, flags=socket.AI_NUMERICHOST)
        assert literal_address(host) == ipaddress.ip_address(info[4][0])


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "0.0.0.0",  # noqa: S104 (an address to refuse, not one to bind)
        "10.1.2.3",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.1.10",
        "169.254.169.254",
        "100.64.0.1",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fc00::1",
        "fd12:3456::1",
        "fe80::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:169.254.169.254",
        "2002:7f00:1::",  # 6to4 carrying 127.0.0.1
    ],
)
def test_loopback_private_link_local_and_other_internal_addresses_are_not_public(
    address: str,
) -> None:
    assert not is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", [PUBLIC, PUBLIC6, "::ffff:" + PUBLIC, "8.8.8.8"])
def test_global_addresses_are_public(address: str) -> None:
    assert is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("localhost", "localhost"),
        ("LocalHost.", "localhost"),
        ("api.localhost", "api.localhost"),
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("169.254.169.254", "169.254.169.254"),
        ("::1", "::1"),
    ],
)
def test_a_host_that_is_internal_is_refused_without_asking_dns(
    host: str, address: str, dns: FakeDns
) -> None:
    with pytest.raises(DestinationRefusedError) as refused:
        public_addresses(host, 443)

    assert (refused.value.host, refused.value.address) == (host, address)
    assert dns.calls == []


@pytest.mark.parametrize(
    ("answers", "address"),
    [
        (["127.0.0.1"], "127.0.0.1"),
        (["10.0.0.5"], "10.0.0.5"),
        (["169.254.169.254"], "169.254.169.254"),
        (["fd00::5"], "fd00::5"),
        ([PUBLIC, "192.168.0.7"], "192.168.0.7"),  # one internal answer among public ones
    ],
)
def test_a_name_resolving_to_an_internal_address_is_refused(
    answers: list[str], address: str, dns: FakeDns
) -> None:
    dns.answer("hooks.shop.test", *answers)

    with pytest.raises(DestinationRefusedError) as refused:
        public_addresses("hooks.shop.test", 443)

    assert str(refused.value) == (
        f"hooks.shop.test resolves to {address}, which is not a public address"
    )


def test_a_name_resolving_to_public_addresses_gives_them_all(dns: FakeDns) -> None:
    dns.answer("hooks.shop.test", PUBLIC, PUBLIC6)

    assert public_addresses("hooks.shop.test", 443) == [
        ipaddress.ip_address(PUBLIC),
        ipaddress.ip_address(PUBLIC6),
    ]


def test_a_name_resolving_to_nothing_is_a_resolver_error(dns: FakeDns) -> None:
    with pytest.raises(socket.gaierror):
        public_addresses("nowhere.shop.test", 443)
