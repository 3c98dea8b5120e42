"""Tests for encoding_core.fetch.client against real local servers on 127.0.0.1 and 127.0.0.2."""

from __future__ import annotations

import gzip
import os
import time
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path

import brotli
import pytest

from encoding_core.errors import FetchError
from encoding_core.fetch.client import (
    USER_AGENT,
    BlockedAddressError,
    BodyTooLargeError,
    ConnectFailedError,
    ContentDecodingError,
    FetchSettings,
    FetchTimeoutError,
    InvalidURLError,
    NameNotFoundError,
    ProtocolError,
    TLSError,
    TooManyCodingsError,
    TooManyRedirectsError,
    UnsupportedSchemeError,
    fetch_page,
)
from tests.httpserver import (
    SEED_CASES,
    ScriptedServer,
    closed_port,
    endless,
    gzip_bomb,
    make_certificate,
    redirect,
    respond,
    server_tls,
    silent,
    trickle,
    wrong_length,
)

CAP = 1 << 20
BOTH = ("127.0.0.1/32", "127.0.0.2/32")
FAST = FetchSettings(connect_timeout=2, read_timeout=0.5, total_timeout=2.0, max_bytes=CAP,
                     allowed_networks=BOTH)
BINARY = os.urandom(4096)


def _settings(**changes: object) -> FetchSettings:
    values = {f: getattr(FAST, f) for f in FetchSettings.__dataclass_fields__}
    values.update(changes)
    return FetchSettings(**values)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def other() -> Iterator[ScriptedServer]:
    with ScriptedServer("127.0.0.2", routes={"/final": respond(b"<p>final</p>")}) as srv:
        yield srv


@pytest.fixture(scope="module")
def server(other: ScriptedServer) -> Iterator[ScriptedServer]:
    routes = {
        f"/seed/{name}": respond(body, headers=[("Content-Type", ctype)] if ctype else [])
        for name, body, ctype in SEED_CASES
    }
    routes.update({
        "/repeated": respond(b"x", headers=[("Content-Type", "text/html; charset=iso-8859-1"),
                                            ("content-TYPE", "text/html; charset=utf-8")]),
        "/r1": redirect("/r2", 301),
        "/r2": redirect(other.url("/final"), 307),
        "/loop": redirect("/loop"),
        "/to-file": redirect("file:///etc/passwd"),
        "/to-js": redirect("javascript:alert(1)"),
        "/to-http-foo": redirect("http:foo"),
        "/to-bad-ipv6": redirect("http://[::1/x"),
        "/codings-1000": respond(gzip.compress(b"x"), headers=[
            ("Content-Type", "text/html"), ("Content-Encoding", ", ".join(["gzip"] * 1000))]),
        "/silent": silent(),
        "/trickle": trickle(0.05),
        "/trickle-head": trickle(0.05, in_headers=True),
        "/endless": endless(),
        "/bomb-gzip": gzip_bomb(None, "gzip"),
        "/bomb-deflate": gzip_bomb(None, "deflate"),
        "/bomb-br": gzip_bomb(None, "br"),
        "/gzip": respond(gzip.compress(b"caf\xc3\xa9" * 100),
                         headers=[("Content-Type", "text/html"), ("Content-Encoding", "gzip")]),
        "/deflate-raw": respond(zlib.compress(b"raw deflate")[2:-4],
                                headers=[("Content-Encoding", "deflate")]),
        "/deflate-zlib": respond(zlib.compress(b"zlib deflate"),
                                 headers=[("Content-Encoding", "deflate")]),
        "/br": respond(brotli.compress(b"brotli body"), headers=[("Content-Encoding", "br")]),
        "/gzip-br": respond(brotli.compress(gzip.compress(b"two codings")),
                            headers=[("Content-Encoding", "gzip"), ("Content-Encoding", "br")]),
        "/not-gzip": respond(b"plain text", headers=[("Content-Encoding", "gzip")]),
        "/zstd": respond(b"\x28\xb5\x2f\xfd...", headers=[("Content-Encoding", "zstd")]),
        "/short": wrong_length(b"only ten b", 100),
        "/long": wrong_length(b"0123456789 and more", 10),
        "/binary": respond(BINARY, headers=[("Content-Type", "application/octet-stream")]),
        "/too-large": respond(b"a" * (CAP + 1)),
        "/too-large-unannounced": respond(b"a" * (CAP + 1), length=False),
        "/exact-cap": respond(b"a" * CAP),
        "/http10": respond(b"old", version="HTTP/1.0"),
        "/missing": respond(b"gone", status=404, reason="Not Found"),
    })
    with ScriptedServer("127.0.0.1", routes=routes) as srv:
        other.routes.update({
            "/to-first": redirect(srv.url("/seed/bom")),
            "/to-metadata": redirect("http://169.254.169.254/latest/meta-data/"),
            "/to-decimal": redirect(f"http://2130706433:{srv.port}/seed/bom"),
            "/to-mapped": redirect(f"http://[::ffff:127.0.0.1]:{srv.port}/seed/bom"),
        })
        yield srv


@pytest.mark.parametrize(("name", "body", "ctype"), SEED_CASES, ids=[c[0] for c in SEED_CASES])
def test_seed_cases_arrive_byte_exact(server: ScriptedServer, name: str, body: bytes,
                                      ctype: str | None) -> None:
    """Each seed case comes back with its exact bytes and Content-Type."""
    capture = fetch_page(server.url(f"/seed/{name}"), settings=FAST)
    assert capture.body == body
    assert capture.content_type == ctype
    assert capture.status == 200 and capture.final.reason == "OK"


def test_repeated_content_type_kept_raw(server: ScriptedServer) -> None:
    """Repeated headers stay separate, in order, with the case the server sent."""
    capture = fetch_page(server.url("/repeated"), settings=FAST)
    assert ("content-TYPE", "text/html; charset=utf-8") in capture.headers
    assert capture.final.header_values("Content-Type") == (
        "text/html; charset=iso-8859-1", "text/html; charset=utf-8")
    assert capture.content_type == "text/html; charset=iso-8859-1, text/html; charset=utf-8"


def test_redirect_chain_recorded(server: ScriptedServer, other: ScriptedServer) -> None:
    """Each hop keeps its status and Location; the final URL and address are the last hop's."""
    capture = fetch_page(server.url("/r1"), settings=FAST)
    assert [e.status for e in capture.exchanges] == [301, 307, 200]
    assert capture.redirects[0].header_values("Location") == ("/r2",)
    assert capture.redirects[1].url == server.url("/r2")
    assert capture.url == other.url("/final")
    assert capture.final.address == "127.0.0.2"
    assert capture.body == b"<p>final</p>"
    assert capture.requested_url == server.url("/r1")


@pytest.mark.parametrize("path", ["/to-first", "/to-metadata", "/to-decimal", "/to-mapped"],
                         ids=["127.0.0.1", "metadata", "decimal-loopback", "ipv4-mapped"])
def test_redirect_to_blocked_address(server: ScriptedServer, other: ScriptedServer,
                                     path: str) -> None:
    """Every redirect hop is checked: a hop to a blocked address is refused before connecting."""
    before = len(server.requests)
    settings = _settings(allowed_networks=("127.0.0.2/32",))
    with pytest.raises(BlockedAddressError, match="refusing to fetch"):
        fetch_page(other.url(path), settings=settings)
    assert len(server.requests) == before


def test_refused_redirect_says_which_hop(server: ScriptedServer, other: ScriptedServer) -> None:
    """A refusal on a redirect hop names the hop, the URL that redirected, its status, and where
    it pointed, before the guard's reason."""
    settings = _settings(allowed_networks=("127.0.0.2/32",))
    with pytest.raises(BlockedAddressError) as refused:
        fetch_page(other.url("/to-first"), settings=settings)
    message = str(refused.value)
    assert message.startswith(f"redirect 1 of the chain: {other.url('/to-first')} answered 30")
    assert "sent the fetch to http://127.0.0.1:" in message
    assert "refusing to fetch 127.0.0.1" in message


def test_refused_first_hop_is_not_called_a_redirect() -> None:
    """A URL refused as asked for says nothing of redirects."""
    with pytest.raises(BlockedAddressError) as refused:
        fetch_page("http://127.0.0.1:9/", settings=_settings(allowed_networks=()))
    assert "redirect" not in str(refused.value)


def test_redirect_loop(server: ScriptedServer) -> None:
    """A redirect loop ends at max_redirects with a message that names the loop."""
    with pytest.raises(TooManyRedirectsError, match="redirect loop"):
        fetch_page(server.url("/loop"), settings=FAST)


def test_redirect_limit_is_a_setting(server: ScriptedServer) -> None:
    """Two hops with max_redirects=1 are too many; with 2 they are followed."""
    with pytest.raises(TooManyRedirectsError, match="more than 1 redirects"):
        fetch_page(server.url("/r1"), settings=_settings(max_redirects=1))
    assert fetch_page(server.url("/r1"), settings=_settings(max_redirects=2)).status == 200


def test_redirect_to_file_scheme(server: ScriptedServer) -> None:
    """A redirect to a non-http scheme is refused."""
    with pytest.raises(UnsupportedSchemeError, match="redirected to 'file:///etc/passwd'"):
        fetch_page(server.url("/to-file"), settings=FAST)


@pytest.mark.parametrize(("path", "message"), [
    ("/silent", "sent nothing for 0.5 s"),
    ("/trickle", "total limit of 1 s"),
    ("/trickle-head", "total limit of 1 s"),
], ids=["never-answers", "trickles-body", "trickles-headers"])
def test_slow_servers_time_out(server: ScriptedServer, path: str, message: str) -> None:
    """A server that never answers or trickles bytes ends in a timeout within the limits."""
    started = time.monotonic()
    with pytest.raises(FetchTimeoutError, match=message):
        fetch_page(server.url(path), settings=_settings(total_timeout=1.0))
    # a generous bound, not a speed: without the limits these servers hold the request for
    # 30 s (silent) or more than an hour (one byte every 0.05 s)
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("path", ["/endless", "/bomb-gzip", "/bomb-deflate", "/bomb-br",
                                  "/too-large", "/too-large-unannounced"],
                         ids=["endless", "gzip-bomb", "deflate-bomb", "brotli-bomb",
                              "announced", "unannounced"])
def test_body_cap(server: ScriptedServer, path: str) -> None:
    """Endless bodies, compression bombs and large bodies stop at the cap."""
    with pytest.raises(BodyTooLargeError, match="cap of 1,048,576 bytes"):
        fetch_page(server.url(path), settings=FAST)


def test_body_exactly_at_cap(server: ScriptedServer) -> None:
    """A body of exactly max_bytes is accepted."""
    assert len(fetch_page(server.url("/exact-cap"), settings=FAST).body) == CAP


def test_gzip_bomb_memory_stays_near_cap(server: ScriptedServer) -> None:
    """Python memory while refusing a gzip bomb stays under twice the cap."""
    tracemalloc.start()
    try:
        with pytest.raises(BodyTooLargeError):
            fetch_page(server.url("/bomb-gzip"), settings=FAST)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * CAP


@pytest.mark.parametrize(("path", "body", "codings"), [
    ("/gzip", b"caf\xc3\xa9" * 100, ("gzip",)),
    ("/deflate-raw", b"raw deflate", ("deflate",)),
    ("/deflate-zlib", b"zlib deflate", ("deflate",)),
    ("/br", b"brotli body", ("br",)),
    ("/gzip-br", b"two codings", ("gzip", "br")),
], ids=["gzip", "raw-deflate", "zlib-deflate", "brotli", "gzip-then-brotli"])
def test_content_codings_removed(server: ScriptedServer, path: str, body: bytes,
                                 codings: tuple[str, ...]) -> None:
    """The body is returned with its content codings removed, and which ones is recorded."""
    capture = fetch_page(server.url(path), settings=FAST)
    assert capture.body == body
    assert capture.content_codings == codings
    assert capture.raw_length < len(body) or path != "/gzip"


def test_mislabelled_compression(server: ScriptedServer) -> None:
    """A body that is not what its Content-Encoding says is a ContentDecodingError."""
    with pytest.raises(ContentDecodingError, match="mislabels its compression"):
        fetch_page(server.url("/not-gzip"), settings=FAST)


def test_unknown_coding_kept_with_note(server: ScriptedServer) -> None:
    """An unsupported coding leaves the body as received, with a note."""
    capture = fetch_page(server.url("/zstd"), settings=FAST)
    assert capture.body.startswith(b"\x28\xb5\x2f\xfd")
    assert capture.content_codings == ()
    assert "zstd is not supported" in capture.notes[0]


def test_content_length_longer_than_body(server: ScriptedServer) -> None:
    """A body shorter than its Content-Length is a ProtocolError that says so."""
    with pytest.raises(ProtocolError, match="before sending the whole body"):
        fetch_page(server.url("/short"), settings=FAST)


def test_content_length_shorter_than_body(server: ScriptedServer) -> None:
    """A Content-Length shorter than the body is honoured: the rest is not read."""
    assert fetch_page(server.url("/long"), settings=FAST).body == b"0123456789"


def test_binary_content(server: ScriptedServer) -> None:
    """Binary bodies come back byte for byte."""
    capture = fetch_page(server.url("/binary"), settings=FAST)
    assert capture.body == BINARY
    assert capture.content_type == "application/octet-stream"


def test_status_version_and_timing(server: ScriptedServer) -> None:
    """Non-200 statuses are captures, not errors; HTTP version and elapsed are kept."""
    missing = fetch_page(server.url("/missing"), settings=FAST)
    assert (missing.status, missing.final.reason, missing.body) == (404, "Not Found", b"gone")
    old = fetch_page(server.url("/http10"), settings=FAST)
    assert old.final.http_version == "HTTP/1.0"
    assert 0 < old.final.elapsed <= old.elapsed < 2
    assert old.fetched_at.endswith("Z")


def test_user_agent_names_the_tool(server: ScriptedServer) -> None:
    """The request carries a User-Agent naming the tool, and the capture records it."""
    capture = fetch_page(server.url("/seed/bom"), settings=FAST)
    assert server.requests[-1].header("User-Agent") == USER_AGENT
    assert ("User-Agent", USER_AGENT) in capture.final.request_headers
    assert "encoding-triage" in USER_AGENT


BLOCKED_URLS = [
    "http://2130706433:{port}/", "http://0x7f.1:{port}/", "http://127.1:{port}/",
    "http://localhost:{port}/", "http://[::1]:{port}/", "http://[::ffff:127.0.0.1]:{port}/",
    "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://0.0.0.0:{port}/",
    "http://224.0.0.1/", "http://10.0.0.1/", "http://%31%32%37.0.0.1:{port}/",
]


@pytest.mark.parametrize("template", BLOCKED_URLS, ids=BLOCKED_URLS)
def test_blocked_by_default(server: ScriptedServer, template: str) -> None:
    """Without allowed networks, local and internal addresses in any spelling are refused."""
    before = len(server.requests)
    with pytest.raises(BlockedAddressError, match="allowed_networks"):
        fetch_page(template.format(port=server.port), settings=_settings(allowed_networks=()))
    assert len(server.requests) == before


def test_allowed_numeric_spelling_connects_to_checked_address(server: ScriptedServer) -> None:
    """An allowed numeric spelling reaches the address it means, Host header unchanged."""
    capture = fetch_page(server.url("/seed/bom", host="0x7f.1"),
                         settings=_settings(allowed_networks=("127.0.0.1/32",)))
    assert capture.body == SEED_CASES[0][1]
    assert capture.final.address == "127.0.0.1"
    assert server.requests[-1].header("Host") == f"0x7f.1:{server.port}"


@pytest.mark.parametrize(("url", "error", "message"), [
    ("ftp://example.com/", UnsupportedSchemeError, "only http and https"),
    ("file:///etc/passwd", UnsupportedSchemeError, "only http and https"),
    ("example.com/page", UnsupportedSchemeError, "did you mean https://example.com/page"),
    ("not a url", UnsupportedSchemeError, r"only http and https URLs are fetched$"),
    ("http://", InvalidURLError, "no host"),
    ("http://127.000.000.001/", InvalidURLError, "not a valid URL"),
    ("http://no-such-host.invalid/", NameNotFoundError, "could not resolve"),
], ids=["ftp", "file", "no-scheme", "words-no-hint", "no-host", "leading-zeros", "unknown-name"])
def test_unusable_urls(url: str, error: type[FetchError], message: str) -> None:
    """Unusable URLs fail with the matching FetchError and a hint."""
    with pytest.raises(error, match=message):
        fetch_page(url, settings=FAST)


def test_connection_refused() -> None:
    """A port with nothing listening is a ConnectFailedError naming the port."""
    port = closed_port()
    with pytest.raises(ConnectFailedError, match=f"refused the connection on port {port}"):
        fetch_page(f"http://127.0.0.1:{port}/", settings=FAST)


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ScriptedServer, Path]]:
    cert, key = make_certificate(tmp_path_factory.mktemp("tls"))
    with ScriptedServer(routes={"/": respond(b"secure")}, tls=server_tls(cert, key)) as srv:
        yield srv, cert


def test_tls_untrusted_certificate(tls_server: tuple[ScriptedServer, Path]) -> None:
    """A self-signed certificate is a TLSError that says why."""
    server, _ = tls_server
    with pytest.raises(TLSError, match="certificate"):
        fetch_page(server.url("/", host="localhost"), settings=FAST)


def test_tls_with_ca_file_checks_the_name(tls_server: tuple[ScriptedServer, Path]) -> None:
    """With its CA trusted, the pinned connection verifies the certificate against the name."""
    server, cert = tls_server
    capture = fetch_page(server.url("/", host="localhost"),
                         settings=_settings(ca_file=str(cert)))
    assert capture.body == b"secure"
    assert capture.url.startswith("https://localhost:")


def test_errors_share_one_base() -> None:
    """Every fetch error is a FetchError."""
    for error in (BlockedAddressError, BodyTooLargeError, ConnectFailedError,
                  ContentDecodingError, FetchTimeoutError, InvalidURLError, NameNotFoundError,
                  ProtocolError, TLSError, TooManyRedirectsError, UnsupportedSchemeError):
        assert issubclass(error, FetchError)


@pytest.mark.parametrize(("path", "location"), [
    ("/to-js", "javascript:alert(1)"),
    ("/to-http-foo", "http:foo"),
    ("/to-bad-ipv6", "http://[::1/x"),
], ids=["javascript", "http-colon-foo", "bad-ipv6"])
def test_a_bad_redirect_location_is_a_fetch_error_naming_the_hop(
        server: ScriptedServer, path: str, location: str) -> None:
    """A Location httpx cannot parse (its raw ``InvalidURL`` escaped before) is a FetchError that
    names the hop, the status and the Location."""
    with pytest.raises(FetchError) as refused:
        fetch_page(server.url(path), settings=FAST)
    message = str(refused.value)
    assert message.startswith(f"redirect 1 of the chain: {server.url(path)} answered 302")
    assert f"with Location {location!r}" in message


def test_too_many_content_codings_is_a_fetch_error(server: ScriptedServer) -> None:
    """1,000 ``gzip`` codings (a RecursionError before) are refused with a message."""
    with pytest.raises(TooManyCodingsError, match="lists 1,000 codings"):
        fetch_page(server.url("/codings-1000"), settings=FAST)
