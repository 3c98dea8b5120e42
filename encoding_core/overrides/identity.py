"""Who acts on the overrides file, and how that was verified.

An approval means something only when the approver is who they say (issue 22). An
``Identity`` is a name as recorded in the file plus how it was established:

* ``oidc``: the signed-in user of the app's OpenID Connect sign-in (Streamlit's ``st.login``);
  the issuer and subject (``iss``, ``sub`` of the ID token) are recorded with the name;
* ``proxy``: a trusted header set by an authenticating proxy, honoured only when the
  connection comes from one of the configured proxy addresses (``proxy_identity``);
* ``unverified``: a typed name (the CLI, or the app without sign-in). It is recorded and
  shown as unverified everywhere, and an unverified approval or renewal is refused where
  ``unverified_refusal`` says so (the app served beyond loopback).

The app's settings (``[overrides]`` in ``.streamlit/secrets.toml``) are read by
``identity_settings``: a malformed value is reported with the expected form and ignored,
never fatal to the page.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "FORWARDING_HEADERS",
    "SIGN_IN_HELP",
    "Identity",
    "IdentitySettings",
    "Verified",
    "identity_settings",
    "oidc_identity",
    "proxy_identity",
    "unverified_refusal",
]

#: Headers a reverse proxy adds: their presence means the browser is not on this machine.
FORWARDING_HEADERS = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip")

SIGN_IN_HELP = (
    "configure sign-in: an OpenID Connect provider in the [auth] section of "
    ".streamlit/secrets.toml (Streamlit's st.login), or, behind an authenticating proxy, "
    "trusted_header and trusted_proxies in its [overrides] section (see the README, "
    "\"Who approves\")")


class Verified(StrEnum):
    """How the name of the person acting was established."""

    OIDC = "oidc"
    PROXY = "proxy"
    UNVERIFIED = "unverified"


@dataclass(frozen=True, slots=True)
class Identity:
    """A person acting on the overrides file: the name recorded, and how it was verified.

    ``issuer``/``subject`` are the OpenID Connect ``iss``/``sub`` (``oidc``);
    ``header``/``proxy`` the trusted header and the proxy address it came from (``proxy``).
    """

    name: str
    via: Verified = Verified.UNVERIFIED
    issuer: str | None = None
    subject: str | None = None
    header: str | None = None
    proxy: str | None = None

    @classmethod
    def typed(cls, name: str) -> Identity:
        """A name someone typed: nothing verifies it."""
        return cls(name)

    @property
    def verified(self) -> bool:
        """True for a sign-in or a trusted proxy header."""
        return self.via is not Verified.UNVERIFIED

    def how(self) -> str:
        """How the name was verified, in a few words.

        >>> Identity("bob", Verified.OIDC, "http://127.0.0.1:9000", "bob").how()
        'oidc: http://127.0.0.1:9000 sub=bob'
        >>> Identity.typed("mallory").how()
        'unverified: a typed name'
        """
        if self.via is Verified.OIDC:
            return f"oidc: {self.issuer} sub={self.subject}"
        if self.via is Verified.PROXY:
            return f"proxy: {self.header} from {self.proxy}"
        return "unverified: a typed name"

    def same_account(self, other: Identity | None) -> bool:
        """True when both are verified accounts of one issuer with the same subject."""
        return (other is not None and self.via is Verified.OIDC and other.via is Verified.OIDC
                and self.subject is not None and (self.issuer, self.subject)
                == (other.issuer, other.subject))


def oidc_identity(claims: Mapping[str, Any]) -> Identity | None:
    """The signed-in user from ID-token claims (``st.user``), or None when not signed in.

    - the name is ``email``, else ``preferred_username``, else ``name``, else ``sub``;
    - ``iss`` and ``sub`` are recorded; without ``sub`` nobody is signed in.
    """
    if not claims.get("is_logged_in") or not claims.get("sub"):
        return None
    name = next((str(claims[k]).strip() for k in ("email", "preferred_username", "name", "sub")
                 if claims.get(k) and str(claims[k]).strip()), "")
    return Identity(name, Verified.OIDC, str(claims.get("iss") or "") or None,
                    str(claims["sub"]))


@dataclass(frozen=True, slots=True)
class IdentitySettings:
    """The ``[overrides]`` settings: a trusted header and the proxies it is honoured from."""

    trusted_header: str | None = None
    trusted_proxies: tuple[str, ...] = ()


def _networks(values: tuple[str, ...]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(v, strict=False) for v in values]


def identity_settings(section: Mapping[str, Any]) -> tuple[IdentitySettings, tuple[str, ...]]:
    """The settings from an ``[overrides]`` section, and what was wrong with it.

    A bad value is left out (the header is then not honoured) and described, with the
    form expected, so the page can say so and go on. ``trusted_proxies`` is a list of
    addresses or networks; one string is read as a one-item list.

    >>> identity_settings({"trusted_header": "X-Auth-Email", "trusted_proxies": "10.0.0.5"})
    (IdentitySettings(trusted_header='X-Auth-Email', trusted_proxies=('10.0.0.5',)), ())
    >>> print(identity_settings({"trusted_proxies": ["proxy.local"]})[1][0][:63])
    [overrides] trusted_proxies: 'proxy.local' is not an IP address
    """
    problems: list[str] = []
    header = section.get("trusted_header")
    if header is not None and (not isinstance(header, str) or not header.strip()
                               or any(ch.isspace() or ch == ":" for ch in header.strip())):
        problems.append(f"[overrides] trusted_header: {header!r} is not a header name; "
                        'write trusted_header = "X-Forwarded-Email"')
        header = None
    raw = section.get("trusted_proxies", [])
    proxies: tuple[str, ...] = ()
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list | tuple) or not all(isinstance(i, str) for i in items):
        problems.append(f"[overrides] trusted_proxies: {raw!r} is not a list of addresses; "
                        'write trusted_proxies = ["10.0.0.5", "10.1.0.0/16"]')
    else:
        for item in items:
            try:
                _networks((item.strip(),))
            except ValueError:
                problems.append(f"[overrides] trusted_proxies: {item!r} is not an IP address "
                                'or network; write trusted_proxies = ["10.0.0.5", '
                                '"10.1.0.0/16"]')
            else:
                proxies += (item.strip(),)
    if header and not proxies:
        problems.append("[overrides] trusted_header is set but trusted_proxies lists no "
                        "proxy address, so the header is never honoured")
    unknown = sorted(set(section) - {"trusted_header", "trusted_proxies"})
    if unknown:
        problems.append("[overrides] unknown setting(s) " + ", ".join(map(repr, unknown))
                        + "; expected trusted_header, trusted_proxies")
    return IdentitySettings(header.strip() if isinstance(header, str) else None, proxies), \
        tuple(problems)


def _address(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address((text or "").strip().strip("[]"))
    except ValueError:
        return None


def proxy_identity(headers: Mapping[str, str], peer: str | None, settings: IdentitySettings
                   ) -> Identity | None:
    """The user named by the trusted header, when the connection comes from a trusted proxy.

    - no trusted header configured, or the header is absent or empty: None;
    - ``peer`` (the connection's address; None stands for loopback, as Streamlit reports it)
      not in ``trusted_proxies``: None, whatever the header says.
    """
    if not settings.trusted_header:
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    value = (lower.get(settings.trusted_header.lower()) or "").strip()
    address = _address(peer if peer is not None else "127.0.0.1")
    if not value or address is None:
        return None
    if not any(address in net for net in _networks(settings.trusted_proxies)):
        return None
    return Identity(value, Verified.PROXY, header=settings.trusted_header, proxy=str(address))


def unverified_refusal(bind_address: str | None, peer: str | None,
                       headers: Mapping[str, str]) -> str | None:
    """Why an unverified approval is refused here, or None when it is allowed.

    Allowed only while the app is one person's on their own machine:

    - the server listens on a loopback address only (``server.address`` is 127.0.0.1,
      another 127.x address, ::1 or localhost, as ``make run`` sets it);
    - the browser is on this machine: the connection's peer is a loopback address
      (``peer`` None, as Streamlit reports it) and no proxy forwarding header is present.
    """
    bind = (bind_address or "").strip()
    address = _address(bind)
    if not (bind == "localhost" or (address is not None and address.is_loopback)):
        where = f"on {bind}" if bind else "on every network interface (server.address unset)"
        return (f"this app is served {where}, not on a loopback address only, so a typed "
                f"name cannot approve: {SIGN_IN_HELP}")
    peer_address = _address(peer) if peer is not None else None
    lower = {k.lower() for k in headers}
    forwarded = [h for h in FORWARDING_HEADERS if h in lower]
    if (peer is not None and (peer_address is None or not peer_address.is_loopback)) or forwarded:
        via = f"through a proxy ({', '.join(forwarded)})" if forwarded else f"from {peer}"
        return (f"this browser reaches the app {via}, not from this machine, so a typed name "
                f"cannot approve: {SIGN_IN_HELP}")
    return None
