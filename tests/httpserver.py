"""A real HTTP server for tests: scripted raw responses on 127.0.0.1 or 127.0.0.2.

Each route is a handler that writes raw bytes to the socket, so a test can serve what no
well-behaved server would: repeated headers in odd case, a wrong Content-Length, a body that
never ends, a gzip bomb, a server that never answers or trickles bytes. One thread per
connection; every connection is closed after its response.

    with ScriptedServer(routes={"/": respond(b"hi")}) as server:
        fetch_page(server.url("/"), settings=...)
"""

from __future__ import annotations

import contextlib
import socket
import socketserver
import ssl
import subprocess
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import brotli

Headers = Sequence[tuple[str, str]]


@dataclass
class Request:
    """What a client sent: request line and raw headers."""

    method: str
    target: str
    version: str
    headers: list[tuple[str, str]]
    received: float = field(default_factory=time.monotonic)

    def header(self, name: str) -> str | None:
        """The last value of header ``name`` (case-insensitive), or None."""
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        return values[-1] if values else None


@dataclass
class Conn:
    """One accepted connection, handed to a route handler."""

    sock: socket.socket
    request: Request
    stopping: threading.Event
    server: ScriptedServer = field(repr=False)

    def send(self, data: bytes) -> bool:
        """Send bytes; False once the client has gone away."""
        try:
            self.sock.sendall(data)
        except (OSError, ssl.SSLError):
            return False
        return True


Handler = Callable[[Conn], None]


def _head(status: int, reason: str, headers: Headers, version: str = "HTTP/1.1") -> bytes:
    lines = [f"{version} {status} {reason}".encode("latin-1")]
    lines += [f"{k}: {v}".encode("latin-1") for k, v in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def respond(body: bytes = b"", *, status: int = 200, reason: str = "OK",
            headers: Headers = (("Content-Type", "text/html"),), length: bool = True,
            version: str = "HTTP/1.1") -> Handler:
    """A complete response; Content-Length added unless ``length`` is False."""
    extra = [("Content-Length", str(len(body)))] if length else []
    data = _head(status, reason, [*headers, *extra, ("Connection", "close")], version) + body

    def handle(conn: Conn) -> None:
        conn.send(data)
    return handle


def redirect(location: str, status: int = 302) -> Handler:
    """A redirect to ``location`` (sent as given, relative or absolute)."""
    return respond(b"", status=status, reason="Found", headers=[("Location", location)])


def silent() -> Handler:
    """Read the request, then never answer (until the server stops)."""
    def handle(conn: Conn) -> None:
        conn.stopping.wait(30)
    return handle


def trickle(interval: float = 0.05, *, in_headers: bool = False) -> Handler:
    """Send one byte every ``interval`` seconds, forever: in the body, or in the status line."""
    def handle(conn: Conn) -> None:
        if in_headers:
            data = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 100_000
        else:
            if not conn.send(_head(200, "OK", [("Content-Type", "text/html")])):
                return
            data = b"<p>" + b"x" * 100_000
        for i in range(len(data)):
            if conn.stopping.wait(interval) or not conn.send(data[i:i + 1]):
                return
    return handle


def _stream(head: bytes, chunks: Iterable[bytes]) -> Handler:
    def handle(conn: Conn) -> None:
        if not conn.send(head):
            return
        for chunk in chunks:
            if conn.stopping.is_set() or not conn.send(chunk):
                return
    return handle


def endless(content_type: str = "text/html") -> Handler:
    """A body that never ends (no Content-Length; the client must stop reading)."""
    def chunks() -> Iterable[bytes]:
        block = b"<p>" + b"a" * 65_533
        while True:
            yield block
    head = _head(200, "OK", [("Content-Type", content_type), ("Connection", "close")])
    return lambda conn: _stream(head, chunks())(conn)


def gzip_bomb(total: int | None = None, coding: str = "gzip") -> Handler:
    """Zeros compressed on the fly (gzip, deflate or br): ``total`` bytes, or endless."""
    def chunks() -> Iterable[bytes]:
        block, sent = bytes(1 << 16), 0
        if coding == "br":
            compressor = brotli.Compressor(quality=1)
            compress, flush = compressor.process, compressor.finish
        else:
            z = zlib.compressobj(9, zlib.DEFLATED, 31 if coding == "gzip" else 15)
            compress, flush = z.compress, z.flush
        while total is None or sent < total:
            out = compress(block)
            sent += len(block)
            if out:
                yield out
        yield flush()
    head = _head(200, "OK", [("Content-Type", "text/html"), ("Content-Encoding", coding),
                             ("Connection", "close")])
    return lambda conn: _stream(head, chunks())(conn)


def wrong_length(body: bytes, declared: int) -> Handler:
    """Announce ``declared`` bytes, send ``body``, close."""
    return respond(body, headers=[("Content-Type", "text/html"),
                                  ("Content-Length", str(declared))], length=False)


# Seed 000's test cases, served with their headers: (id, body, Content-Type).
SEED_CASES: list[tuple[str, bytes, str | None]] = [
    ("bom", b"\xef\xbb\xbfcaf\xc3\xa9", None),
    ("http-header", b"caf\xc3\xa9", "text/html; charset=utf-8"),
    ("meta-tag", b'<meta charset="utf-8">caf\xc3\xa9', None),
    ("windows-1252-quotes", b"\x93quoted\x94", "text/html; charset=iso-8859-1"),
    ("header-lies", b"caf\xc3\xa9", "text/html; charset=utf-8"),
]


class _Handler(socketserver.BaseRequestHandler):
    server: _TCPServer

    def handle(self) -> None:
        owner = self.server.owner
        sock: socket.socket = self.request
        if owner.tls is not None:
            try:
                sock = owner.tls.wrap_socket(sock, server_side=True)
            except (OSError, ssl.SSLError):
                return  # the client refused our certificate
        sock.settimeout(10)
        data = b""
        try:
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = sock.recv(4096)
                if not chunk:
                    return
                data += chunk
        except OSError:
            return
        head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        method, target, version = ([*head[0].split(" ", 2), "", ""])[:3]
        headers = [(k.strip(), v.strip()) for k, _, v in (line.partition(":") for line in head[1:])]
        request = Request(method, target, version, headers)
        owner.requests.append(request)
        route = owner.routes.get(target.split("?", 1)[0], respond(b"not found", status=404,
                                                                   reason="Not Found"))
        route(Conn(sock, request, owner.stopping, owner))
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()


class _TCPServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: ScriptedServer


class ScriptedServer:
    """A threaded server on ``host`` (any 127.x address), port chosen by the OS."""

    def __init__(self, host: str = "127.0.0.1", routes: dict[str, Handler] | None = None,
                 *, tls: ssl.SSLContext | None = None) -> None:
        self.host = host
        self.routes: dict[str, Handler] = dict(routes or {})
        self.requests: list[Request] = []
        self.stopping = threading.Event()
        self.tls = tls
        self._server = _TCPServer((host, 0), _Handler)
        self._server.owner = self
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)

    def url(self, path: str = "/", host: str | None = None) -> str:
        """The URL of ``path`` on this server (``host`` to spell the host another way)."""
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://{host or self.host}:{self.port}{path}"

    def start(self) -> ScriptedServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def closed_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
    return port


def make_certificate(folder: Path, name: str = "localhost") -> tuple[Path, Path]:
    """A self-signed certificate for ``name`` and 127.0.0.1 (cert, key), made with openssl."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name},IP:127.0.0.1"],
        check=True, capture_output=True, timeout=30)
    return cert, key


def server_tls(cert: Path, key: Path) -> ssl.SSLContext:
    """A server-side TLS context for ``make_certificate``'s files."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll ``predicate`` until true or ``timeout``; its last value."""
    end = time.monotonic() + timeout
    while not predicate() and time.monotonic() < end:
        time.sleep(0.01)
    return predicate()
