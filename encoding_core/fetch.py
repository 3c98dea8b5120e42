"""Fetch one page for diagnosis: raw bytes and headers as received, never decoded to text.

``fetch_page(url, settings=...)`` sends one GET per hop with httpx and returns a ``Capture``:
every hop's status line and raw headers (order, case and repeats kept, so two Content-Type
headers stay two), the final URL, HTTP version, elapsed time, and the body with its content
codings removed. Limits, all in ``FetchSettings``:

- a connect timeout per connection, a read timeout per socket read, and a total deadline over
  the whole fetch (every hop, headers and body), so a trickling server cannot hold it open;
- a size cap on the bytes received *and* on the bytes after gzip/deflate/brotli decoding,
  checked while streaming (a compression bomb stops at the cap, memory stays near the cap);
- redirects followed one hop at a time, each target checked by the address guard
  (``addressguard.py``) before anything connects to it.

Errors are ``FetchError`` subclasses whose messages say what happened and what to try::

    FetchError
    ├── InvalidURLError          not a URL, or no host
    ├── UnsupportedSchemeError   not http or https (also a redirect to one)
    ├── NameNotFoundError        DNS has no answer (addressguard)
    ├── BlockedAddressError      loopback, private, metadata... (addressguard)
    ├── ConnectFailedError       refused, reset, unreachable
    ├── FetchTimeoutError        connect, read or total time limit
    ├── TLSError                 certificate or handshake failure
    ├── TooManyRedirectsError    more hops than max_redirects (loops included)
    ├── BodyTooLargeError        over max_bytes, received or decompressed
    ├── ProtocolError            malformed response, body shorter than its Content-Length
    └── ContentDecodingError     a Content-Encoding whose bytes do not decode

Differences from the Fetch Standard (https://fetch.spec.whatwg.org/):

=====================================  ======================================================
Fetch Standard                         here
=====================================  ======================================================
redirect limit 20                      10 by default (``max_redirects``)
Location parsed by the WHATWG URL      joined with ``httpx.URL.join`` (RFC 3986); the raw
parser after isomorphic decode         value is decoded as UTF-8, else latin-1
cookies and Referer carried per hop    none: each hop is a bare GET
=====================================  ======================================================
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import ssl
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from .addressguard import (
    BlockedAddressError,
    NameNotFoundError,
    PinnedBackend,
    PinnedTransport,
    check_host,
    parse_networks,
)
from .codings import BodyTooLargeError, ContentDecodingError, read_body
from .errors import FetchError

__all__ = [
    "USER_AGENT",
    "BlockedAddressError",
    "BodyTooLargeError",
    "Capture",
    "ConnectFailedError",
    "ContentDecodingError",
    "Exchange",
    "FetchError",
    "FetchSettings",
    "FetchTimeoutError",
    "InvalidURLError",
    "NameNotFoundError",
    "ProtocolError",
    "TLSError",
    "TooManyRedirectsError",
    "UnsupportedSchemeError",
    "configured_settings",
    "fetch_page",
]

ENV_ALLOWED_NETWORKS = "ENCODING_TRIAGE_ALLOWED_NETWORKS"
USER_AGENT = "encoding-triage/0.1 (encoding diagnosis; one page on request; python-httpx)"
_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
Headers = tuple[tuple[str, str], ...]


class InvalidURLError(FetchError):
    """The text is not a URL that can be fetched."""


class UnsupportedSchemeError(FetchError):
    """The URL (or a redirect target) is not http or https."""


class ConnectFailedError(FetchError):
    """The connection was refused, reset or could not be made."""


class FetchTimeoutError(FetchError):
    """A connect, read or total time limit passed."""


class TLSError(FetchError):
    """The TLS handshake failed (certificate, protocol)."""


class TooManyRedirectsError(FetchError):
    """More redirect hops than allowed."""


class ProtocolError(FetchError):
    """The server broke HTTP: malformed response, or a body shorter than announced."""


@dataclass(frozen=True, slots=True)
class FetchSettings:
    """Limits and policy of one fetch. ``allowed_networks`` opens blocked ranges on purpose."""

    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    total_timeout: float = 60.0
    max_bytes: int = 10 * 1024 * 1024
    max_redirects: int = 10
    allowed_networks: tuple[str, ...] = ()
    user_agent: str = USER_AGENT
    ca_file: str | None = None  # extra trust, for an intranet host with its own CA

    def __post_init__(self) -> None:
        parse_networks(self.allowed_networks)  # raises ValueError naming a bad entry
        if self.max_bytes <= 0 or self.max_redirects < 0:
            raise ValueError("max_bytes must be positive and max_redirects not negative")


def configured_settings(config: Mapping[str, Any] | None = None,
                        environ: Mapping[str, str] | None = None) -> FetchSettings:
    """FetchSettings from the app's config, then the environment, then the defaults.

    - ``config`` is a mapping such as the ``[fetch]`` section of ``.streamlit/secrets.toml``,
      with any ``FetchSettings`` field (``allowed_networks`` as a list);
    - ``$ENCODING_TRIAGE_ALLOWED_NETWORKS`` (comma-separated) when the config has no
      ``allowed_networks``.

    Raises ValueError naming an unknown key or a bad value.

    >>> configured_settings({"max_bytes": 5}, {ENV_ALLOWED_NETWORKS: "10.0.0.0/8, ::1"})
    ... # doctest: +ELLIPSIS
    FetchSettings(..., max_bytes=5, ..., allowed_networks=('10.0.0.0/8', '::1'), ...)
    """
    values = dict(config or {})
    fields = set(FetchSettings.__dataclass_fields__)
    unknown = sorted(set(values) - fields - {"landing_dir", "retention_days", "warc_dir"})
    if unknown:
        raise ValueError(f"unknown fetch setting(s): {', '.join(unknown)}")
    values = {k: v for k, v in values.items() if k in fields}
    if "allowed_networks" not in values:
        env = (environ if environ is not None else os.environ).get(ENV_ALLOWED_NETWORKS, "")
        values["allowed_networks"] = [n.strip() for n in env.split(",") if n.strip()]
    values["allowed_networks"] = tuple(values["allowed_networks"])
    try:
        return FetchSettings(**values)
    except TypeError as exc:
        raise ValueError(f"bad fetch settings: {exc}") from exc


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request and the response head it got: a redirect hop, or the final response."""

    url: str
    status: int
    reason: str
    http_version: str
    headers: Headers                 # raw, as received: order, case, repeats (latin-1 decoded)
    request_headers: Headers = ()
    address: str | None = None       # the IP address connected to
    elapsed: float = 0.0             # seconds until the response head arrived

    def header_values(self, name: str) -> tuple[str, ...]:
        """Every value of header ``name`` (case-insensitive), in order received."""
        wanted = name.lower()
        return tuple(value for key, value in self.headers if key.lower() == wanted)


@dataclass(frozen=True, slots=True)
class Capture:
    """A fetched page: every hop, and the final body with its content codings removed."""

    requested_url: str
    exchanges: tuple[Exchange, ...]  # in order; the last is the response the body belongs to
    body: bytes
    fetched_at: str                  # ISO 8601, UTC
    elapsed: float = 0.0
    raw_length: int = 0              # body bytes as received, before content decoding
    content_codings: tuple[str, ...] = ()  # codings removed, as the server applied them
    notes: tuple[str, ...] = ()
    capture_id: str | None = None    # landing-zone id, once kept
    _final: Exchange = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.exchanges:
            raise ValueError("a capture needs at least one exchange")
        object.__setattr__(self, "_final", self.exchanges[-1])

    @property
    def final(self) -> Exchange:
        """The response the body belongs to."""
        return self._final

    @property
    def redirects(self) -> tuple[Exchange, ...]:
        """The hops before the final response."""
        return self.exchanges[:-1]

    @property
    def url(self) -> str:
        """The final URL, after redirects."""
        return self._final.url

    @property
    def status(self) -> int:
        """The final status code."""
        return self._final.status

    @property
    def headers(self) -> Headers:
        """The final response's raw headers."""
        return self._final.headers

    @property
    def content_type(self) -> str | None:
        """The Content-Type to decode with: repeated headers combined with ", " (Fetch "get").

        >>> Capture("u", (Exchange("u", 200, "OK", "HTTP/1.1", (("Content-Type", "a"),
        ...     ("content-type", "b"))),), b"", "t").content_type
        'a, b'
        """
        values = self._final.header_values("content-type")
        return ", ".join(values) if values else None

    def to_dict(self, *, include_body: bool = False) -> dict[str, Any]:
        """A plain dict for JSON: the body as its length and SHA-1 (base64 when asked)."""
        data: dict[str, Any] = {
            "capture_id": self.capture_id, "requested_url": self.requested_url,
            "url": self.url, "status": self.status, "content_type": self.content_type,
            "fetched_at": self.fetched_at, "elapsed": self.elapsed,
            "body_length": len(self.body), "body_sha1": hashlib.sha1(self.body).hexdigest(),
            "raw_length": self.raw_length, "content_codings": list(self.content_codings),
            "notes": list(self.notes), "exchanges": [asdict(e) for e in self.exchanges]}
        if include_body:
            data["body_base64"] = base64.b64encode(self.body).decode("ascii")
        return data


@functools.lru_cache(maxsize=8)
def _ssl_context(ca_file: str | None) -> ssl.SSLContext:
    context = httpx.create_ssl_context(verify=True, trust_env=False)
    if ca_file:
        context.load_verify_locations(cafile=ca_file)
    return context


def _parse_url(text: str, base: httpx.URL | None = None) -> httpx.URL:
    try:
        url = base.join(text) if base is not None else httpx.URL(text.strip())
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise InvalidURLError(f"not a valid URL: {text!r} ({exc})") from exc
    if url.scheme not in ("http", "https"):
        hint = f"; did you mean https://{text.strip()}?" if not url.scheme else ""
        where = "redirected to" if base is not None else "asked for"
        raise UnsupportedSchemeError(
            f"{where} {text!r}: only http and https URLs are fetched{hint}")
    if not url.host:
        raise InvalidURLError(f"not a valid URL: {text!r} has no host")
    return url


def _raw(headers: Sequence[tuple[bytes, bytes]]) -> Headers:
    return tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in headers)


def _cause(exc: BaseException) -> BaseException:
    while exc.__cause__ is not None or exc.__context__ is not None:
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return exc


def _fetch_error(exc: httpx.HTTPError, url: httpx.URL, settings: FetchSettings,
                 deadline: float) -> FetchError:
    """The FetchError a user can act on, for an httpx error while fetching ``url``."""
    host, cause = url.host, _cause(exc)
    if isinstance(exc, httpx.TimeoutException):
        if time.monotonic() >= deadline:
            return FetchTimeoutError(
                f"fetching {url} took longer than the total limit of {settings.total_timeout:g} s "
                "(the server may be sending very slowly): try again later, or raise total_timeout")
        if isinstance(exc, httpx.ConnectTimeout):
            return FetchTimeoutError(
                f"could not connect to {host} within {settings.connect_timeout:g} s: the host "
                "may be down, or a firewall drops the connection")
        return FetchTimeoutError(
            f"{host} sent nothing for {settings.read_timeout:g} s: the server is stuck or very "
            "slow; try again later, or raise read_timeout")
    if isinstance(cause, ssl.SSLCertVerificationError):
        return TLSError(
            f"the TLS certificate of {host} is not valid ({cause.verify_message}): the site is "
            "misconfigured or the connection is intercepted; for an intranet CA set ca_file")
    if isinstance(cause, ssl.SSLError):
        return TLSError(f"the TLS handshake with {host} failed ({cause.reason or cause})")
    if isinstance(exc, httpx.ConnectError | httpx.ReadError | httpx.WriteError):
        if isinstance(cause, ConnectionRefusedError):
            return ConnectFailedError(
                f"{host} refused the connection on port {url.port or _port(url)}: nothing "
                "listens there; check the URL's port")
        return ConnectFailedError(f"the connection to {host} failed or broke ({cause})")
    if isinstance(exc, httpx.RemoteProtocolError):
        if "complete message body" in str(exc):
            return ProtocolError(
                f"{host} closed the connection before sending the whole body ({exc}): a wrong "
                "Content-Length or a cut connection; try again, nothing was kept")
        return ProtocolError(f"{host} sent a malformed HTTP response ({exc})")
    return FetchError(f"fetching {url} failed ({type(exc).__name__}: {exc})")


def _port(url: httpx.URL) -> int:
    return url.port or (443 if url.scheme == "https" else 80)


def _location(response: httpx.Response) -> str | None:
    """The raw Location header of a redirect, decoded as UTF-8 (latin-1 if not UTF-8)."""
    if response.status_code not in _REDIRECTS:
        return None
    raw = next((v for k, v in response.headers.raw if k.lower() == b"location"), None)
    if raw is None:
        return None
    try:
        return raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return raw.decode("latin-1").strip()


def _exchange(response: httpx.Response, url: httpx.URL, started: float) -> Exchange:
    stream = response.extensions.get("network_stream")
    peer = stream.get_extra_info("server_addr") if stream is not None else None
    reason = response.extensions.get("reason_phrase", b"")
    return Exchange(
        url=str(url), status=response.status_code,
        reason=reason.decode("latin-1") if isinstance(reason, bytes) else str(reason),
        http_version=response.http_version, headers=_raw(response.headers.raw),
        request_headers=_raw(response.request.headers.raw),
        address=str(peer[0]) if isinstance(peer, tuple) else None,
        elapsed=time.monotonic() - started)


def _announced_too_large(response: httpx.Response, max_bytes: int) -> None:
    length = response.headers.get("content-length", "")
    if length.strip().isdigit() and int(length) > max_bytes:
        raise BodyTooLargeError(
            f"the server announces a body of {int(length):,} bytes, over the cap of "
            f"{max_bytes:,} bytes: nothing was read; raise max_bytes if you need this page")


def fetch_page(url: str, *, settings: FetchSettings | None = None) -> Capture:
    """Fetch ``url`` with GET, following redirects; the raw body and every hop's headers.

    - each hop's host is checked by the address guard, and the connection goes to the
      address checked;
    - 301, 302, 303, 307 and 308 with a Location are followed, up to ``max_redirects``;
    - any other status (404, 500, 300...) is the final response: its body is captured.
    """
    settings = settings or FetchSettings()
    target = _parse_url(url)
    fetched_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    started = time.monotonic()
    deadline = started + settings.total_timeout
    backend = PinnedBackend(deadline)
    timeout = httpx.Timeout(settings.read_timeout, connect=settings.connect_timeout)
    headers = {"User-Agent": settings.user_agent, "Accept": _ACCEPT,
               "Accept-Encoding": "gzip, deflate, br"}
    exchanges: list[Exchange] = []
    transport = PinnedTransport(backend, verify=_ssl_context(settings.ca_file))
    allowed = parse_networks(settings.allowed_networks)
    hop_url = target
    with httpx.Client(transport=transport, timeout=timeout, headers=headers,
                      follow_redirects=False, trust_env=False) as client:
        for _ in range(settings.max_redirects + 1):
            host = hop_url.raw_host.decode("ascii")
            addresses = check_host(host, _port(hop_url), allowed,
                                   timeout=settings.connect_timeout)
            backend.pin(host, _port(hop_url), addresses)
            sent = time.monotonic()
            try:
                with client.stream("GET", hop_url) as response:
                    exchanges.append(_exchange(response, hop_url, sent))
                    location = _location(response)
                    if location is None:
                        _announced_too_large(response, settings.max_bytes)
                        body = read_body(response.iter_raw(),
                                         response.headers.get_list("content-encoding"),
                                         settings.max_bytes)
                        return Capture(
                            requested_url=str(target), exchanges=tuple(exchanges),
                            body=body.data, fetched_at=fetched_at,
                            elapsed=time.monotonic() - started, raw_length=body.raw_length,
                            content_codings=body.codings, notes=body.notes)
            except httpx.HTTPError as exc:
                raise _fetch_error(exc, hop_url, settings, deadline) from exc
            hop_url = _parse_url(location, base=hop_url)
    chain = [e.url for e in exchanges]
    loop = " (a redirect loop)" if len(set(chain)) < len(chain) else ""
    raise TooManyRedirectsError(
        f"more than {settings.max_redirects} redirects{loop}, starting at {target}: "
        f"{' -> '.join(chain[:4])} ...; open the last URL directly to see where it goes")
