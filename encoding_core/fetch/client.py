"""Fetch one page for diagnosis: raw bytes and headers as received, never decoded to text.

``fetch_page(url, settings=...)`` sends one GET per hop with httpx and returns a ``Capture``
(``models.py``): every hop's status line and raw headers (order, case and repeats kept,
so two Content-Type headers stay two), the final URL, HTTP version, elapsed time, and the body
with its content codings removed. Limits, all in ``FetchSettings`` (``settings.py``):

- a connect timeout per connection, a read timeout per socket read, and a total deadline over
  the whole fetch (every hop, headers and body), so a trickling server cannot hold it open;
- a size cap on the bytes received *and* on the bytes after gzip/deflate/brotli decoding,
  checked while streaming (a compression bomb stops at the cap, memory stays near the cap);
- redirects followed one hop at a time, each target checked by the address guard
  (``addressguard.py``) before anything connects to it; a Location that is no URL to follow
  (``javascript:alert(1)``, ``http:foo``) is an ``InvalidURLError`` naming the hop.

Errors are ``FetchError`` subclasses whose messages say what happened and what to try; the tree
is drawn in ``errors.py``, and every one of them is importable from here.

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

import functools
import ssl
import time
from collections.abc import Sequence
from datetime import UTC, datetime

import httpx

from ..errors import (
    ConnectFailedError,
    FetchError,
    FetchTimeoutError,
    InvalidURLError,
    ProtocolError,
    TLSError,
    TooManyRedirectsError,
    UnsupportedSchemeError,
)
from .addressguard import (
    BlockedAddressError,
    NameNotFoundError,
    check_host,
    parse_networks,
)
from .codings import BodyTooLargeError, ContentDecodingError, TooManyCodingsError, read_body
from .http_message import Headers
from .models import Capture, Exchange
from .pinned_transport import PinnedBackend, PinnedTransport
from .settings import ENV_ALLOWED_NETWORKS as ENV_ALLOWED_NETWORKS
from .settings import USER_AGENT, FetchSettings, configured_settings

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
    "TooManyCodingsError",
    "TooManyRedirectsError",
    "UnsupportedSchemeError",
    "configured_settings",
    "fetch_page",
]

_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


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
        bare = text.strip()
        host = bare.split("/", 1)[0]
        looks_like_host = (not url.scheme and bare and not any(c.isspace() for c in bare)
                           and ("." in host or host.split(":")[0] == "localhost"))
        hint = f"; did you mean https://{bare}?" if looks_like_host else ""
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


def _bad_hop(location: str, exchanges: list[Exchange], exc: Exception) -> FetchError:
    """The error for a redirect whose Location cannot be followed: which hop, from where."""
    last = exchanges[-1]
    kind = type(exc) if isinstance(exc, FetchError) else InvalidURLError
    why = str(exc) if isinstance(exc, FetchError) else f"not a URL that can be followed ({exc})"
    return kind(f"redirect {len(exchanges)} of the chain: {last.url} answered {last.status} "
                f"{last.reason} with Location {location[:200]!r}; {why}")


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
    # each hop's exchange and Location as soon as its head arrives (see InvalidURL below)
    answered: list[tuple[Exchange, str | None]] = []

    def hook(response: httpx.Response) -> None:
        answered.append((_exchange(response, hop_url, sent), _location(response)))

    sent = started
    with httpx.Client(transport=transport, timeout=timeout, headers=headers,
                      follow_redirects=False, trust_env=False,
                      event_hooks={"response": [hook]}) as client:
        for _ in range(settings.max_redirects + 1):
            host = hop_url.raw_host.decode("ascii")
            try:
                addresses = check_host(host, _port(hop_url), allowed,
                                       timeout=settings.connect_timeout)
            except (BlockedAddressError, NameNotFoundError) as exc:
                if not exchanges:
                    raise
                # A refusal on a redirect hop says it was one: which hop, from where to where.
                last = exchanges[-1]
                raise type(exc)(
                    f"redirect {len(exchanges)} of the chain: {last.url} answered {last.status} "
                    f"{last.reason} and sent the fetch to {hop_url}; {exc}") from exc
            backend.pin(host, _port(hop_url), addresses)
            sent, heard = time.monotonic(), len(answered)
            try:
                with client.stream("GET", hop_url) as response:
                    exchanges.append(answered[-1][0])
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
            except (httpx.HTTPError, httpx.InvalidURL) as exc:
                # httpx builds the next request of a redirect even when it follows none, and a
                # Location it cannot parse (``javascript:alert(1)``, ``http:foo``, a bad port)
                # raises there, before the response is handed back: the hook kept the hop
                exchange, location = answered[-1] if len(answered) > heard else (None, None)
                if exchange is not None and location is not None:
                    exchanges.append(exchange)
                    raise _bad_hop(location, exchanges, exc) from exc
                if isinstance(exc, httpx.InvalidURL):
                    raise InvalidURLError(f"fetching {hop_url} failed: {exc}") from exc
                raise _fetch_error(exc, hop_url, settings, deadline) from exc
            try:
                hop_url = _parse_url(location, base=hop_url)
            except FetchError as exc:
                raise _bad_hop(location, exchanges, exc) from exc
    chain = [e.url for e in exchanges]
    loop = " (a redirect loop)" if len(set(chain)) < len(chain) else ""
    raise TooManyRedirectsError(
        f"more than {settings.max_redirects} redirects{loop}, starting at {target}: "
        f"{' -> '.join(chain[:4])} ...; open the last URL directly to see where it goes")
