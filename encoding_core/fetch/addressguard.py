"""Address guard: which addresses a fetch may connect to.

A diagnostic fetch of a URL someone typed must not reach the machine it runs on, its network or
a cloud metadata service (server-side request forgery). The guard works in three steps, on the
first request and again on every redirect hop:

1. **Host to addresses.** An IP literal (IPv6 in brackets, IPv4 in any spelling the WHATWG URL
   parser accepts: ``2130706433``, ``0x7f.1``, ``127.1``, ``0177.0.0.1``) is parsed here;
   a name is resolved once with ``getaddrinfo``.
2. **Classify.** Every address is checked against the blocked ranges: loopback, private,
   link-local (``169.254.169.254``), shared (``100.64.0.0/10``), multicast, reserved,
   unspecified, and anything else not globally routable; IPv6 forms that carry an IPv4 address
   (IPv4-mapped, NAT64 ``64:ff9b::/96``, 6to4) are judged by that IPv4 address. Networks listed
   in ``allowed_networks`` are opened on purpose (an intranet host under triage).
3. **Pin.** Connections go only to the checked addresses: ``pinned_transport.py``
   (``PinnedBackend``, ``PinnedTransport``, re-exported here).

It errs on the side of refusing: a name is refused when *any* of its addresses is blocked.

Differences from the WHATWG URL Standard (https://url.spec.whatwg.org/):

======================================  =====================================================
WHATWG                                  here
======================================  =====================================================
host parser percent-decodes, then       the host is percent-decoded and parsed as IPv4 from
applies IDNA ToASCII, then the IPv4     the string httpx produced (already IDNA-encoded by
parser                                  httpx's own rules)
an IPv4 spelling httpx refuses          refused as an invalid URL before the guard runs
(``127.000.000.001``) is valid          (safe: nothing is fetched)
======================================  =====================================================
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import unquote

from ..errors import FetchError
from .pinned_transport import PinnedBackend, PinnedTransport

__all__ = [
    "BlockedAddressError",
    "NameNotFoundError",
    "PinnedBackend",
    "PinnedTransport",
    "blocked_reason",
    "check_host",
    "ends_in_a_number",
    "host_literal",
    "parse_ipv4",
    "parse_networks",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_SHARED = ipaddress.IPv4Network("100.64.0.0/10")
_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))


class BlockedAddressError(FetchError):
    """The host is, or resolves to, an address the guard refuses."""


class NameNotFoundError(FetchError):
    """The host name could not be resolved."""


def _ipv4_number(part: str) -> int | None:
    """WHATWG "IPv4 number parser": decimal, ``0x`` hex or leading-``0`` octal; None on failure."""
    if not part:
        return None
    radix = 10
    if part[:2] in ("0x", "0X"):
        radix, part = 16, part[2:]
    elif len(part) >= 2 and part[0] == "0":
        radix, part = 8, part[1:]
    if not part:
        return 0
    digits = "0123456789abcdef"[:radix]
    if not all(c in digits for c in part.lower()):
        return None
    return int(part, radix)


def ends_in_a_number(host: str) -> bool:
    """WHATWG "ends in a number checker": https://url.spec.whatwg.org/#ends-in-a-number-checker.

    >>> ends_in_a_number("127.1"), ends_in_a_number("0x7f.1"), ends_in_a_number("example.com")
    (True, True, False)
    """
    parts = host.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if last and last.isascii() and last.isdigit():
        return True
    return _ipv4_number(last) is not None


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """WHATWG "IPv4 parser": https://url.spec.whatwg.org/#concept-ipv4-parser.

    Returns None when the host does not end in a number (it is a domain); raises ValueError
    when it does but is not a valid IPv4 address (the URL Standard fails such URLs).

    >>> parse_ipv4("2130706433"), parse_ipv4("0x7f.1"), parse_ipv4("127.1")
    (IPv4Address('127.0.0.1'), IPv4Address('127.0.0.1'), IPv4Address('127.0.0.1'))
    >>> parse_ipv4("example.com") is None
    True
    """
    if not ends_in_a_number(host):
        return None
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4:
        raise ValueError(f"not an IPv4 address: {host!r} (more than four parts)")
    numbers = [_ipv4_number(p) for p in parts]
    if any(n is None for n in numbers):
        raise ValueError(f"not an IPv4 address: {host!r}")
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        raise ValueError(f"not an IPv4 address: {host!r} (a part is out of range)")
    ipv4 = values[-1]
    for i, n in enumerate(values[:-1]):
        ipv4 += n * 256 ** (3 - i)
    return ipaddress.IPv4Address(ipv4)


def host_literal(host: str) -> IPAddress | None:
    """The address a host spells directly (IPv6, or IPv4 in any WHATWG form), or None for a name.

    Raises ValueError for a host that looks numeric but is no valid address.

    >>> host_literal("[::1]"), host_literal("%31%32%37.0.0.1"), host_literal("example.org")
    (IPv6Address('::1'), IPv4Address('127.0.0.1'), None)
    """
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if ":" in host:
        return ipaddress.IPv6Address(unquote(host).split("%", 1)[0])  # zone id dropped
    return parse_ipv4(unquote(host))


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (IPv4-mapped, NAT64, 6to4), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if any(address in net for net in _NAT64):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.sixtofour


def blocked_reason(address: IPAddress) -> str | None:
    """Why the guard refuses ``address`` (a few words), or None when it is globally routable.

    >>> blocked_reason(ipaddress.ip_address("169.254.169.254"))
    'link-local (cloud metadata services live here)'
    >>> blocked_reason(ipaddress.ip_address("::ffff:10.0.0.1"))
    'private (IPv6 form of 10.0.0.1)'
    >>> blocked_reason(ipaddress.ip_address("93.184.216.34")) is None
    True
    """
    if isinstance(address, ipaddress.IPv6Address):
        inner = _embedded_ipv4(address)
        if inner is not None:
            reason = blocked_reason(inner)
            return None if reason is None else f"{reason} (IPv6 form of {inner})"
    checks = (
        (address.is_unspecified, "unspecified"),
        (address.is_loopback, "loopback (this machine)"),
        (address.is_link_local, "link-local (cloud metadata services live here)"),
        (address.is_multicast, "multicast"),
        (isinstance(address, ipaddress.IPv4Address) and address in _SHARED,
         "shared address space (carrier-grade NAT, 100.64.0.0/10)"),
        (address.is_private and not address.is_reserved, "private"),
        (address.is_reserved, "reserved"),
        (not address.is_global, "not globally routable"),
    )
    return next((reason for hit, reason in checks if hit), None)


def parse_networks(networks: Iterable[str]) -> tuple[IPNetwork, ...]:
    """Parse ``allowed_networks`` entries (``"127.0.0.2/32"``, ``"10.1.0.0/16"``, ``"::1"``).

    >>> parse_networks(["127.0.0.2/32"])
    (IPv4Network('127.0.0.2/32'),)
    """
    parsed = []
    for text in networks:
        try:
            parsed.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError as exc:
            raise ValueError(f"allowed_networks: {text!r} is not a network ({exc})") from exc
    return tuple(parsed)


def _is_allowed(address: IPAddress, allowed: Sequence[IPNetwork]) -> bool:
    forms: list[IPAddress] = [address]
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        forms.append(address.ipv4_mapped)
    return any(form.version == net.version and form in net for form in forms for net in allowed)


def _resolve(host: str, port: int, timeout: float) -> list[IPAddress]:
    """``getaddrinfo`` with a time limit (the system resolver has none of its own)."""
    result: list[Any] = []
    error: list[BaseException] = []

    def lookup() -> None:
        try:
            result.extend(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:
            error.append(exc)

    worker = threading.Thread(target=lookup, name=f"resolve {host}", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise NameNotFoundError(
            f"looking up {host!r} took longer than {timeout:g} s: the DNS server is slow or "
            "unreachable; try again, or check this machine's DNS settings"
        )
    if error:
        detail = error[0].strerror if isinstance(error[0], OSError) else str(error[0])
        raise NameNotFoundError(
            f"could not resolve host {host!r} ({detail}): check the spelling of the host name, "
            "or whether this machine can reach a DNS server"
        ) from error[0]
    addresses: list[IPAddress] = []
    for *_, sockaddr in result:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


def check_host(host: str, port: int, allowed: Sequence[IPNetwork] = (), *,
               timeout: float = 10.0) -> tuple[str, ...]:
    """The addresses of ``host`` a fetch may connect to, in resolver order.

    Raises ``BlockedAddressError`` when any address is blocked and not allowed, and
    ``NameNotFoundError`` when the name does not resolve.
    """
    literal = host_literal(host)
    addresses = [literal] if literal is not None else _resolve(unquote(host), port, timeout)
    if not addresses:
        raise NameNotFoundError(f"host {host!r} has no addresses")
    for address in addresses:
        reason = blocked_reason(address)
        if reason is not None and not _is_allowed(address, allowed):
            via = "" if literal is not None else f" (resolves to {address})"
            raise BlockedAddressError(
                f"refusing to fetch {host}{via}: the address is {reason}. Fetching it could reach "
                "this machine or its network. To triage an intranet host on purpose, allow its "
                f"network: in the app, set ENCODING_TRIAGE_ALLOWED_NETWORKS={address}/"
                f"{address.max_prefixlen} (or allowed_networks in the [fetch] section of "
                f".streamlit/secrets.toml); on the command line, add --allow "
                f"{address}/{address.max_prefixlen}"
            )
    return tuple(str(a) for a in addresses)
