"""Tests for encoding_core.fetch.addressguard: numeric spellings, blocked ranges, checked hosts."""

from __future__ import annotations

import ipaddress

import pytest

from encoding_core.errors import FetchError
from encoding_core.fetch import addressguard, pinned_transport
from encoding_core.fetch.addressguard import (
    BlockedAddressError,
    NameNotFoundError,
    blocked_reason,
    check_host,
    ends_in_a_number,
    host_literal,
    parse_ipv4,
    parse_networks,
)

IPV4_SPELLINGS = [
    ("2130706433", "127.0.0.1"),
    ("0x7f.1", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"),
    ("0X7F.0.0.1", "127.0.0.1"),
    ("127.0.0.1.", "127.0.0.1"),
    ("0x", "0.0.0.0"),
    ("1.256", "1.0.1.0"),
    ("169.254.43518", "169.254.169.254"),
    ("10.0.0.1", "10.0.0.1"),
]


@pytest.mark.parametrize(("host", "expected"), IPV4_SPELLINGS, ids=[h for h, _ in IPV4_SPELLINGS])
def test_parse_ipv4_whatwg_spellings(host: str, expected: str) -> None:
    """Every IPv4 spelling the WHATWG parser accepts gives the address it means."""
    assert parse_ipv4(host) == ipaddress.IPv4Address(expected)


INVALID_IPV4 = ["1.2.3.4.5", "256.0.0.1", "08", "foo.0x", "1.2.3.09", "4294967296", "1.2.3.256"]


@pytest.mark.parametrize("host", INVALID_IPV4, ids=INVALID_IPV4)
def test_parse_ipv4_rejects_invalid_numbers(host: str) -> None:
    """A host that ends in a number but is no valid IPv4 address is refused."""
    with pytest.raises(ValueError, match="not an IPv4 address"):
        parse_ipv4(host)


DOMAINS = ["example.com", "1.2.3.foo", "localhost", "0x7g.example", "xn--caf-dma.fr", "."]


@pytest.mark.parametrize("host", DOMAINS, ids=DOMAINS)
def test_domains_are_not_numeric(host: str) -> None:
    """A host that does not end in a number is a domain, not an address."""
    assert not ends_in_a_number(host)
    assert parse_ipv4(host) is None


def test_host_literal_handles_brackets_and_percent_encoding() -> None:
    """IPv6 in brackets, zone ids and percent-encoded IPv4 are literals."""
    assert host_literal("[::1]") == ipaddress.IPv6Address("::1")
    assert host_literal("fe80::1%25eth0") == ipaddress.IPv6Address("fe80::1")
    assert host_literal("%31%32%37.1") == ipaddress.IPv4Address("127.0.0.1")
    assert host_literal("example.org") is None


BLOCKED = [
    ("127.0.0.1", "loopback"),
    ("127.0.0.2", "loopback"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("192.168.1.1", "private"),
    ("169.254.169.254", "link-local"),
    ("100.64.0.1", "shared address space"),
    ("100.127.255.254", "shared address space"),
    ("224.0.0.1", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),
    ("0.0.0.0", "unspecified"),
    ("192.0.2.1", "private"),
    ("::1", "loopback"),
    ("::", "unspecified"),
    ("fe80::1", "link-local"),
    ("fc00::1", "private"),
    ("fd00::2", "private"),
    ("ff02::1", "multicast"),
    ("::ffff:127.0.0.1", "loopback"),
    ("::ffff:169.254.169.254", "link-local"),
    ("64:ff9b::a9fe:a9fe", "link-local"),
    ("2002:7f00:1::", "loopback"),
    ("::127.0.0.1", "reserved"),
    ("2001:db8::1", "private"),
]


@pytest.mark.parametrize(("address", "reason"), BLOCKED, ids=[a for a, _ in BLOCKED])
def test_blocked_ranges(address: str, reason: str) -> None:
    """Loopback, private, link-local, shared, multicast, reserved, unspecified and IPv6 forms."""
    found = blocked_reason(ipaddress.ip_address(address))
    assert found is not None and found.startswith(reason)


PUBLIC = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700::1111", "::ffff:8.8.8.8"]


@pytest.mark.parametrize("address", PUBLIC, ids=PUBLIC)
def test_public_addresses_pass(address: str) -> None:
    """Globally routable addresses are not blocked."""
    assert blocked_reason(ipaddress.ip_address(address)) is None


def test_check_host_refuses_loopback_names_and_spellings() -> None:
    """Names and numeric spellings of loopback are refused with an actionable message."""
    for host in ("localhost", "2130706433", "0x7f.1", "127.1", "::1", "::ffff:7f00:1"):
        with pytest.raises(BlockedAddressError, match="allowed_networks"):
            check_host(host, 80)


def test_check_host_allows_chosen_networks_only() -> None:
    """allowed_networks opens exactly the networks listed, also for IPv4-mapped forms."""
    allowed = parse_networks(["127.0.0.2/32"])
    assert check_host("127.0.0.2", 80, allowed) == ("127.0.0.2",)
    assert check_host("::ffff:127.0.0.2", 80, allowed) == ("::ffff:7f00:2",)
    with pytest.raises(BlockedAddressError):
        check_host("127.0.0.1", 80, allowed)
    assert check_host("localhost", 80, parse_networks(["127.0.0.0/8", "::1"])) != ()


def test_check_host_unknown_name() -> None:
    """A name that does not resolve is a NameNotFoundError, itself a FetchError."""
    with pytest.raises(NameNotFoundError, match="check the spelling"):
        check_host("no-such-host.invalid", 80, timeout=5)
    assert issubclass(NameNotFoundError, FetchError)
    assert issubclass(BlockedAddressError, FetchError)


def test_parse_networks_names_bad_entry() -> None:
    """A malformed allowed network is a ValueError naming the entry."""
    with pytest.raises(ValueError, match=r"'10\.0\.0\.0/33'"):
        parse_networks(["10.0.0.0/33"])


def test_pinned_names_stay_importable_from_addressguard() -> None:
    """PinnedBackend and PinnedTransport, now in pinned_transport, are re-exported unchanged."""
    assert addressguard.PinnedBackend is pinned_transport.PinnedBackend
    assert addressguard.PinnedTransport is pinned_transport.PinnedTransport
    assert {"PinnedBackend", "PinnedTransport"} <= set(addressguard.__all__)


def test_refusal_names_the_setting_the_readme_documents():
    """A refusal says how to allow the network in the app (the environment variable the README
    documents, or secrets.toml) and on the command line, for the address refused."""
    with pytest.raises(BlockedAddressError) as refused:
        check_host("10.1.2.3", 80)
    message = str(refused.value)
    assert "ENCODING_TRIAGE_ALLOWED_NETWORKS=10.1.2.3/32" in message
    assert ".streamlit/secrets.toml" in message and "--allow 10.1.2.3/32" in message
    assert "(app config)" not in message
